package gitsource

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kudo-render/kudo-render/internal/source/cachedir"
)

// Cache layout (see doc.go):
//
//	<cache>/<slug>-<hash>/            one folder per repository URL
//	  url                             the scrubbed URL, for people
//	  commits/<sha>/tree/...          the files of the commit
//	  commits/<sha>/meta.json         written last: the entry is complete
//	  refs/<slug>-<hash>.json         last online resolution of a branch/tag
//	  locks/<sha>.lock                flock held while fetching <sha>
//	  tmp/<sha>-*/                    entries being written, renamed into commits/
type cache struct {
	dir string
}

// meta describes a cached commit.
type meta struct {
	URL       string    `json:"url"`
	Commit    string    `json:"commit"`
	FetchedAt time.Time `json:"fetchedAt"`
	Files     int       `json:"files"`
	// Symlinks maps the path of each symbolic link of the tree to its target.
	Symlinks map[string]string `json:"symlinks,omitempty"`
	// Submodules lists the paths of gitlinks, which are not fetched.
	Submodules []string `json:"submodules,omitempty"`
	// bytes and entries count the files written so far (checked against
	// limits.GitTreeBytes and limits.GitTreeEntries).
	bytes, entries int64
}

// memo is the remembered online resolution of a branch or tag.
type memo struct {
	Ref        string    `json:"ref"`
	Name       string    `json:"name"`
	Commit     string    `json:"commit"`
	ResolvedAt time.Time `json:"resolvedAt"`
}

// key is the folder name of a repository: readable, unique per scrubbed URL.
func key(s string) string {
	sum := sha256.Sum256([]byte(s))
	return slug(s) + "-" + hex.EncodeToString(sum[:8])
}

// slug keeps [a-z0-9.-] of s (after the scheme), other runs become '_'.
func slug(s string) string {
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-'
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_.")
	if len(out) > 60 {
		out = out[:60]
	}
	if out == "" {
		out = "repo"
	}
	return out
}

func (c *cache) repoDir(e *endpoint) string { return filepath.Join(c.dir, key(e.scrubbed)) }

func (c *cache) commitDir(e *endpoint, sha string) string {
	return filepath.Join(c.repoDir(e), "commits", sha)
}

// lookup returns the metadata of a complete cached commit.
func (c *cache) lookup(e *endpoint, sha string) (*meta, bool) {
	data, err := os.ReadFile(filepath.Join(c.commitDir(e, sha), "meta.json"))
	if err != nil {
		return nil, false
	}
	var m meta
	if json.Unmarshal(data, &m) != nil || m.Commit != sha {
		return nil, false
	}
	return &m, true
}

// lock takes the fetch lock of commit sha of e.
func (c *cache) lock(ctx context.Context, e *endpoint, sha string) (func(), error) {
	// The cache may hold private repositories: only its owner reads it.
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return nil, cacheErr(err)
	}
	dir := filepath.Join(c.repoDir(e), "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, cacheErr(err)
	}
	if err := c.writeURL(e); err != nil {
		return nil, err
	}
	unlock, err := cachedir.Lock(ctx, filepath.Join(dir, sha+".lock"))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, cacheErr(err)
	}
	return unlock, nil
}

// install writes a commit entry: fill writes the files under the tree folder
// it is given and returns the metadata; the entry appears atomically (rename)
// once complete. The caller holds the commit's lock.
func (c *cache) install(e *endpoint, sha string, fill func(tree string) (*meta, error)) (*meta, error) {
	tmpRoot := filepath.Join(c.repoDir(e), "tmp")
	if err := os.MkdirAll(tmpRoot, 0o755); err != nil {
		return nil, cacheErr(err)
	}
	// Leftovers of this commit come from a process that died holding the
	// lock we now hold.
	if old, _ := filepath.Glob(filepath.Join(tmpRoot, sha+"-*")); len(old) > 0 {
		for _, o := range old {
			_ = forceRemoveAll(o)
		}
	}
	tmp, err := os.MkdirTemp(tmpRoot, sha+"-")
	if err != nil {
		return nil, cacheErr(err)
	}
	defer forceRemoveAll(tmp)
	tree := filepath.Join(tmp, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		return nil, cacheErr(err)
	}
	m, err := fill(tree)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "meta.json"), append(data, '\n'), 0o644); err != nil {
		return nil, cacheErr(err)
	}
	dst := c.commitDir(e, sha)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, cacheErr(err)
	}
	// An entry without a valid meta.json is incomplete (an old crash, or a
	// hand edit): replace it.
	if _, err := os.Lstat(dst); err == nil {
		if err := forceRemoveAll(dst); err != nil {
			return nil, cacheErr(err)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return nil, cacheErr(err)
	}
	return m, nil
}

// writeURL records the scrubbed URL of a repository folder, for people
// browsing the cache.
func (c *cache) writeURL(e *endpoint) error {
	p := filepath.Join(c.repoDir(e), "url")
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	return writeAtomic(p, []byte(e.scrubbed+"\n"))
}

func (c *cache) memoPath(e *endpoint, ref string) string {
	if ref == "" {
		ref = "HEAD"
	}
	return filepath.Join(c.repoDir(e), "refs", key(ref)+".json")
}

// remember records an online resolution of ref, for offline use.
func (c *cache) remember(e *endpoint, m memo) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p := c.memoPath(e, m.Ref)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return cacheErr(err)
	}
	return writeAtomic(p, data)
}

// recall returns the last online resolution of ref.
func (c *cache) recall(e *endpoint, ref string) (*memo, bool) {
	data, err := os.ReadFile(c.memoPath(e, ref))
	if err != nil {
		return nil, false
	}
	var m memo
	if json.Unmarshal(data, &m) != nil || m.Ref != ref || !isSHA(m.Commit) {
		return nil, false
	}
	return &m, true
}

// writeAtomic writes a file through a temporary file and a rename.
func writeAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return cacheErr(err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+"-*")
	if err != nil {
		return cacheErr(err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return cacheErr(werr)
	}
	return nil
}

// forceRemoveAll removes a tree even if some of its folders are read-only.
func forceRemoveAll(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(q, 0o755)
		}
		return nil
	})
	return os.RemoveAll(p)
}

func cacheErr(err error) error {
	return fmt.Errorf("cache: %w", err)
}
