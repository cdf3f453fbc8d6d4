package hostile_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// gitConfig is a FunctionConfig rendering the package at url (the
// framework's git source), with more spec lines.
func gitConfig(url, commit, more string) string {
	pin := ""
	if commit != "" {
		pin = ", commit: " + commit
	}
	return "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst, namespace: ns}\nspec:\n" +
		"  framework:\n    git: {url: " + url + ", ref: main" + pin + ", path: pkg}\n" + more
}

// pkgRepo is a served repository whose main branch holds the package.
func pkgRepo(t *testing.T, srv *gittest.Server, name string) *gittest.Repo {
	repo := srv.NewRepo(name)
	repo.Commit("package", pkgFiles(map[string]string{"cm.yaml": cm}, nil))
	return repo
}

// localRepo is a repository (not served) holding the package and
// render.yaml, a config of it, for diff --from-rev.
func localRepo(t *testing.T) *gittest.Repo {
	srv := gittest.NewServer(t, gittest.Options{})
	files := pkgFiles(map[string]string{"cm.yaml": cm}, nil)
	files["render.yaml"] = "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst, namespace: ns}\nspec:\n  framework: {path: pkg}\n"
	repo := srv.NewRepo("local")
	repo.Commit("package", files)
	return repo
}

// noTemporaryFolders checks that dir/tmp (the run's TMPDIR) is empty.
func noTemporaryFolders(t *testing.T, dir string) {
	t.Helper()
	left, err := os.ReadDir(filepath.Join(dir, "tmp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("%d temporary folders left behind in TMPDIR: %v", len(left), left)
	}
}

// fromRev sets up diff --from-rev REV of the local repository's
// render.yaml, REV made by mk (which may commit to the repository).
func fromRev(mk func(t *testing.T, repo *gittest.Repo) string) func(t *testing.T, dir string) []string {
	return func(t *testing.T, dir string) []string {
		if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
			t.Fatal(err)
		}
		repo := localRepo(t)
		rev := mk(t, repo)
		return []string{"diff", filepath.Join(repo.Dir, "render.yaml"), "--from-rev", rev}
	}
}

