package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// gitBase serves a repository holding examples/mysql at examples/mysql over
// a loopback smart-HTTP server, and returns a copy of render-git.yaml that
// points at it.
func gitBase(t *testing.T) (srv *gittest.Server, repo *gittest.Repo, cfg string) {
	return gitBaseB(t)
}

func gitBaseB(t testing.TB) (srv *gittest.Server, repo *gittest.Repo, cfg string) {
	t.Helper()
	srv = gittest.NewServer(t, gittest.Options{})
	repo = srv.NewRepo("kudo-render.git")
	repo.Commit("mysql base", repoFiles(t, "../examples/mysql", "examples/mysql"))
	data, err := os.ReadFile("../examples/mysql-extension/render-git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "https://github.com/kudo-render/kudo-render.git", repo.URL(), 1)
	abs, _ := filepath.Abs("../examples/mysql-extension")
	text = strings.Replace(text, "path: .\n", "path: "+abs+"\n", 1)
	cfg = filepath.Join(t.TempDir(), "render-git.yaml")
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, repo, cfg
}

// TestRenderGitBase renders the KEP-0012 extension with its base from git,
// then again from the cache without any request, then offline.
func TestRenderGitBase(t *testing.T) {
	srv, repo, cfg := gitBase(t)
	cache := t.TempDir()
	out, stderr, err := runStderr("render", cfg, "--allow-insecure-http", "--cache-dir", cache)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	commit := repo.Rev("HEAD")
	if !strings.Contains(out, "kudorender.dev/origin: "+repo.URL()+"@"+commit+":examples/mysql") {
		t.Errorf("objects do not carry the resolved source url@sha:path")
	}
	if !strings.Contains(objectDoc(out, "name: shop-db-backup-job"), "name: scratch") {
		t.Error("the extension's patch is missing from the backup job")
	}
	if !strings.Contains(stderr, "pin it with kudo-render lock") {
		t.Errorf("no warning about the unpinned branch on stderr: %q", stderr)
	}

	// A pinned commit that is cached is never fetched again.
	pinned := strings.Replace(readFile(t, cfg), "ref: main", "ref: main\n      commit: "+commit, 1)
	os.WriteFile(cfg, []byte(pinned), 0o644)
	srv.Reset()
	again, stderr, err := runStderr("render", cfg, "--allow-insecure-http", "--cache-dir", cache)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if srv.Requests() != 0 {
		t.Errorf("%d requests reached the server for a cached commit", srv.Requests())
	}
	if again != out {
		t.Error("the cached render differs")
	}
	if strings.Contains(stderr, "pin it") {
		t.Error("warned about a pinned source")
	}

	// Offline with an empty cache: the error names the source.
	_, _, err = runStderr("render", cfg, "--allow-insecure-http", "--cache-dir", t.TempDir(), "--offline")
	if err == nil || !strings.Contains(err.Error(), repo.URL()) {
		t.Errorf("offline miss: %v", err)
	}
}

func TestRenderGitErrors(t *testing.T) {
	_, _, cfg := gitBase(t)
	text := readFile(t, cfg)
	for name, tc := range map[string]struct {
		edit     func(string) string
		insecure bool // pass --allow-insecure-http
		want     string
	}{
		"UnknownRef":   {func(s string) string { return strings.Replace(s, "ref: main", "ref: no-such-branch", 1) }, true, "no-such-branch"},
		"InsecureHTTP": {func(s string) string { return s }, false, "http"},
		"MissingPath":  {func(s string) string { return strings.Replace(s, "path: examples/mysql", "path: examples/nope", 1) }, true, "examples/nope"},
	} {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(cfg, []byte(tc.edit(text)), 0o644)
			args := []string{"render", cfg, "--cache-dir", t.TempDir()}
			if tc.insecure {
				args = append(args, "--allow-insecure-http")
			}
			out, _, err := runStderr(args...)
			if err == nil || out != "" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, stdout %d bytes; want an error naming %q", err, len(out), tc.want)
			}
		})
	}
}

func readFile(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestLock pins the git base, then checks that a moved branch does not
// change the render, that --verify notices a rewritten branch, and that
// --pin-output refuses a changed output.
func TestLock(t *testing.T) {
	_, repo, cfg := gitBase(t)
	cache := t.TempDir()
	flags := []string{"--allow-insecure-http", "--cache-dir", cache}
	out, _, err := runStderr(append([]string{"lock", cfg}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	first := repo.Rev("HEAD")
	text := readFile(t, cfg)
	if !strings.Contains(text, "ref: main\n      commit: "+first) || !strings.Contains(out, "locked 1 source") {
		t.Fatalf("commit not written beside ref:\n%s", text)
	}
	if !strings.Contains(text, "# The KEP-0012 extension") {
		t.Error("lock dropped the config's comments")
	}
	before, stderr, err := runStderr(append([]string{"render", cfg}, flags...)...)
	if err != nil || strings.Contains(stderr, "pin it") {
		t.Fatalf("render after lock: %v %q", err, stderr)
	}

	// The branch moves: the pinned render does not.
	repo.Commit("change the base", map[string]string{"examples/mysql/templates/init.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: changed\n"})
	after, _, err := runStderr(append([]string{"render", cfg}, flags...)...)
	if err != nil || after != before {
		t.Errorf("a moved branch changed a pinned render: %v", err)
	}
	if _, _, err := runStderr(append([]string{"lock", cfg, "--verify"}, flags...)...); err != nil {
		t.Errorf("verify of a commit still in its branch: %v", err)
	}
	// The branch is rewritten without the pinned commit.
	repo.Git("checkout", "-q", "--orphan", "rewritten")
	repo.Commit("unrelated history", map[string]string{"README": "x"})
	repo.Git("branch", "-f", "main", "rewritten")
	if _, _, err := runStderr(append([]string{"lock", cfg, "--verify"}, flags...)...); err == nil || !strings.Contains(err.Error(), "no longer contains") {
		t.Errorf("verify of a rewritten branch: %v", err)
	}
	if _, _, err := runStderr(append([]string{"render", cfg, "--verify-pins"}, flags...)...); err == nil {
		t.Error("render --verify-pins accepted a rewritten branch")
	}
}

// TestLockPinOutput: --pin-output pins the output; a render whose output
// differs (a changed parameter) fails.
func TestLockPinOutput(t *testing.T) {
	_, _, cfg := gitBase(t)
	flags := []string{"--allow-insecure-http", "--cache-dir", t.TempDir()}
	if _, _, err := runStderr(append([]string{"lock", cfg, "--pin-output"}, flags...)...); err != nil {
		t.Fatal(err)
	}
	pinned := readFile(t, cfg)
	if !strings.Contains(pinned, "expectedResourceVersions:") || !strings.Contains(pinned, "Job/shop/shop-db-backup-job: sha256:") {
		t.Fatalf("no pinned resource versions:\n%s", pinned)
	}
	if _, _, err := runStderr(append([]string{"render", cfg}, flags...)...); err != nil {
		t.Errorf("render matching its pins: %v", err)
	}
	os.WriteFile(cfg, []byte(strings.Replace(pinned, "plans: [backup]", "plans: [backup]\n  params:\n    backup-pvc-size: 9Gi", 1)), 0o644)
	if _, _, err := runStderr(append([]string{"render", cfg}, flags...)...); err == nil || !strings.Contains(err.Error(), "pinned") {
		t.Errorf("a changed output passed its pins: %v", err)
	}
}
