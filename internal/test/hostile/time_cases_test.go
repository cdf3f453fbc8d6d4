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
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// kubeconfig writes a kubeconfig of a cluster at http://host and returns
// its path.
func kubeconfig(t *testing.T, dir, host string) string {
	write(t, dir, map[string]string{"kubeconfig": "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"http://" + host + "\"}}]\n" +
		"contexts: [{name: c, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\ncurrent-context: c\n"})
	return filepath.Join(dir, "kubeconfig")
}

// TestTimeBounds: a server that accepts and never answers (a registry, a
// cluster) is given up on by the operation that waits on it, before the
// watchdog: the error names the server, what was asked and the limit. A
// pull tried twice in one run (prefetch, then the load) shares one
// --oci-timeout, and never runs past the run's --timeout. A named pipe
// called *.yaml in a spec.crds folder is refused, never opened (opening it
// blocked the Argo CD plugin until the watchdog).
func TestTimeBounds(t *testing.T) {
	stalledDigest := "sha256:" + strings.Repeat("0", 64)
	stalledOCI := func(extra ...string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			reg := ocitest.Stall(t)
			cfg := ociConfig(t, dir, fmt.Sprintf("{url: %s/kudo/stalled, digest: %q}", reg.URL, stalledDigest))
			return append([]string{"render", cfg, "--output-dir", "{out}"}, extra...)
		}
	}
	stalledCluster := func(args ...string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
			write(t, dir, map[string]string{
				"render.yaml":      "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst, namespace: ns}\nspec:\n  framework: {path: pkg}\n",
				"kudo-export.yaml": kudoExport(nil),
			})
			k := kubeconfig(t, dir, ocitest.Stall(t).Host)
			return append(args, "--kubeconfig", k, "--timeout", "4s")
		}
	}
	cases := map[string]hostileCase{
		"OCIPulledTwice": {
			reason: "prefetch and the load both pull a pinned artifact from a registry that never answers: each had a fresh --oci-timeout, so the watchdog ended the run",
			setup:  stalledOCI("--timeout", "6s", "--oci-timeout", "4s"),
			stderr: `oci://127\.0\.0\.1:\d+/kudo/stalled@` + stalledDigest + `: the registry did not answer within 4s \(--oci-timeout, one bound for every OCI fetch of the run, retries included\): raise it with --oci-timeout or KUDO_RENDER_OCI_TIMEOUT`,
			within: 5500 * time.Millisecond,
		},
		"OCIWithinTheRun": {
			reason: "an --oci-timeout longer than the run's --timeout: the pull gives up before the watchdog, naming the artifact",
			setup:  stalledOCI("--timeout", "3s"),
			stderr: `oci://127\.0\.0\.1:\d+/kudo/stalled@` + stalledDigest + `: the registry did not answer before the run's time limit \(--timeout`,
		},
		"AdoptStalledCluster": {
			reason: "adopt check against a cluster that never answers: each request was bounded by the run's own 30 s, so the watchdog ended it naming neither cluster nor request",
			setup: func(t *testing.T, dir string) []string {
				return stalledCluster("adopt", "check", filepath.Join(dir, "render.yaml"))(t, dir)
			},
			exit:   2,
			stderr: `the cluster http://127\.0\.0\.1:\d+ did not answer GET /apis/kudo\.dev/v1beta1/namespaces/ns/instances/inst within [\d.]+m?s \(what the run's --timeout left it; raise it with --timeout or KUDO_RENDER_TIMEOUT\)`,
			within: 4 * time.Second,
		},
		"ImportStalledCluster": {
			reason: "import --kubeconfig of a cluster that never answers gives up naming the cluster and the request",
			setup: func(t *testing.T, dir string) []string {
				return stalledCluster("import", "--output-dir", "{out}")(t, dir)
			},
			stderr: `the cluster http://127\.0\.0\.1:\d+ did not answer GET /apis/kudo\.dev/v1beta1/instances within [\d.]+m?s`,
			within: 4 * time.Second,
		},
		"FIFOInCRDs": {
			reason: "the Argo CD plugin reads spec.crds from the application's repository: a named pipe called *.yaml there blocked it until the watchdog",
			setup: func(t *testing.T, dir string) []string {
				pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"kudo-render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: pkg}\n  crds: [crds]\n"})
				os.MkdirAll(filepath.Join(dir, "crds"), 0o755)
				if err := syscall.Mkfifo(filepath.Join(dir, "crds", "pipe.yaml"), 0o644); err != nil {
					t.Skip("no named pipes here:", err)
				}
				return []string{"cmp", "generate"}
			},
			env:    []string{"ARGOCD_APP_NAME=x", "ARGOCD_APP_NAMESPACE=ns", "KUDO_RENDER_TIMEOUT=8s"},
			stderr: `spec\.crds\[0\]: crds/pipe\.yaml: is a named pipe \(FIFO\): only regular files are read`,
			within: 5 * time.Second,
		},
	}
	for name, c := range cases {
		c.class = "time bounds"
		cases[name] = c
	}
	runCases(t, cases)
}

