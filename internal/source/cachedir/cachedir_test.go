package cachedir

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestLocksExclude: whichever lock the system gets, a second holder
// waits for the first and gives up when its context ends; once the first
// lets go, it takes the lock. The lock file kind (where flock is missing)
// is tested here too, on every system.
func TestLocksExclude(t *testing.T) {
	for name, lock := range map[string]func(context.Context, string) (func(), error){
		"Lock":       Lock,
		"createLock": createLock,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.lock")
			unlock, err := lock(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if u, err := lock(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
				if u != nil {
					u()
				}
				t.Fatalf("a second holder took the lock: %v", err)
			}
			done := make(chan error)
			go func() {
				u, err := lock(context.Background(), path)
				if err == nil {
					u()
				}
				done <- err
			}()
			time.Sleep(20 * time.Millisecond)
			unlock()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the lock was not handed on once released")
			}
		})
	}
}

// TestCreateLockTakesOverStale: a lock file older than StaleAfter was
// left by a process that died: it is taken over instead of waited for.
func TestCreateLockTakesOverStale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-StaleAfter - time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	unlock, err := createLock(ctx, path)
	if err != nil {
		t.Fatalf("a stale lock file was not taken over: %v", err)
	}
	unlock()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the lock file is left after unlock: %v", err)
	}
}

func TestUserDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the user cache folder is $XDG_CACHE_HOME on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", "/var/cache/me")
	t.Setenv("HOME", "/home/me")
	got, err := UserDir("oci")
	if err != nil || got != "/var/cache/me/kudo-render/oci" {
		t.Errorf("UserDir(oci) = %q, %v", got, err)
	}
}
