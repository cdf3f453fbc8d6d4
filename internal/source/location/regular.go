package location

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// ReadRegular reads the file name below root, of at most max bytes
// (limits' file-bytes, named in the error). Nothing that is not a regular
// file is opened: its type and size are checked first (a named pipe would
// block the process until a writer came, a device would never end, a
// sparse file's size is known before a byte is read), then it is opened
// without blocking and checked again, so a file swapped for a pipe in
// between is refused too. Symbolic links are followed inside root only.
func ReadRegular(root *os.Root, name string, max int64) ([]byte, error) {
	info, err := root.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(info, max); err != nil {
		return nil, err
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpened(f, max)
}

// ReadOpened reads an open file of at most max bytes, refusing what is
// not a regular file.
func ReadOpened(f fs.File, max int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(info, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, limits.Err("file-bytes", max, "")
	}
	return data, nil
}

// ErrNotRegular is the error of what is not a regular file.
var ErrNotRegular = errors.New("only regular files are read")

// checkRegular refuses what info says is not a regular file, or one
// larger than max.
func checkRegular(info fs.FileInfo, max int64) error {
	if m := info.Mode(); !m.IsRegular() {
		return fmt.Errorf("is %s: %w", FileKind(m), ErrNotRegular)
	}
	if info.Size() > max {
		return fmt.Errorf("%w (the file has %d bytes)", limits.Err("file-bytes", max, ""), info.Size())
	}
	return nil
}

// FileKind names the type of a file that is not a regular one: "a named
// pipe (FIFO)", "a device", ...
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}