// manyInstances is an export of n instances of one OperatorVersion: an
// import of it writes 2n+5 files.
func manyInstances(n int) string {
	var b strings.Builder
	b.WriteString(kudoExport(func(s string) string {
		return s[:strings.Index(s, "  - apiVersion: kudo.dev/v1beta1\n    kind: Instance")]
	}))
	for i := range n {
		fmt.Fprintf(&b, "  - {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: app%d, namespace: ns}, spec: {operatorVersion: {name: app-0.1.0}}}\n", i)
	}
	return b.String()
}

// stagingFolders are the folders a folder write builds beside out.
func stagingFolders(t *testing.T, dir string) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, ".out.kudo-render-*"))
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// stalledGit serves the package's repository, then stalls (stall is
// Server.Stall or Server.StallFetches) as a busy server does: a byte now
// and then, never the answer, so that --git-idle-timeout never fires.
// The config renders its main branch, pinned to its commit when pinned,
// with n more lock pins (branches b0..bn-1 of their own commits); args
// follow the config.
func stalledGit(stall func(*gittest.Server, bool), pinned bool, n int, args ...string) func(t *testing.T, dir string) []string {
	return func(t *testing.T, dir string) []string {
		srv := gittest.NewServer(t, gittest.Options{AllowSHA1InWant: true, Trickle: 100 * time.Millisecond})
		repo := pkgRepo(t, srv, "org/stalled")
		commit := ""
		if pinned {
			commit = repo.Rev("main")
		}
		var pins strings.Builder
		if n > 0 {
			pins.WriteString("  lock:\n    pins:\n")
		}
		for i := range n {
			c := repo.Git("commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", fmt.Sprint(i))
			repo.Git("update-ref", "refs/heads/b"+fmt.Sprint(i), c)
			fmt.Fprintf(&pins, "    - {url: %s, ref: b%d, commit: %s}\n", repo.URL(), i, c)
		}
		stall(srv, true)
		write(t, dir, map[string]string{"render.yaml": gitConfig(repo.URL(), commit, pins.String())})
		return append([]string{"render", "{dir}/render.yaml", "--allow-insecure-http"}, args...)
	}
}

// TestGitTimeBounds: a git server that stalls, on the ref advertisement
// (ls-remote) or on the pack that follows it, is given up on by the git
// operation that waits on it, before the watchdog, with an error naming
// the repository, the operation and the limit. Every git operation of a
// run shares one --git-timeout, counted from the first: prefetch and the
// load that follows, the pins prefetched side by side, the ls-remote and
// the fetch after it get no fresh bound each; and none runs past the
// run's --timeout (less a margin). The server sends a byte now and then,
// never the answer, so --git-idle-timeout does not end the wait.
func TestGitTimeBounds(t *testing.T) {
	source := `git source http://127\.0\.0\.1:\d+/org/stalled@`
	byGit := func(ref, op string) string {
		return source + ref + `: ` + op + ` stopped: the run's git operations used up the 3s they share \(--git-timeout, one bound for all of them, counted from the first\): raise it with --git-timeout or KUDO_RENDER_GIT_TIMEOUT`
	}
	byRun := func(ref, op, limit string) string {
		return source + ref + `: ` + op + ` stopped before the run's time limit of ` + limit + ` \(--timeout; git operations end a little before it so that this error names them\): raise it with --timeout or KUDO_RENDER_TIMEOUT`
	}
	cases := map[string]hostileCase{
		"StallsAfterAdvertisement": {
			reason: "ls-remote of an unpinned branch is answered, the fetch that follows trickles: --git-timeout's default 25s would outlast the run's 5s --timeout, so the fetch stops at the run's deadline less its margin (4s), naming the repository, the fetch and --timeout, before the watchdog",
			setup:  stalledGit((*gittest.Server).StallFetches, false, 0, "--timeout", "5s"),
			stderr: byRun("main", `git fetch \(depth 1\)`, "5s"),
			within: 4700 * time.Millisecond,
		},
		"StallsOnLsRemote": {
			reason: "--verify-pins asks the stalled server for the ref of a pinned source twice (prefetch, then the load): the two ls-remotes share one 3s --git-timeout, so the second is left none and the run ends at 3s naming the repository, the ls-remote and --git-timeout, before the 5s watchdog",
			setup:  stalledGit((*gittest.Server).Stall, true, 0, "--verify-pins", "--git-timeout", "3s", "--timeout", "5s"),
			stderr: byGit("main", "git ls-remote"),
			within: 5 * time.Second,
		},
		"PrefetchOfPins": {
			reason: "a pinned framework and 6 lock pins prefetched 4 at a time from a server that stalls on packs, then the load: all the fetches share one 3s --git-timeout, so the later ones are left none and the run ends at 3s naming a pinned commit, the fetch and --git-timeout, long before the 9s watchdog",
			setup:  stalledGit((*gittest.Server).StallFetches, true, 6, "--git-timeout", "3s", "--timeout", "9s"),
			stderr: byGit(`[0-9a-f]{40}`, `git fetch \(depth 1\)`),
			within: 5 * time.Second,
		},
	}
	for name, c := range cases {
		c.class = "time bounds"
		cases[name] = c
	}
	runCases(t, cases)
}

