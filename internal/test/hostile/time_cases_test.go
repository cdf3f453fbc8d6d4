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
