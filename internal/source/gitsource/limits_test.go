package gitsource

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// withLimits sets the process limits for one test.
func withLimits(t *testing.T, f func(*limits.Limits)) {
	l := limits.Default()
	f(&l)
	limits.SetCurrent(l)
	t.Cleanup(func() { limits.SetCurrent(limits.Default()) })
}

// bigBlobRepo commits a file of size zero bytes (highly compressible)
// written by git itself, without holding it in this process.
func bigBlobRepo(t *testing.T, srv *gittest.Server, size int64) *gittest.Repo {
	t.Helper()
	repo := srv.NewRepo("platform/bomb")
	repo.Commit("init", map[string]string{"pkg/framework.yaml": "name: x\nversion: \"1\"\n"})
	f, err := os.Create(filepath.Join(repo.Dir, "pkg", "zeros.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	repo.Commit("zeros", nil)
	return repo
}

func TestFetchBounded(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := bigBlobRepo(t, srv, 64<<20) // 64 MiB of zeros: 64 KiB on the wire
	cases := []struct {
		reason string
		set    func(*limits.Limits)
		want   string
	}{
		{"one blob over --max-git-blob-bytes", func(l *limits.Limits) { l.GitBlobBytes = 1 << 20 }, "git blob size exceeds the limit of 1048576 bytes (raise it with --max-git-blob-bytes"},
		{"all objects over --max-git-tree-bytes", func(l *limits.Limits) { l.GitBlobBytes, l.GitTreeBytes = 128<<20, 8<<20 }, "git tree size exceeds the limit of 8388608 bytes (raise it with --max-git-tree-bytes"},
		{"the pack over --max-git-pack-bytes", func(l *limits.Limits) { l.GitPackBytes = 1 << 10 }, "git pack size exceeds the limit of 1024 bytes (raise it with --max-git-pack-bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			withLimits(t, tc.set)
			f, _ := newFetcher(t, Options{})
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Path: "pkg"})
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s: got %v, want %q", tc.reason, err, tc.want)
			}
			if !strings.Contains(err.Error(), repo.URL()) {
				t.Errorf("%s: the error must name the source: %v", tc.reason, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
				t.Errorf("%s: allocated %d MiB for a 64 MiB blob that was refused", tc.reason, grew>>20)
			}
		})
	}
	// Within the limits the same repository is fetched.
	withLimits(t, func(l *limits.Limits) { l.GitBlobBytes, l.GitTreeBytes = 128<<20, 128<<20 })
	f, _ := newFetcher(t, Options{})
	fsys, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Path: "pkg"})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := fs.Stat(fsys, "zeros.yaml"); err != nil || info.Size() != 64<<20 {
		t.Errorf("the big file was not checked out: %v", err)
	}
}

// TestCheckPack reads packs that git itself writes, with deltas.
func TestCheckPack(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("platform/delta")
	big := strings.Repeat("line of text\n", 200_000) // 2.6 MB
	repo.Commit("one", map[string]string{"f.yaml": big})
	repo.Commit("two", map[string]string{"f.yaml": big + "more\n"})
	objs := repo.Git("rev-list", "--objects", "--all")
	var ids []string
	for _, l := range strings.Split(objs, "\n") {
		ids = append(ids, strings.Fields(l)[0])
	}
	cmd := exec.Command(gittest.GitBinary(t), "pack-objects", "--stdout", "--window=10", "--depth=10")
	cmd.Dir = repo.Dir
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	pack, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(pack) > 1<<20 {
		t.Fatalf("the pack has %d bytes: git did not delta-compress it", len(pack))
	}
	lim := limits.Default()
	if err := checkPack(bytesReader(pack), lim, "test"); err != nil {
		t.Errorf("within the limits: %v", err)
	}
	lim.GitBlobBytes = 1 << 20
	if err := checkPack(bytesReader(pack), lim, "test"); err == nil || !strings.Contains(err.Error(), "--max-git-blob-bytes") {
		t.Errorf("a 2.6 MB object (and the delta that makes another) over 1 MiB: %v", err)
	}
	lim = limits.Default()
	lim.GitTreeBytes = 4 << 20
	if err := checkPack(bytesReader(pack), lim, "test"); err == nil || !strings.Contains(err.Error(), "--max-git-tree-bytes") {
		t.Errorf("two 2.6 MB objects (one a delta) over 4 MiB in all: %v", err)
	}
	if err := checkPack(bytesReader(pack[:len(pack)/2]), limits.Default(), "test"); err == nil {
		t.Error("a truncated pack must fail")
	}
}

func bytesReader(b []byte) *strings.Reader { return strings.NewReader(string(b)) }

