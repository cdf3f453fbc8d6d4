package oci

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/visible"
)

// budget is what one layer may extract to.
type budget struct {
	lim        limits.Limits
	compressed int64  // the layer's size as downloaded
	where      string // the artifact, for messages
}

// extract unpacks the tar (gzipped when gz) layer r into the folder dir,
// which must be empty: regular files and folders only, every name a clean
// relative path, within the budget. Files are written 0644 and folders
// 0755 whatever the tar says.
func extract(r io.Reader, gz bool, dir string, b budget) error {
	if gz {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: the layer is not gzip: %v", b.where, err)
		}
		defer zr.Close()
		r = zr
	}
	stream := &countingReader{r: r, max: b.streamMax(), b: b}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", b.where, err)
	}
	defer root.Close()
	tr := tar.NewReader(stream)
	seen, dirs := map[string]bool{}, map[string]bool{}
	var entries, total int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return stream.wrap(fmt.Errorf("%s: the layer is not a valid tar: %w", b.where, err))
		}
		if entries++; entries > b.lim.OCIEntries {
			return limits.Err("oci-entries", b.lim.OCIEntries, b.where)
		}
		name, err := entryName(h.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", b.where, err)
		}
		// What the entry extracts to is charged before it is written: its
		// header, and its size as the tar reader gives it (a sparse
		// entry's holes are never read from the stream).
		if err := stream.charge(tarBlock + max(h.Size, 0)); err != nil {
			return err
		}
		if name == "" {
			continue // the root folder itself
		}
		if seen[name] {
			return fmt.Errorf("%s: the layer holds %q twice", b.where, name)
		}
		seen[name] = true
		if err := writeEntry(root, tr, h, name, dirs, &total, b); err != nil {
			return stream.wrap(err)
		}
	}
}

// tarBlock is the size of a tar header.
const tarBlock = 512

// writeEntry writes one folder or regular file.
func writeEntry(root *os.Root, tr *tar.Reader, h *tar.Header, name string, dirs map[string]bool, total *int64, b budget) error {
	switch h.Typeflag {
	case tar.TypeDir:
		dirs[name] = true
		if err := root.MkdirAll(name, 0o755); err != nil {
			return fmt.Errorf("%s: cannot make the folder %q: %w", b.where, name, inLayer(err))
		}
		return nil
	case tar.TypeReg:
	default:
		return fmt.Errorf("%s: %q is a %s: an artifact may hold files and folders only (no links or devices)", b.where, name, typeName(h.Typeflag))
	}
	if h.Size > b.lim.FileBytes {
		return limits.Err("file-bytes", b.lim.FileBytes, b.where+": "+name)
	}
	if *total += h.Size; *total > b.lim.OCITreeBytes {
		return limits.Err("oci-tree-bytes", b.lim.OCITreeBytes, b.where)
	}
	if dir := path.Dir(name); dir != "." && !dirs[dir] {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("%s: cannot write %q: %w", b.where, name, inLayer(err))
		}
		dirs[dir] = true
	}
	f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("%s: cannot write %q: %w", b.where, name, inLayer(err))
	}
	if _, err := io.CopyN(f, tr, h.Size); err != nil {
		f.Close()
		return fmt.Errorf("%s: %q: %w", b.where, name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %q: %w", b.where, name, err)
	}
	return nil
}

// inLayer says what a path error while extracting means: an entry where
// the layer already has one of another type (a file where a folder goes).
func inLayer(err error) error {
	if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("the layer already holds a file or folder of another type there (%w)", err)
	}
	return err
}

// entryName cleans a tar name: "./a/b" and "a/b/" are "a/b"; absolute
// names, "..", ".git", backslashes, invalid UTF-8 and every character
// that acts instead of showing itself (C0 and C1 controls, DEL,
// bidirectional and zero-width characters: visible.Escape) are refused.
func entryName(n string) (string, error) {
	if n == "" || strings.HasPrefix(n, "/") || strings.ContainsAny(n, "\\\x00") || visible.Escape(n) != n {
		return "", fmt.Errorf("the layer holds an unsafe name %q", n)
	}
	c := path.Clean(n)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("the layer holds an unsafe name %q (it leaves the artifact)", n)
	}
	if c == "." {
		return "", nil
	}
	for _, part := range strings.Split(c, "/") {
		if strings.EqualFold(part, ".git") {
			return "", fmt.Errorf("the layer holds an unsafe name %q", n)
		}
	}
	return c, nil
}

func typeName(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symbolic link"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "named pipe"
	}
	return fmt.Sprintf("tar entry of type %q", t)
}

// streamMax is how many bytes the uncompressed tar stream may have: the
// decompression ratio times the layer's size, and never more than the tree
// budget plus a header per entry.
func (b budget) streamMax() int64 {
	byRatio := b.lim.OCIRatio * b.compressed
	if b.compressed > 0 && byRatio/b.compressed != b.lim.OCIRatio {
		byRatio = 1 << 62 // overflow
	}
	return min(byRatio, b.lim.OCITreeBytes+b.lim.OCIEntries*1024+1024)
}

// countingReader fails once more than max bytes were read, or more than
// max were extracted (charge).
type countingReader struct {
	r         io.Reader
	n         int64
	extracted int64
	max       int64
	b         budget
	over      bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		c.over = true
		return 0, errOverRatio
	}
	if int64(len(p)) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// charge counts n bytes the stream extracts to without reading them from
// it (a sparse entry's holes), against the same bound.
func (c *countingReader) charge(n int64) error {
	if c.extracted += n; c.extracted > c.max {
		c.over = true
		return c.wrap(errOverRatio)
	}
	return nil
}

var errOverRatio = errors.New("decompression budget exceeded")

// wrap turns a read stopped by the budget into the limit that stopped it.
func (c *countingReader) wrap(err error) error {
	if !c.over {
		return err
	}
	if c.max < c.b.lim.OCIRatio*c.b.compressed {
		return limits.Err("oci-tree-bytes", c.b.lim.OCITreeBytes, c.b.where)
	}
	return fmt.Errorf("%w (the layer of %d bytes extracts to more than %d)", limits.Err("oci-ratio", c.b.lim.OCIRatio, c.b.where), c.b.compressed, c.max)
}
