package gitsource

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// Test content of the fixture repository.
const (
	readme  = "frameworks\n"
	fw0     = "name: mysql\nversion: \"0\"\n"
	fw1     = "name: mysql\nversion: \"1\"\n"
	fw2     = "name: mysql\nversion: \"2\"\n"
	deploy  = "kind: Deployment\n"
	devOnly = "dev: true\n"
)

var (
	files0 = map[string]string{"framework.yaml": fw0}
	files1 = map[string]string{"framework.yaml": fw1, "templates/deploy.yaml": deploy}
	files2 = map[string]string{"framework.yaml": fw2, "templates/deploy.yaml": deploy}
)

// fixture is a repository served over loopback HTTP:
//
//	c0 (root, not a tip) - c1 (tags v1, annotated v1.0.0) - c2 (main)
//	                                                   \- dev (branch dev)
type fixture struct {
	srv            *gittest.Server
	repo           *gittest.Repo
	c0, c1, c2, dv string
}

func newFixture(t testing.TB, opts gittest.Options) *fixture {
	t.Helper()
	srv := gittest.NewServer(t, opts)
	repo := srv.NewRepo("platform/frameworks")
	fx := &fixture{srv: srv, repo: repo}
	fx.c0 = repo.Commit("init", map[string]string{"README.md": readme, "mysql/framework.yaml": fw0})
	fx.c1 = repo.Commit("v1", map[string]string{"mysql/framework.yaml": fw1, "mysql/templates/deploy.yaml": deploy})
	repo.Tag("v1", fx.c1)
	repo.AnnotatedTag("v1.0.0", fx.c1, "release 1.0.0")
	repo.Checkout("dev")
	fx.dv = repo.Commit("dev only", map[string]string{"mysql/dev.yaml": devOnly})
	repo.Checkout("main")
	fx.c2 = repo.Commit("v2", map[string]string{"mysql/framework.yaml": fw2})
	srv.Reset()
	return fx
}

// warnings collects the warnings of a Fetcher.
type warnings struct {
	mu   sync.Mutex
	list []string
}

func (w *warnings) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, s)
}

func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.list, "\n")
}

// newFetcher returns a Fetcher for tests: http allowed, no credentials from
// the environment, a fresh cache unless opts names one.
func newFetcher(t testing.TB, opts Options) (Fetcher, *warnings) {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	if opts.Auth == nil {
		opts.Auth = &Auth{}
	}
	opts.AllowInsecureHTTP = true
	w := &warnings{}
	opts.Warn = w.add
	f, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return f, w
}

// readFiles returns every file of fsys by path, following symbolic links
// (to files and to folders) as a bundle loader would.
func readFiles(t testing.TB, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			fi, err := fs.Stat(fsys, p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.IsDir() {
				walk(p)
				continue
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = string(data)
		}
	}
	walk(".")
	return out
}

// errCheck compares an error with an expected kind and message fragments.
func errCheck(err error, kind error, contains ...string) string {
	switch {
	case kind == nil && len(contains) == 0:
		if err != nil {
			return "unexpected error: " + err.Error()
		}
		return ""
	case err == nil:
		return "no error, want one"
	case kind != nil && !errors.Is(err, kind):
		return "error " + err.Error() + " is not " + kind.Error()
	}
	for _, c := range contains {
		if !strings.Contains(err.Error(), c) {
			return "error " + err.Error() + " does not contain " + c
		}
	}
	return ""
}