// TestStalledServer: a server that accepts and then sends nothing, or
// stops in the middle of a transfer, is given up on after the idle
// timeout, with a message that names it and the flag.
func TestStalledServer(t *testing.T) {
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	mux := http.NewServeMux()
	mux.HandleFunc("/silent/x.git/info/refs", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/trickle/x.git/info/refs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		w.WriteHeader(200)
		w.Write([]byte("001e# service=git-upload-pack\n"))
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	withLimits(t, func(l *limits.Limits) { l.GitIdleTimeout = 500 * time.Millisecond })
	for _, path := range []string{"/silent/x.git", "/trickle/x.git"} {
		f, _ := newFetcher(t, Options{})
		start := time.Now()
		_, err := f.Resolve(context.Background(), Ref{URL: srv.URL + path, Ref: "main"})
		took := time.Since(start)
		if err == nil || !strings.Contains(err.Error(), "--git-idle-timeout") || !strings.Contains(err.Error(), srv.URL+path) {
			t.Errorf("%s: got %v, want the idle timeout naming the source", path, err)
		}
		if took > 5*time.Second {
			t.Errorf("%s: gave up after %s, want about 0.5s", path, took)
		}
	}
}

// TestInterruptedFetch: a cache entry that a killed fetch left behind
// (files written, no meta.json; a leftover temporary folder) is never
// read as valid: the next run fetches again and gets the right files.
func TestInterruptedFetch(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cache := t.TempDir()
	f, _ := newFetcher(t, Options{CacheDir: cache})
	if _, _, err := f.Open(context.Background(), Ref{URL: fx.repo.URL(), Commit: fx.c2, Path: "mysql"}); err != nil {
		t.Fatal(err)
	}
	metas, _ := filepath.Glob(filepath.Join(cache, "*", "commits", fx.c2, "meta.json"))
	if len(metas) != 1 {
		t.Fatalf("cache layout changed: %v", metas)
	}
	entry := filepath.Dir(metas[0])
	// As if the process died while installing: no meta.json, a truncated
	// file, and a temporary folder of the same commit.
	os.Remove(metas[0])
	fws, _ := filepath.Glob(filepath.Join(entry, "tree", "mysql", "framework.yaml"))
	for _, fw := range fws {
		os.WriteFile(fw, []byte("nam"), 0o644)
	}
	os.MkdirAll(filepath.Join(filepath.Dir(filepath.Dir(entry)), "tmp", fx.c2+"-dead", "tree"), 0o755)
	fx.srv.Reset()
	f2, _ := newFetcher(t, Options{CacheDir: cache})
	fsys, _, err := f2.Open(context.Background(), Ref{URL: fx.repo.URL(), Commit: fx.c2, Path: "mysql"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, fsys)["framework.yaml"]; got != fw2 {
		t.Errorf("framework.yaml = %q, want %q", got, fw2)
	}
	if fx.srv.Fetches() != 1 {
		t.Errorf("%d fetches, want 1 (the broken entry fetched again)", fx.srv.Fetches())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(entry)), "tmp", fx.c2+"-*")); len(left) != 0 {
		t.Errorf("temporary folders of a dead process were not removed: %v", left)
	}
}

// TestTreeEntriesBounded: a small repository whose tree expands to many
// files (one folder object reused) is refused after
// --max-git-tree-entries entries, and nothing stays in the cache.
func TestTreeEntriesBounded(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("platform/wide")
	repo.Commit("init", map[string]string{"pkg/framework.yaml": "name: x\nversion: \"1\"\n"})
	repo.CommitEntry("wide", "wide", "040000", repo.WideTree(40, 2)) // 1,600 files
	withLimits(t, func(l *limits.Limits) { l.GitTreeEntries = 1000 })
	cache := t.TempDir()
	f, _ := newFetcher(t, Options{CacheDir: cache})
	_, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Path: "pkg"})
	want := "the tree: git tree entries exceeds the limit of 1000 entries (raise it with --max-git-tree-entries or KUDO_RENDER_MAX_GIT_TREE_ENTRIES)"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), repo.URL()) {
		t.Fatalf("got %v, want %q naming the source", err, want)
	}
	var files int
	filepath.WalkDir(cache, func(string, fs.DirEntry, error) error { files++; return nil })
	if files > 20 {
		t.Errorf("%d files left in the cache after a refused tree", files)
	}
	withLimits(t, func(l *limits.Limits) { l.GitTreeEntries = 2000 })
	if _, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Path: "pkg"}); err != nil {
		t.Errorf("within the limit: %v", err)
	}
}

// TestPackObjectsBounded: a pack of more objects than
// --max-git-pack-objects is refused from its header.
func TestPackObjectsBounded(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("platform/many")
	files := map[string]string{"pkg/framework.yaml": "name: x\nversion: \"1\"\n"}
	for i := range 300 {
		files[fmt.Sprintf("pkg/f%d.txt", i)] = fmt.Sprint(i)
	}
	repo.Commit("init", files)
	withLimits(t, func(l *limits.Limits) { l.GitPackObjects = 100 })
	f, _ := newFetcher(t, Options{})
	_, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Path: "pkg"})
	want := "git pack objects exceeds the limit of 100 objects (raise it with --max-git-pack-objects"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestRunning: while a server hangs, Running names the operation and the
// source; once it ended, nothing.
func TestRunning(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	fx.srv.Stall(true)
	withLimits(t, func(l *limits.Limits) { l.GitIdleTimeout = 200 * time.Millisecond })
	for _, tc := range []struct {
		ref  Ref
		want string
	}{
		{Ref{URL: fx.repo.URL(), Ref: "main"}, "git ls-remote of " + fx.repo.URL() + " (listing refs)"},
		{Ref{URL: fx.repo.URL(), Commit: fx.c1}, "git fetch of " + fx.repo.URL() + " (depth 1)"},
	} {
		f, _ := newFetcher(t, Options{})
		done := make(chan struct{})
		var seen []string
		go func() {
			defer close(done)
			for range 100 {
				if r := activity.Waits(); len(r) > 0 {
					seen = r
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		if _, _, err := f.Open(context.Background(), tc.ref); err == nil {
			t.Fatal("a hung server served")
		}
		<-done
		if len(seen) != 1 || seen[0] != tc.want {
			t.Errorf("activity.Waits() = %q, want %q", seen, tc.want)
		}
		if r := activity.Waits(); len(r) != 0 {
			t.Errorf("after the operation: activity.Waits() = %q", r)
		}
	}
}
