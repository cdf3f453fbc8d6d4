//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package cachedir

import (
	"context"
	"errors"
	"os"
	"syscall"
)

const hasFlock = true

// flockFile takes an exclusive flock(2) on path, creating it. The kernel
// drops the lock if the holder dies, so no lock is ever stale.
func flockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	err = retry(ctx, func() (bool, error) {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
