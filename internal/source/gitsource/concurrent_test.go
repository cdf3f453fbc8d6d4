package gitsource

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

func TestConcurrentOpen(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cases := map[string]struct {
		reason string
		ref    Ref
		shared bool
	}{
		"BranchSharedFetcher": {
			reason: "Goroutines sharing one Fetcher and an empty cache fetch the branch once.",
			ref:    Ref{Ref: "main", Path: "mysql"},
			shared: true,
		},
		"BranchSeparateFetchers": {
			reason: "Separate Fetchers (separate renders) on one empty cache fetch the branch once.",
			ref:    Ref{Ref: "main", Path: "mysql"},
		},
		"SHASeparateFetchers": {
			reason: "Separate Fetchers on one empty cache fetch a commit once.",
			ref:    Ref{Ref: fx.c2, Path: "mysql"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.ref.URL = fx.repo.URL()
			cache := t.TempDir()
			shared, _ := newFetcher(t, Options{CacheDir: cache})
			fx.srv.Reset()
			const n = 8
			got := make([]map[string]string, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range n {
				f := shared
				if !tc.shared {
					f, _ = newFetcher(t, Options{CacheDir: cache})
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					fsys, _, err := f.Open(context.Background(), tc.ref)
					if err != nil {
						errs[i] = err
						return
					}
					got[i] = readFiles(t, fsys)
				}()
			}
			close(start)
			wg.Wait()
			for i := range n {
				if errs[i] != nil {
					t.Fatalf("%s\nOpen #%d: %v", tc.reason, i, errs[i])
				}
				assert.Check(t, is.DeepEqual(files2, got[i]), "%s\nOpen #%d", tc.reason, i)
			}
			if f := fx.srv.Fetches(); f != 1 {
				t.Errorf("%s\n%d fetches, want 1", tc.reason, f)
			}
		})
	}
}

// childEnv carries the source to open to the child processes of
// TestConcurrentProcesses.
const childEnv = "KUDO_RENDER_SOURCE_TEST_CHILD"

type childArgs struct {
	Cache string
	Ref   Ref
}

// TestConcurrentProcesses runs renders in separate processes (this test
// binary, re-run) that share one empty cache: the file lock makes them fetch
// once, and each reads the complete tree.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	fx := newFixture(t, gittest.Options{})
	args, err := json.Marshal(childArgs{Cache: t.TempDir(), Ref: Ref{URL: fx.repo.URL(), Ref: fx.c2, Path: "mysql"}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for i := range n {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), childEnv+"="+string(args))
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		if err := cmds[i].Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outs[i].String())
		}
	}
	if f := fx.srv.Fetches(); f != 1 {
		t.Errorf("%d processes on one empty cache: %d fetches, want 1", n, f)
	}
}

func TestChildProcess(t *testing.T) {
	raw := os.Getenv(childEnv)
	if raw == "" {
		t.Skip("only run by TestConcurrentProcesses")
	}
	var a childArgs
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	f, _ := newFetcher(t, Options{CacheDir: a.Cache})
	fsys, _, err := f.Open(context.Background(), a.Ref)
	if err != nil {
		t.Fatal(err)
	}
	assert.Assert(t, is.DeepEqual(files2, readFiles(t, fsys)), "Open in a child process: files")
}

func TestDeepHistory(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("org/deep")
	var commits []string
	for i := range 60 {
		commits = append(commits, repo.Commit(fmt.Sprint("c", i), map[string]string{"pkg/n.yaml": fmt.Sprint(i)}))
	}
	cases := map[string]struct {
		reason   string
		commit   string
		maxDepth int
		want     string
		fetches  int
		msg      string
	}{
		"WithinFirstDepth": {
			reason: "A commit within the first 50 is found in one fetch.",
			commit: commits[40], want: "40", fetches: 1,
		},
		"Deeper": {
			reason: "A deeper commit needs a second, deeper fetch.",
			commit: commits[2], want: "2", fetches: 2,
		},
		"BeyondMaxDepth": {
			reason: "A commit beyond MaxDepth is reported with the limit.",
			commit: commits[2], maxDepth: 20, fetches: 1,
			msg: "not found in the last 20 commits of any branch or tag (the server does not serve commits by SHA",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv.Reset()
			f, _ := newFetcher(t, Options{MaxDepth: tc.maxDepth})
			fsys, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Commit: tc.commit, Path: "pkg"})
			if msg := errCheck(err, nil, tc.msg); tc.msg != "" && msg != "" || tc.msg == "" && err != nil {
				t.Fatalf("%s\nOpen: %v, want %q", tc.reason, err, tc.msg)
			}
			if err == nil {
				assert.Check(t, is.DeepEqual(map[string]string{"n.yaml": tc.want}, readFiles(t, fsys)), "%s\nOpen", tc.reason)
			}
			if n := srv.Fetches(); n != tc.fetches {
				t.Errorf("%s\nOpen: %d fetches, want %d", tc.reason, n, tc.fetches)
			}
		})
	}
}
