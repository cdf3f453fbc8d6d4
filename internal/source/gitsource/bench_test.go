package gitsource

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// benchRepo is a repository like a platform team's: 5 frameworks of 20
// templates of about 2 KiB each, and 20 commits of history.
func benchRepo(b testing.TB) (*gittest.Server, *gittest.Repo) {
	b.Helper()
	srv := gittest.NewServer(b, gittest.Options{})
	repo := srv.NewRepo("platform/frameworks")
	body := strings.Repeat("# a line of a template, about forty bytes\n", 48)
	for c := range 20 {
		files := map[string]string{}
		for fw := range 5 {
			files[fmt.Sprintf("fw%d/framework.yaml", fw)] = fmt.Sprintf("name: fw%d\nversion: \"%d\"\n", fw, c)
			if c == 0 || c%5 == fw {
				for i := range 20 {
					files[fmt.Sprintf("fw%d/templates/t%02d.yaml", fw, i)] = fmt.Sprintf("# commit %d\n%s", c, body)
				}
			}
		}
		repo.Commit(fmt.Sprint("commit ", c), files)
	}
	return srv, repo
}

// BenchmarkColdFetch opens a branch with an empty cache: one ls-remote, one
// shallow fetch into memory, the whole tree written to the cache.
func BenchmarkColdFetch(b *testing.B) {
	_, repo := benchRepo(b)
	root := b.TempDir()
	ref := Ref{URL: repo.URL(), Ref: "main", Path: "fw1"}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		cache := fmt.Sprintf("%s/%d", root, i)
		f, err := New(Options{CacheDir: cache, AllowInsecureHTTP: true, Auth: &Auth{}})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := f.Open(ctx, ref); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(cache)
		b.StartTimer()
	}
}

// BenchmarkGitCloneDepth1 is the reference: `git clone --depth 1` of the same
// repository (a checkout of the whole tree) with the git binary.
func BenchmarkGitCloneDepth1(b *testing.B) {
	git := gittest.GitBinary(b)
	_, repo := benchRepo(b)
	root := b.TempDir()
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+root, "GIT_TERMINAL_PROMPT=0")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		dir := fmt.Sprintf("%s/%d", root, i)
		cmd := exec.Command(git, "clone", "-q", "--depth", "1", "--single-branch", "--no-tags", repo.URL(), dir)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// BenchmarkWarmOpen opens a cached commit: no network, a metadata read and
// the symlink check.
func BenchmarkWarmOpen(b *testing.B) {
	_, repo := benchRepo(b)
	f, err := New(Options{CacheDir: b.TempDir(), AllowInsecureHTTP: true, Auth: &Auth{}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	_, res, err := f.Open(ctx, Ref{URL: repo.URL(), Ref: "main", Path: "fw1"})
	if err != nil {
		b.Fatal(err)
	}
	ref := Ref{URL: repo.URL(), Ref: "main", Commit: res.Commit, Path: "fw1"}
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := f.Open(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWarmOpenBranch opens a cached branch: one ls-remote.
func BenchmarkWarmOpenBranch(b *testing.B) {
	_, repo := benchRepo(b)
	f, err := New(Options{CacheDir: b.TempDir(), AllowInsecureHTTP: true, Auth: &Auth{}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	ref := Ref{URL: repo.URL(), Ref: "main", Path: "fw1"}
	if _, _, err := f.Open(ctx, ref); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := f.Open(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
}
