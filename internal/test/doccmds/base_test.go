package doccmds

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// base is the fresh-clone-like copy every file's copy is cloned from:
// <tmp>/base/kudo-render, ../shared beside it, committed as main (and
// origin/main), bin/kudo-render built by make build.
type base struct {
	tmp, dir string
	shared   string
	path     string   // PATH of the commands after root/bin
	goEnv    []string // the Go toolchain's caches, kept although HOME is not
	n        atomic.Int32
}

// newBase copies the tracked files, commits them and runs make build
// once; it skips the test when the corpus is not beside the repository.
func newBase(t *testing.T, repo string) *base {
	t.Helper()
	shared := filepath.Join(repo, "..", "shared")
	if c := os.Getenv("KUDO_RENDER_CORPUS"); c != "" {
		shared = filepath.Dir(c)
	}
	if _, err := os.Stat(filepath.Join(shared, "corpus")); err != nil {
		t.Skipf("the corpus is not in %s (KUDO_RENDER_CORPUS): the documentation's commands use ../shared/corpus", shared)
	}
	b := &base{tmp: t.TempDir(), shared: shared}
	b.dir = filepath.Join(b.tmp, "base", "kudo-render")
	gopath := b.readGoEnv(t)
	b.path = os.Getenv("PATH") + string(os.PathListSeparator) + filepath.Join(gopath, "bin")
	copyTracked(t, repo, b.dir)
	b.besideShared(t, b.dir)
	start := time.Now()
	b.run(t, 2*time.Minute, "git", "init", "-q", "-b", "main")
	b.run(t, 2*time.Minute, "git", "add", "-A")
	b.run(t, 2*time.Minute, "git", "-c", "user.name=doc-test", "-c", "user.email=doc-test@example.com", "-c", "commit.gpgsign=false",
		"commit", "-q", "-m", "a fresh clone")
	// a clone has history: HEAD~1 is there (the same tree)
	b.run(t, time.Minute, "git", "-c", "user.name=doc-test", "-c", "user.email=doc-test@example.com", "-c", "commit.gpgsign=false",
		"commit", "-q", "--allow-empty", "-m", "HEAD")
	b.run(t, time.Minute, "git", "update-ref", "refs/remotes/origin/main", "HEAD")
	b.run(t, time.Minute, "git", "remote", "add", "origin", repo)
	b.run(t, 15*time.Minute, "make", "build")
	t.Logf("copy of the repository committed and make build run in %s", time.Since(start).Round(time.Millisecond))
	return b
}

// readGoEnv keeps the Go caches of the test's environment for the
// commands (their HOME is empty); it returns GOPATH.
func (b *base) readGoEnv(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 4 {
		t.Fatalf("go env: %q", out)
	}
	b.goEnv = []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2], "GOENV=" + v[3], "GOTOOLCHAIN=local"}
	return strings.Split(v[2], string(os.PathListSeparator))[0]
}

// run runs a command in the base copy, failing the test on error.
func (b *base) run(t *testing.T, timeout time.Duration, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Dir, c.Env, c.WaitDelay = b.dir, b.env(b.dir), 5*time.Second
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(string(out), 4000))
	}
}

// env is the environment of the commands run in the copy at root: HOME,
// XDG folders and the git configuration of their own, root/bin first on
// PATH, no KUDO_RENDER_*, KUBECONFIG or GIT_* of the test's.
func (b *base) env(root string) []string {
	home := filepath.Join(filepath.Dir(root), "home")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "PATH" || k == "PWD" || k == "OLDPWD" || k == "KUBECONFIG" ||
			strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "KUDO_RENDER_") || strings.HasPrefix(k, "GIT_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, b.goEnv...)
	return append(env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "PATH="+filepath.Join(root, "bin")+string(os.PathListSeparator)+b.path)
}

// clone is a copy of the base of its own (git objects and the binary
// linked, not copied), with ../shared and a HOME beside it.
func (b *base) clone(t *testing.T) string {
	t.Helper()
	root := filepath.Join(b.tmp, fmt.Sprint(b.n.Add(1)), "kudo-render")
	err := filepath.WalkDir(b.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(b.dir, p)
		dst := filepath.Join(root, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(to, dst)
		case rel == filepath.Join("bin", "kudo-render") || strings.HasPrefix(rel, filepath.Join(".git", "objects")+string(filepath.Separator)):
			return os.Link(p, dst) // never written in place: go build and git replace files
		}
		return copyFile(p, dst)
	})
	if err != nil {
		t.Fatal(err)
	}
	b.besideShared(t, root)
	return root
}

// besideShared puts ../shared (a link to the corpus' folder) and an empty
// HOME beside the copy at root.
func (b *base) besideShared(t *testing.T, root string) {
	t.Helper()
	if err := os.Symlink(b.shared, filepath.Join(filepath.Dir(root), "shared")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(filepath.Dir(root), "home"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// notRun is why a command is not run: its docs say it needs a cluster or
// network, or a tool it needs is not installed; "" runs it.
func (b *base) notRun(c command) string {
	if c.skip != "" {
		return c.skip
	}
	if m := b.missingTools(c); len(m) > 0 {
		return "needs " + strings.Join(m, ", ") + ", which is not installed"
	}
	return ""
}

// missingTools are the tools the command needs that are not on its PATH.
func (b *base) missingTools(c command) []string {
	var missing []string
	for _, tool := range c.needs {
		found := false
		for _, dir := range filepath.SplitList(b.path) {
			if info, err := os.Stat(filepath.Join(dir, tool)); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, tool)
		}
	}
	return missing
}

// copyTracked copies the files git tracks in repo, as they are in the
// working tree (a tracked file deleted there is left out), into dir.
func copyTracked(t *testing.T, repo, dir string) {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src, dst := filepath.Join(repo, f), filepath.Join(dir, f)
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue
		}
		if err == nil {
			err = os.MkdirAll(filepath.Dir(dst), 0o755)
		}
		if err == nil && info.Mode()&os.ModeSymlink != 0 {
			var to string
			if to, err = os.Readlink(src); err == nil {
				err = os.Symlink(to, dst)
			}
		} else if err == nil {
			err = copyFile(src, dst)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// copyFile copies a regular file with its permission bits.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
