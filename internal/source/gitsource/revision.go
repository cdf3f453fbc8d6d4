package gitsource

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
)

// Revision is a revision of a local repository written out by
// CheckoutRevision.
type Revision struct {
	// Root is the repository's working tree (the folder holding .git).
	Root string
	// Commit is the commit the revision names.
	Commit string
}

// CheckoutRevision writes the tree of revision rev of the git repository
// that holds dir into dst, an empty folder. rev is read exactly as git
// reads it, in the forms listed at [parseRevision] (commit ids, HEAD,
// branch and tag names, each followed by ~N and ^N); any other spec is an
// error ([ErrInvalid]) naming it, never another revision. Objects are read within
// --max-git-blob-bytes, the tree within --max-git-tree-entries and
// --max-git-tree-bytes (checked before anything is written); symbolic
// links are written as links (a bundle refuses those that leave it);
// submodules are left out. On error dst may hold part of the tree: the
// caller removes it.
func CheckoutRevision(dir, rev, dst string) (Revision, error) {
	spec, err := parseRevision(rev)
	if err != nil {
		return Revision{}, err
	}
	repo, err := openRepo(dir, true)
	if err != nil {
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return Revision{}, errorf(ErrNotFound, "%s is not in a git repository", dir)
		}
		return Revision{}, err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return Revision{}, fmt.Errorf("the repository of %s has no working tree: %w", dir, err)
	}
	c, err := spec.resolve(repo)
	if err != nil {
		return Revision{}, fmt.Errorf("revision %q in %s: %w", rev, wt.Filesystem.Root(), err)
	}
	if _, err := writeCommit(repo.Storer, c.Hash, dst, ""); err != nil {
		return Revision{}, fmt.Errorf("cannot write revision %q of %s: %w", rev, wt.Filesystem.Root(), err)
	}
	root, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return Revision{}, err
	}
	return Revision{Root: root, Commit: c.Hash.String()}, nil
}

// InRevision is where path (a file of the working tree of rev.Root) lies
// in a checkout of the revision at dst.
func InRevision(rev Revision, dst, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(rev.Root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s is not inside the repository %s", path, rev.Root)
	}
	p := filepath.Join(dst, rel)
	if _, err := os.Lstat(p); err != nil {
		return "", errorf(ErrNotFound, "%s does not exist at commit %s", filepath.ToSlash(rel), short(rev.Commit))
	}
	return p, nil
}