// TestImportWriteBounds: import writes 20,000 files. Their fsyncs ran
// outside the watchdog (30 s on this disk, one after the other), and
// SIGTERM while they ran left the half-built .out.kudo-render-* folder
// behind. Now the watchdog bounds the whole write (either the import
// ends in time or it is given up on, nothing written), and a signal
// removes what was built; --output-dir stays as it was.
func TestImportWriteBounds(t *testing.T) {
	setup := func(t *testing.T) (string, []string) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"kudo-export.yaml": manyInstances(10000), "out/keep/mine.txt": "not kudo-render's"})
		return dir, []string{"import", "--from", filepath.Join(dir, "kudo-export.yaml"), "--output-dir", filepath.Join(dir, "out")}
	}
	t.Run("Watchdog", func(t *testing.T) {
		dir, args := setup(t)
		before := snapshot(t, filepath.Join(dir, "out"))
		r := runCase(t, dir, "", append(args, "--timeout", "5s"), nil, nil)
		t.Logf("exit %d, peak RSS %d MiB, %s", r.code, r.rss>>20, r.took.Round(time.Millisecond))
		if r.took > 9*time.Second {
			t.Errorf("the import took %s with --timeout 5s", r.took.Round(time.Millisecond))
		}
		if left := stagingFolders(t, dir); len(left) > 0 {
			t.Errorf("folders left behind: %v", left)
		}
		switch {
		case r.code == 1 && strings.Contains(r.stderr, "gave up after 5s (--timeout)"):
			if after := snapshot(t, filepath.Join(dir, "out")); len(after) != len(before) {
				t.Errorf("--output-dir changed although the import was given up on: %d entries, %d before", len(after), len(before))
			}
		case r.code == 0:
			if _, err := os.Stat(filepath.Join(dir, "out", "ns", "app9999", "kudo-render.yaml")); err != nil {
				t.Errorf("the import succeeded, but its output is incomplete: %v", err)
			}
		default:
			t.Errorf("exit %d: %s", r.code, head(r.stderr))
		}
	})
	t.Run("SIGTERM", func(t *testing.T) {
		dir, args := setup(t)
		before := snapshot(t, filepath.Join(dir, "out"))
		c := exec.Command(binary, append(args, "--timeout", "0")...)
		c.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
		var stderr strings.Builder
		c.Stderr = &stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for len(stagingFolders(t, dir)) == 0 && time.Now().Before(deadline) { // the tree is being built
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		c.Process.Signal(syscall.SIGTERM)
		err := c.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
			t.Errorf("the process ended with %v, want SIGTERM; stderr:\n%s", err, stderr.String())
		}
		if left := stagingFolders(t, dir); len(left) > 0 {
			t.Errorf("folders left behind: %v", left)
		}
		if after := snapshot(t, filepath.Join(dir, "out")); len(after) != len(before) {
			t.Errorf("--output-dir changed: %d entries, %d before", len(after), len(before))
		}
	})
}