// TestGitSources: git repositories, local (diff --from-rev) or served,
// cost what their limits say, whatever they hold; credentials reach
// only their hosts; a hung server is named.
func TestGitSources(t *testing.T) {
	gittest.GitBinary(t)
	tmp := []string{"TMPDIR={dir}/tmp"}
	cases := map[string]hostileCase{
		"TreeEntriesBomb": {
			class:  "git",
			reason: "a repository of a few objects whose tree is a million empty files is refused before any is written to the cache",
			setup: func(t *testing.T, dir string) []string {
				srv := gittest.NewServer(t, gittest.Options{})
				repo := pkgRepo(t, srv, "org/wide")
				repo.CommitEntry("wide", "wide", "040000", repo.WideTree(1000, 2))
				write(t, dir, map[string]string{"render.yaml": gitConfig(repo.URL(), "", "")})
				return []string{"render", "{dir}/render.yaml", "--allow-insecure-http"}
			},
			stderr: `org/wide@main: the tree: git tree entries exceeds the limit of 100000 entries \(raise it with --max-git-tree-entries`,
			after: func(t *testing.T, dir string) {
				n := 0
				filepath.WalkDir(filepath.Join(dir, ".cache"), func(string, os.DirEntry, error) error { n++; return nil })
				if n > 20 {
					t.Errorf("%d files in the cache after a refused tree", n)
				}
			},
		},
		"FromRevTreeBomb": {
			class:  "git",
			reason: "diff --from-rev of a commit whose tree is a million empty files is refused before any is written, and its checkout removed",
			setup: fromRev(func(t *testing.T, repo *gittest.Repo) string {
				return repo.CommitEntry("wide", "wide", "040000", repo.WideTree(1000, 2))
			}),
			env: tmp, exit: 2, after: noTemporaryFolders,
			stderr: `git tree entries exceeds the limit of 100000 entries`,
		},
		"FromRevLooseObject": {
			class:  "git",
			reason: "diff --from-rev of a commit with a 1 GiB loose object (1 MiB on disk) is refused from the object's header, never read",
			setup: fromRev(func(t *testing.T, repo *gittest.Repo) string {
				return repo.CommitEntry("zeros", "zeros.yaml", "100644", repo.LooseZeros("blob", 1<<30))
			}),
			env: tmp, exit: 2, after: noTemporaryFolders,
			stderr: `zeros.yaml: git blob size exceeds the limit of 8388608 bytes \(raise it with --max-git-blob-bytes`,
		},
		"FromRevTimeout": {
			class:  "git",
			reason: "diff --from-rev whose old side loops: the watchdog ends the run (exit 2 for diff) and removes the checkout",
			setup: fromRev(func(t *testing.T, repo *gittest.Repo) string {
				loop := "{{ range $i := until 100000 }}{{ range $j := until 100000 }}{{ end }}{{ end }}" + cm
				c := repo.Commit("loop", map[string]string{"pkg/templates/cm.yaml": loop})
				repo.Commit("fixed", map[string]string{"pkg/templates/cm.yaml": cm})
				return c
			}),
			env: append([]string{"KUDO_RENDER_TIMEOUT=2s"}, tmp...), exit: 2, after: noTemporaryFolders,
			stderr: `gave up after 2s \(--timeout\) while executing templates/cm\.yaml`,
		},
		"ManyLockPins": {
			class:   "git",
			reason:  "a lock of 300 pins (commits of one repository the render never reads) fetches at most 16 of them",
			succeed: true,
			setup: func(t *testing.T, dir string) []string {
				srv := gittest.NewServer(t, gittest.Options{AllowSHA1InWant: true})
				repo := pkgRepo(t, srv, "org/pins")
				repo.Commit("a megabyte", map[string]string{"big.txt": strings.Repeat("x", 1<<20)})
				var pins strings.Builder
				pins.WriteString("  lock:\n    pins:\n")
				for i := range 300 {
					c := repo.Git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", fmt.Sprint(i))
					repo.Git("update-ref", "refs/heads/b"+fmt.Sprint(i), c)
					fmt.Fprintf(&pins, "    - {url: %s, ref: b%d, commit: %s}\n", repo.URL(), i, c)
				}
				write(t, dir, map[string]string{"render.yaml": gitConfig(repo.URL(), repo.Rev("main"), pins.String())})
				return []string{"render", "{dir}/render.yaml", "--allow-insecure-http"}
			},
			check: func(t *testing.T, dir, stdout string) {
				commits, _ := filepath.Glob(filepath.Join(dir, ".cache", "*", "commits", "*"))
				if len(commits) > 16 {
					t.Errorf("%d commits in the cache, want at most 16 (the framework and 15 prefetched pins)", len(commits))
				}
			},
		},
		"TokenWithoutHosts": {
			class:  "git",
			reason: "a token without KUDO_RENDER_GIT_HOSTS is refused: it would go wherever a config says",
			setup: func(t *testing.T, dir string) []string {
				srv := gittest.NewServer(t, gittest.Options{})
				repo := pkgRepo(t, srv, "org/pkg")
				url := strings.Replace(repo.URL(), "127.0.0.1", "localhost", 1)
				write(t, dir, map[string]string{"render.yaml": gitConfig(url, "", "")})
				t.Cleanup(func() {
					if n := srv.Requests(); n != 0 {
						t.Errorf("the server received %d requests", n)
					}
				})
				return []string{"render", "{dir}/render.yaml", "--allow-insecure-http"}
			},
			env:    []string{"KUDO_RENDER_GIT_TOKEN=TOPSECRET-token"},
			stderr: `KUDO_RENDER_GIT_TOKEN is set but KUDO_RENDER_GIT_HOSTS is not`,
		},
		"TokenStaysHome": {
			class:   "git",
			reason:  "a config naming another host than KUDO_RENDER_GIT_HOSTS gets no credentials from it",
			succeed: true,
			setup: func(t *testing.T, dir string) []string {
				srv := gittest.NewServer(t, gittest.Options{})
				repo := pkgRepo(t, srv, "org/pkg")
				url := strings.Replace(repo.URL(), "127.0.0.1", "localhost", 1)
				write(t, dir, map[string]string{"render.yaml": gitConfig(url, "", "")})
				t.Cleanup(func() {
					for _, r := range srv.Log() {
						if r.Authorization != "" {
							t.Errorf("%s %s reached the other host with credentials %q", r.Method, r.Path, r.Authorization)
						}
					}
					if srv.Requests() == 0 {
						t.Error("the source was not fetched")
					}
				})
				return []string{"render", "{dir}/render.yaml", "--allow-insecure-http"}
			},
			env: []string{"KUDO_RENDER_GIT_TOKEN=TOPSECRET-token", "KUDO_RENDER_GIT_HOSTS=127.0.0.1"},
		},
		"HungServer": {
			class:  "git",
			reason: "a git server that accepts and never answers is named by the fetch that waits on it, which stops at the run's deadline (--timeout less a margin), before the watchdog; never blamed on a template",
			setup: func(t *testing.T, dir string) []string {
				srv := gittest.NewServer(t, gittest.Options{})
				repo := pkgRepo(t, srv, "org/hung")
				c := repo.Rev("main")
				srv.Stall(true)
				write(t, dir, map[string]string{"render.yaml": gitConfig(repo.URL(), c, "")})
				return []string{"render", "{dir}/render.yaml", "--allow-insecure-http", "--timeout", "2s"}
			},
			stderr: `git source http://127\.0\.0\.1:\d+/org/hung@[0-9a-f]{40}: git fetch \(depth 1\) stopped before the run's time limit of 2s \(--timeout`,
			within: 1900 * time.Millisecond,
		},
	}
	for _, rev := range []string{"HEAD@{5}", "@{upstream}", "HEAD:pkg"} {
		cases["FromRevSpec "+rev] = hostileCase{
			class:  "git",
			reason: "a revision git would read otherwise than kudo-render can is refused naming it, never read as HEAD",
			setup:  fromRev(func(*testing.T, *gittest.Repo) string { return rev }),
			env:    tmp, exit: 2, after: noTemporaryFolders,
			stderr: `revision "` + strings.NewReplacer("{", `\{`, "}", `\}`).Replace(rev) + `": .* is not supported; give a commit id`,
		}
	}
	runCases(t, cases)
}

// TestFromRevSignal: SIGINT or SIGTERM during diff --from-rev removes the
// checkout, and the process still ends by the signal.
func TestFromRevSignal(t *testing.T) {
	gittest.GitBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			args := fromRev(func(t *testing.T, repo *gittest.Repo) string {
				loop := "{{ range $i := until 100000 }}{{ range $j := until 100000 }}{{ end }}{{ end }}" + cm
				c := repo.Commit("loop", map[string]string{"pkg/templates/cm.yaml": loop})
				repo.Commit("fixed", map[string]string{"pkg/templates/cm.yaml": cm})
				return c
			})(t, dir)
			c := exec.Command(binary, append(args, "--timeout", "0")...)
			c.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + filepath.Join(dir, "tmp")}
			var stderr strings.Builder
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for { // the checkout is written: the old side renders (and loops)
				if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) > 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			c.Process.Signal(sig)
			err := c.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Errorf("the process ended with %v, want the signal %s; stderr:\n%s", err, sig, stderr.String())
			}
			noTemporaryFolders(t, dir)
		})
	}
}
