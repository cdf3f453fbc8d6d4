package gitsource

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// openRepo opens a local repository (detect: dir may be any folder of its
// working tree) whose objects are read within the limits: see
// [localStorage].
func openRepo(dir string, detect bool) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: detect, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, err
	}
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected repository storage %T", dir, repo.Storer)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return git.Open(&localStorage{Storage: st}, nil) // bare
	}
	return git.Open(&localStorage{Storage: st}, wt.Filesystem)
}

// localStorage reads the objects of a local repository, which may hold
// objects nobody checked (a pull request's commits, fetched as they are):
// no object larger than --max-git-blob-bytes is read, whatever kind it is
// (a file, a folder listing, a commit). A loose object's size is read from
// its header, and its content is never read past it (go-git would read a
// loose object whole into memory, and trust its header); a packed object's
// size comes from the pack's index and object header (for a delta, from
// the delta's first bytes).
type localStorage struct {
	*filesystem.Storage
}

// EncodedObject implements storer.EncodedObjectStorer.
func (s *localStorage) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	max := limits.Current().GitBlobBytes
	obj, err := s.loose(h, max)
	if errors.Is(err, fs.ErrNotExist) {
		size, serr := s.Storage.EncodedObjectSize(h)
		if serr == nil && size > max {
			return nil, objectLimit(max, h)
		}
		obj, err = s.Storage.EncodedObject(t, h)
	}
	if err != nil {
		return nil, err
	}
	if obj.Size() > max {
		return nil, objectLimit(max, h)
	}
	if t != plumbing.AnyObject && obj.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return obj, nil
}

func objectLimit(max int64, h plumbing.Hash) error {
	return limits.Err("git-blob-bytes", max, "object "+short(h.String()))
}

// loose reads the loose object h: fs.ErrNotExist when there is none.
func (s *localStorage) loose(h plumbing.Hash, max int64) (plumbing.EncodedObject, error) {
	id := h.String()
	f, err := s.Filesystem().Open(path.Join("objects", id[:2], id[2:]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := objfile.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", short(id), err)
	}
	defer r.Close()
	t, size, err := r.Header()
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", short(id), err)
	}
	if size > max {
		return nil, objectLimit(max, h)
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(t)
	n, err := io.Copy(obj, io.LimitReader(r, size+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("object %s: %w", short(id), err)
	case n != size:
		return nil, fmt.Errorf("object %s is corrupt: its header says %d bytes, it holds %d or more", short(id), size, n)
	}
	return obj, nil
}
