package gitsource

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// writeCommit writes the tree of commit into dir: regular files, executable
// files (mode 0755), symbolic links as symbolic links (checked when opened);
// submodules (gitlinks) are recorded but not fetched.
func writeCommit(st storer.EncodedObjectStorer, commit plumbing.Hash, dir, url string) (*meta, error) {
	c, err := object.GetCommit(st, commit)
	if err != nil {
		return nil, errorf(ErrNotFound, "commit %s not found", short(commit.String()))
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("commit %s: reading its tree: %w", short(commit.String()), err)
	}
	if err := checkTree(st, tree.Hash); err != nil {
		return nil, err
	}
	m := &meta{URL: url, Commit: commit.String(), FetchedAt: time.Now().UTC(), Symlinks: map[string]string{}}
	if err := writeTree(st, tree, dir, "", m); err != nil {
		return nil, err
	}
	sort.Strings(m.Submodules)
	return m, nil
}

func writeTree(st storer.EncodedObjectStorer, tree *object.Tree, dir, rel string, m *meta) error {
	for _, e := range tree.Entries {
		if max := limits.Current().GitTreeEntries; m.entries >= max {
			return limits.Err("git-tree-entries", max, "the tree")
		}
		m.entries++
		if !validName(e.Name) {
			return errorf(ErrUnsafe, "the tree has an invalid file name %q in %q", e.Name, "/"+rel)
		}
		p := path.Join(rel, e.Name)
		full := filepath.Join(dir, filepath.FromSlash(p))
		switch e.Mode {
		case filemode.Dir:
			sub, err := object.GetTree(st, e.Hash)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if err := os.Mkdir(full, 0o755); err != nil {
				return collision(p, err)
			}
			if err := writeTree(st, sub, dir, p, m); err != nil {
				return err
			}
		case filemode.Regular, filemode.Deprecated, filemode.Executable:
			perm := os.FileMode(0o644)
			if e.Mode == filemode.Executable {
				perm = 0o755
			}
			if err := writeBlob(st, e.Hash, full, perm, m); err != nil {
				var le *diag.LimitError
				if errors.As(err, &le) {
					return fmt.Errorf("%s: %w", p, err)
				}
				return collision(p, err)
			}
			m.Files++
		case filemode.Symlink:
			target, err := readBlob(st, e.Hash)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if err := os.Symlink(target, full); err != nil {
				return collision(p, err)
			}
			m.Symlinks[p] = target
		case filemode.Submodule:
			m.Submodules = append(m.Submodules, p)
		default:
			return errorf(ErrUnsafe, "%s: unsupported file mode %v", p, e.Mode)
		}
	}
	return nil
}

// checkTree refuses a tree with more entries than --max-git-tree-entries
// or more bytes of files than --max-git-tree-bytes before anything is
// written: it adds up the folder objects, each counted once however often
// the tree repeats it (a few objects can stand for millions of files), and
// the sizes of the files from their headers.
func checkTree(st storer.EncodedObjectStorer, root plumbing.Hash) error {
	lim := limits.Current()
	entries, size, err := measureTree(st, root, "", lim, map[plumbing.Hash]treeSize{})
	switch {
	case err != nil:
		return err
	case entries > lim.GitTreeEntries:
		return limits.Err("git-tree-entries", lim.GitTreeEntries, "the tree")
	case size > lim.GitTreeBytes:
		return limits.Err("git-tree-bytes", lim.GitTreeBytes, "the files of the tree")
	}
	return nil
}

// treeSize is what a folder object holds, counted once.
type treeSize struct{ entries, bytes int64 }

// measureTree returns the entries and the file bytes below the tree h
// (the folder rel), saturated just past the limits (so that no sum
// overflows).
func measureTree(st storer.EncodedObjectStorer, h plumbing.Hash, rel string, lim limits.Limits, seen map[plumbing.Hash]treeSize) (int64, int64, error) {
	if s, ok := seen[h]; ok {
		return s.entries, s.bytes, nil
	}
	tree, err := object.GetTree(st, h)
	if err != nil {
		return 0, 0, fmt.Errorf("/%s: %w", rel, err)
	}
	var s treeSize
	for _, e := range tree.Entries {
		n, b, p := int64(1), int64(0), path.Join(rel, e.Name)
		switch e.Mode {
		case filemode.Dir:
			sn, sb, err := measureTree(st, e.Hash, p, lim, seen)
			if err != nil {
				return 0, 0, err
			}
			n, b = n+sn, sb
		case filemode.Regular, filemode.Deprecated, filemode.Executable:
			if b, err = st.EncodedObjectSize(e.Hash); err != nil {
				return 0, 0, fmt.Errorf("%s: %w", p, err)
			}
			if b > lim.GitBlobBytes {
				return 0, 0, limits.Err("git-blob-bytes", lim.GitBlobBytes, p)
			}
		}
		s.entries = min(s.entries+n, lim.GitTreeEntries+1)
		s.bytes = min(s.bytes+b, lim.GitTreeBytes+1)
	}
	seen[h] = s
	return s.entries, s.bytes, nil
}

