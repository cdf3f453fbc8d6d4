package cachedir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Env is the environment variable that names the cache folder, as
// --cache-dir does.
const Env = "KUDO_RENDER_CACHE"

// UserDir is the cache folder of a kind of source ("git", "oci") when
// none is given: <user cache dir>/kudo-render/<kind> (see
// [os.UserCacheDir]).
func UserDir(kind string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: set --cache-dir or %s (%v)", Env, err)
	}
	return filepath.Join(base, "kudo-render", kind), nil
}

// StaleAfter is the age after which a lock file (where there is no
// flock) is taken to be left by a process that died, and taken over.
const StaleAfter = 10 * time.Minute

// Lock takes an exclusive lock on path, creating it, and waits while ctx
// allows for another holder to let go; unlock releases it. Lock files
// are never deleted where flock is used: deleting one would let two
// holders lock different files of the same name.
func Lock(ctx context.Context, path string) (unlock func(), err error) {
	if hasFlock {
		return flockFile(ctx, path)
	}
	return createLock(ctx, path)
}

// createLock takes the lock by creating path exclusively and waits for
// its holder to remove it; a lock file older than StaleAfter is removed.
func createLock(ctx context.Context, path string) (unlock func(), err error) {
	err = retry(ctx, func() (bool, error) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return true, f.Close()
		}
		if !errors.Is(err, fs.ErrExist) {
			return false, err
		}
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > StaleAfter {
			_ = os.Remove(path)
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

// retry calls try until it reports done or fails, sleeping a little
// longer each time (2 ms to 100 ms), until ctx ends.
func retry(ctx context.Context, try func() (bool, error)) error {
	wait := 2 * time.Millisecond
	for {
		done, err := try()
		if err != nil || done {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		if wait < 100*time.Millisecond {
			wait *= 2
		}
	}
}
