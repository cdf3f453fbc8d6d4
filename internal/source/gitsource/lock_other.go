//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package gitsource

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// staleLock is the age after which a lock file left by a dead process is
// taken over.
const staleLock = 10 * time.Minute

// lockFile takes an exclusive lock by creating path exclusively, and waits
// (while ctx allows) for the holder to remove it. A lock file older than
// staleLock is considered left by a crashed process and removed.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	err = retry(ctx, func() (bool, error) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return true, f.Close()
		}
		if !errors.Is(err, fs.ErrExist) {
			return false, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > staleLock {
			_ = os.Remove(path)
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}
