package gitsource

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Revision is a revision of a local repository written out by
// CheckoutRevision.
type Revision struct {
	// Root is the repository's working tree (the folder holding .git).
	Root string
	// Commit is the commit the revision names.
	Commit string
}

// CheckoutRevision writes the tree of revision rev (a branch, tag, commit
// or any revision git understands, e.g. origin/main or HEAD~1) of the git
// repository that holds dir into dst, an empty folder. Files are bounded
// as for fetched trees (--max-git-blob-bytes, --max-git-tree-bytes);
// symbolic links are written as links (a bundle refuses those that leave
// it); submodules are left out.
func CheckoutRevision(dir, rev, dst string) (Revision, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
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
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return Revision{}, errorf(ErrNotFound, "revision %q not found in %s: %v", rev, wt.Filesystem.Root(), err)
	}
	if _, err := writeCommit(repo.Storer, *h, dst, ""); err != nil {
		return Revision{}, fmt.Errorf("cannot write revision %q of %s: %w", rev, wt.Filesystem.Root(), err)
	}
	root, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return Revision{}, err
	}
	return Revision{Root: root, Commit: h.String()}, nil
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