// validName rejects tree entry names that could leave the folder or reach
// git metadata (git fsck rejects them too).
func validName(n string) bool {
	return n != "" && n != "." && n != ".." && !strings.ContainsAny(n, "/\x00") && !strings.EqualFold(n, ".git")
}

// collision explains why a file of the tree could not be created.
func collision(p string, err error) error {
	if errors.Is(err, fs.ErrExist) {
		return errorf(ErrUnsafe, "the tree has two files named %q (differing only in case on this file system?)", p)
	}
	return cacheErr(err)
}

func writeBlob(st storer.EncodedObjectStorer, h plumbing.Hash, full string, perm os.FileMode, m *meta) error {
	blob, err := object.GetBlob(st, h)
	if err != nil {
		return err
	}
	lim := limits.Current()
	if blob.Size > lim.GitBlobBytes {
		return limits.Err("git-blob-bytes", lim.GitBlobBytes, "a file of the tree")
	}
	if m.bytes += blob.Size; m.bytes > lim.GitTreeBytes {
		return limits.Err("git-tree-bytes", lim.GitTreeBytes, "the files of the tree")
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := os.OpenFile(full, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func readBlob(st storer.EncodedObjectStorer, h plumbing.Hash) (string, error) {
	blob, err := object.GetBlob(st, h)
	if err != nil {
		return "", err
	}
	r, err := blob.Reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, 4096))
	return string(data), err
}

// openTree opens the folder p of a cached commit as an fs.FS that cannot leave
// it, after checking that no symbolic link below p points outside p.
func openTree(commitDir, p string, m *meta) (fs.FS, error) {
	// The package folder itself must be a real folder: a symbolic link on
	// the way would move the root elsewhere.
	if p != "" {
		for prefix := p; prefix != "."; prefix = path.Dir(prefix) {
			if target, ok := m.Symlinks[prefix]; ok {
				return nil, errorf(ErrUnsafe, "path %q: %s is a symbolic link (to %q)", p, prefix, target)
			}
		}
	}
	links := make([]string, 0, len(m.Symlinks))
	for l := range m.Symlinks {
		if p == "" || strings.HasPrefix(l, p+"/") {
			links = append(links, l)
		}
	}
	sort.Strings(links)
	for _, l := range links {
		to, err := resolveLink(m.Symlinks, l)
		if err == nil && p != "" && to != p && !strings.HasPrefix(to, p+"/") {
			err = errors.New("points outside the package folder " + p)
		}
		if err != nil {
			return nil, errorf(ErrUnsafe, "symbolic link %s -> %s: %v", rel(l, p), m.Symlinks[l], err)
		}
	}
	root, err := os.OpenRoot(filepath.Join(commitDir, "tree"))
	if err != nil {
		return nil, cacheErr(err)
	}
	defer root.Close()
	if p == "" {
		sub, err := root.OpenRoot(".")
		if err != nil {
			return nil, cacheErr(err)
		}
		return sub.FS(), nil
	}
	fi, err := root.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return nil, errorf(ErrNotFound, "path %q does not exist at commit %s", p, short(m.Commit))
	case err != nil:
		return nil, cacheErr(err)
	case !fi.IsDir():
		return nil, errorf(ErrNotFound, "path %q is not a folder at commit %s", p, short(m.Commit))
	}
	sub, err := root.OpenRoot(p)
	if err != nil {
		return nil, cacheErr(err)
	}
	return sub.FS(), nil
}

// rel shows a path relative to the package folder.
func rel(l, p string) string {
	if p == "" {
		return l
	}
	return strings.TrimPrefix(l, p+"/")
}

// resolveLink follows the symbolic link at l, and the links its target goes
// through, within the tree, and returns the path it ends at. It fails if the
// target is absolute, leaves the tree or loops.
func resolveLink(links map[string]string, l string) (string, error) {
	done := "" // resolved prefix, free of links
	rest := strings.Split(l, "/")
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if done == "" {
				return "", errors.New("points outside the repository")
			}
			done = path.Dir(done)
			if done == "." {
				done = ""
			}
			continue
		}
		next := path.Join(done, c)
		target, ok := links[next]
		if !ok {
			done = next
			continue
		}
		if hops++; hops > 40 {
			return "", errors.New("too many levels of symbolic links")
		}
		if strings.HasPrefix(target, "/") {
			return "", errors.New("absolute target")
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return done, nil
}

// submodulesUnder lists the submodules inside the package folder p.
func submodulesUnder(m *meta, p string) []string {
	var out []string
	for _, s := range m.Submodules {
		if p == "" || strings.HasPrefix(s, p+"/") {
			out = append(out, rel(s, p))
		}
	}
	return out
}
