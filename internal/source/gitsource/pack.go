package gitsource

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// guardedStorage is the in-memory object storage of one fetch, bounded:
// the pack is received as it is (at most --max-git-pack-bytes), its
// object headers are checked while it streams in (at most
// --max-git-pack-objects objects; no object, and no
// object a delta makes, larger than --max-git-blob-bytes; all objects
// together at most --max-git-tree-bytes), and only a pack that passed is
// decoded into memory. A pack whose zlib streams inflate to gigabytes is
// refused after reading its few compressed bytes, never inflated into
// memory.
type guardedStorage struct {
	*memory.Storage
	lim   limits.Limits
	where string // the source URL (scrubbed), for messages
}

func newGuardedStorage(lim limits.Limits, where string) *guardedStorage {
	return &guardedStorage{Storage: memory.NewStorage(), lim: lim, where: where}
}

// PackfileWriter implements storer.PackfileWriter.
func (s *guardedStorage) PackfileWriter() (io.WriteCloser, error) {
	pr, pw := io.Pipe()
	w := &packWriter{s: s, pw: pw, done: make(chan error, 1)}
	go func() {
		err := checkPack(pr, s.lim, s.where)
		pr.CloseWithError(errOr(err, io.ErrClosedPipe))
		w.done <- err
	}()
	return w, nil
}

func errOr(err, other error) error {
	if err != nil {
		return err
	}
	return other
}

type packWriter struct {
	s    *guardedStorage
	pw   *io.PipeWriter
	buf  bytes.Buffer
	done chan error
	err  error
}

func (w *packWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if max := w.s.lim.GitPackBytes; int64(w.buf.Len()+len(p)) > max {
		w.err = limits.Err("git-pack-bytes", max, w.s.where)
		w.pw.CloseWithError(w.err)
		return 0, w.err
	}
	if _, err := w.pw.Write(p); err != nil {
		w.err = w.checkErr(err)
		return 0, w.err
	}
	return w.buf.Write(p)
}

// checkErr returns the checker's error when it stopped the pipe.
func (w *packWriter) checkErr(err error) error {
	w.pw.Close()
	if cerr := <-w.done; cerr != nil {
		w.done <- cerr
		return cerr
	}
	w.done <- nil
	return err
}

// Close waits for the check, then decodes the pack into memory.
func (w *packWriter) Close() error {
	if w.err != nil {
		return w.err
	}
	w.pw.Close()
	if err := <-w.done; err != nil {
		return err
	}
	if w.buf.Len() == 0 {
		return nil
	}
	p, err := packfile.NewParserWithStorage(packfile.NewScanner(bytes.NewReader(w.buf.Bytes())), w.s.Storage)
	if err != nil {
		return err
	}
	_, err = p.Parse()
	return err
}

// Git object types in a pack.
const (
	objOfsDelta = 6
	objRefDelta = 7
)

// checkPack reads a pack stream and checks every object's size (for
// deltas: the size of the object they make) before it is inflated by
// anybody, inflating each zlib stream only to find where it ends.
func checkPack(r io.Reader, lim limits.Limits, where string) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var hdr [12]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return nil // no pack (nothing to fetch): go-git decides
	}
	if string(hdr[:4]) != "PACK" {
		return nil
	}
	count := binary.BigEndian.Uint32(hdr[8:])
	if int64(count) > lim.GitPackObjects {
		return limits.Err("git-pack-objects", lim.GitPackObjects, where)
	}
	var total int64
	for i := uint32(0); i < count; i++ {
		typ, size, err := objectHeader(br)
		if err != nil {
			return fmt.Errorf("%s: reading the pack: %w", where, err)
		}
		if typ == objOfsDelta || typ == objRefDelta {
			if size, err = deltaTarget(br, typ); err != nil {
				return fmt.Errorf("%s: reading the pack: %w", where, err)
			}
		}
		if size > lim.GitBlobBytes {
			return limits.Err("git-blob-bytes", lim.GitBlobBytes, "an object of "+where)
		}
		if total += size; total > lim.GitTreeBytes {
			return limits.Err("git-tree-bytes", lim.GitTreeBytes, "the objects of "+where)
		}
		if typ != objOfsDelta && typ != objRefDelta {
			if err := skipZlib(br, size); err != nil {
				return fmt.Errorf("%s: reading the pack: %w", where, err)
			}
		}
	}
	_, _ = io.Copy(io.Discard, br) // the trailer
	return nil
}

// objectHeader reads an object's type and inflated size.
func objectHeader(br *bufio.Reader) (int, int64, error) {
	b, err := br.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	typ := int(b>>4) & 7
	size := int64(b & 15)
	shift := 4
	for b&0x80 != 0 {
		if b, err = br.ReadByte(); err != nil {
			return 0, 0, err
		}
		if shift > 56 {
			return 0, 0, errors.New("object size out of range")
		}
		size |= int64(b&0x7f) << shift
		shift += 7
	}
	return typ, size, nil
}

// deltaTarget skips a delta's base reference, then reads the size of the
// object the delta makes from its first inflated bytes, and skips the
// rest of its zlib stream.
func deltaTarget(br *bufio.Reader, typ int) (int64, error) {
	if typ == objOfsDelta {
		for {
			b, err := br.ReadByte()
			if err != nil {
				return 0, err
			}
			if b&0x80 == 0 {
				break
			}
		}
	} else if _, err := br.Discard(20); err != nil {
		return 0, err
	}
	z, err := zlib.NewReader(br)
	if err != nil {
		return 0, err
	}
	defer z.Close()
	zb := bufio.NewReader(z)
	if _, err := binary.ReadUvarint(zb); err != nil { // size of the base
		return 0, err
	}
	target, err := binary.ReadUvarint(zb)
	if err != nil {
		return 0, err
	}
	if _, err := io.Copy(io.Discard, zb); err != nil {
		return 0, err
	}
	if target > 1<<62 {
		return 0, errors.New("delta target size out of range")
	}
	return int64(target), nil
}

// skipZlib inflates one zlib stream to nowhere, refusing more than size
// bytes (the header's size), so a lying header cannot cost more.
func skipZlib(br *bufio.Reader, size int64) error {
	z, err := zlib.NewReader(br)
	if err != nil {
		return err
	}
	defer z.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(z, size+1))
	if err != nil {
		return err
	}
	if n > size {
		return errors.New("an object inflates to more than its header says")
	}
	return nil
}
