package gittest

import (
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The commits these helpers make are built with git's plumbing (mktree,
// commit-tree): the work tree and the index do not follow, so a later
// [Repo.Commit] (which commits the work tree) leaves their entries out again.

// WideTree writes a tree of width entries per folder, depth folders deep,
// whose leaves are empty files: width^depth files from a handful of
// objects (every folder of a level is the same tree object), as a hostile
// repository would make them. It returns the tree's id.
func (r *Repo) WideTree(width, depth int) string {
	r.t.Helper()
	id := r.hashObject("blob", "")
	mode := "100644 blob"
	for range depth {
		var b strings.Builder
		for i := range width {
			fmt.Fprintf(&b, "%s %s\t%d\n", mode, id, i)
		}
		id = r.gitIn(b.String(), "mktree")
		mode = "040000 tree"
	}
	return id
}

// LooseZeros writes a loose object of type typ ("blob", "tree", ...)
// holding size zero bytes, compressed as it is written (a 1 GiB object
// is a file of about 1 MiB), without holding it in memory, and returns
// its id. Only a blob of zeros is a valid object.
func (r *Repo) LooseZeros(typ string, size int64) string {
	r.t.Helper()
	objects := r.Git("rev-parse", "--git-path", "objects")
	if !filepath.IsAbs(objects) {
		objects = filepath.Join(r.Dir, objects)
	}
	tmp, err := os.CreateTemp(objects, "tmp-loose-")
	if err != nil {
		r.t.Fatal(err)
	}
	defer os.Remove(tmp.Name())
	sum := sha1.New()
	z, _ := zlib.NewWriterLevel(tmp, zlib.BestSpeed)
	w := io.MultiWriter(z, sum)
	if _, err := io.WriteString(w, typ+" "+strconv.FormatInt(size, 10)+"\x00"); err != nil {
		r.t.Fatal(err)
	}
	if err := writeZeros(w, size); err != nil {
		r.t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		r.t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		r.t.Fatal(err)
	}
	id := hexSum(sum)
	dst := filepath.Join(objects, id[:2], id[2:])
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		r.t.Fatal(err)
	}
	return id
}

func writeZeros(w io.Writer, n int64) error {
	buf := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, int64(len(buf)))
		if _, err := w.Write(buf[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// CommitEntry commits, on the current branch, the tree of HEAD with one
// more entry at its root: name, with mode "040000" (a tree) or "100644"
// (a file), naming the object id. It returns the new commit's SHA.
func (r *Repo) CommitEntry(msg, name, mode, id string) string {
	r.t.Helper()
	typ := "blob"
	if mode == "040000" {
		typ = "tree"
	}
	listing := r.Git("ls-tree", "HEAD")
	var b strings.Builder
	for _, l := range strings.Split(listing, "\n") {
		if l != "" && !strings.HasSuffix(l, "\t"+name) {
			b.WriteString(l + "\n")
		}
	}
	fmt.Fprintf(&b, "%s %s %s\t%s\n", mode, typ, id, name)
	tree := r.gitIn(b.String(), "mktree", "--missing")
	r.ticks++
	commit := r.Git("commit-tree", tree, "-p", "HEAD", "-m", msg)
	r.Git("update-ref", "HEAD", commit)
	return commit
}

func (r *Repo) hashObject(typ, content string) string {
	r.t.Helper()
	return r.gitIn(content, "hash-object", "-w", "-t", typ, "--stdin")
}
