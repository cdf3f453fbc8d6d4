package integration

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/inittrace"
)

// kudoRender runs the binary TestMain built as a whole process, from the
// repository's root (the examples' paths are relative to it): the tests
// below check what a process promises, its exit status and its streams.
func kudoRender(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c := exec.Command(binary, args...)
	c.Dir = filepath.Join("..", "..", "..")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestProcessSuccess(t *testing.T) {
	out, errs, code := kudoRender(t, "render", "examples/mysql/render.yaml")
	if code != 0 || errs != "" || !strings.Contains(out, "kind: Deployment") {
		t.Fatalf("code=%d stderr=%q", code, errs)
	}
}

// TestProcessErrorNothingOnStdout: Argo CD prunes on empty output, so an
// error must exit non-zero with nothing on stdout and the message on stderr.
func TestProcessErrorNothingOnStdout(t *testing.T) {
	out, errs, code := kudoRender(t, "render", "examples/toggle/render.yaml", "-p", "METRICS_ENABLED=maybe")
	if code != 1 {
		t.Errorf("exit code = %d, want 1", code)
	}
	if out != "" {
		t.Errorf("stdout = %q, want empty", out)
	}
	if !strings.Contains(errs, "METRICS_ENABLED") {
		t.Errorf("stderr %q does not name the parameter", errs)
	}
}

func TestProcessOutputDir(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := kudoRender(t, "render", "examples/toggle/render.yaml", "--output-dir", dir)
	if code != 0 || out != "" {
		t.Fatalf("code=%d stdout=%q stderr=%q", code, out, errs)
	}
	for _, f := range []string{"deployment_blog-web.yaml", "service_blog-web.yaml", "servicemonitor_blog-metrics.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// A failing render writes nothing.
	empty := filepath.Join(t.TempDir(), "out")
	if _, _, code := kudoRender(t, "render", "examples/toggle/render.yaml", "-p", "REPLICAS=x", "--output-dir", empty); code != 1 {
		t.Errorf("code = %d", code)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("output folder created on error: %v", err)
	}
}

// TestProcessTimeout: a template that loops is stopped by the watchdog:
// exit 1 and nothing on stdout.
func TestProcessTimeout(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "framework.yaml"), []byte("name: spin\nversion: \"1\"\ntasks:\n  t: {resources: [loop.yaml]}\nplans:\n  deploy:\n    steps: [{name: s, tasks: [t]}]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "templates", "loop.yaml"), []byte("{{ range 2000000000 }}{{ end }}"), 0o644)
	out, errs, code := kudoRender(t, "render", dir, "--name", "x", "--timeout", "300ms")
	if code != 1 || out != "" || !strings.Contains(errs, "gave up after 300ms") {
		t.Errorf("code=%d stdout=%q stderr=%q", code, out, errs)
	}
}

// TestProcessDiffExitStatus: diff exits 0 without changes, 1 with
// changes, 2 on an error (nothing on stdout), like diff(1), and 3 with
// an update the API server refuses (the report on stdout).
func TestProcessDiffExitStatus(t *testing.T) {
	v1, v2 := "examples/review/v1/render.yaml", "examples/review/v2/render.yaml"
	day2 := "examples/day2/render.yaml"
	cases := []struct {
		args []string
		code int
	}{
		{[]string{"diff", v2, v2}, 0},
		{[]string{"diff", v1, v2}, 1},
		{[]string{"diff", v1, v2, "--exit-code=false"}, 0},
		{[]string{"diff", v1, "examples/review/missing.yaml"}, 2},
		{[]string{"diff", v1, v2, "--no-such-flag"}, 2},
		{[]string{"diff", v1, v2, "--max-file-bytes", "nonsense"}, 2},
		{[]string{"diff", day2, "--from-param", "DISK=1Gi", "--to-param", "DISK=2Gi"}, 3},
		{[]string{"diff", day2, "--from-param", "DISK=1Gi", "--to-param", "DISK=2Gi", "--exit-code=false"}, 3},
		{[]string{"diff", day2, "--from-param", "NODES=3", "--to-param", "NODES=4"}, 1},
	}
	for _, tc := range cases {
		out, errs, code := kudoRender(t, tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, errs)
		}
		if code == 2 && (out != "" || !strings.HasPrefix(errs, "error: ")) {
			t.Errorf("%v: stdout %q, stderr %q", tc.args, out, errs)
		}
		if (code == 1 || code == 3) && errs != "" {
			t.Errorf("%v: changes are not an error, stderr %q", tc.args, errs)
		}
		if code == 3 && !strings.Contains(out, "the API server will refuse this update") {
			t.Errorf("%v: the report does not say what is refused:\n%s", tc.args, out)
		}
	}
}

// BenchmarkStartup runs `kudo-render version` as a whole process
// (docs/performance.md, start-up row).
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		c := exec.Command(binary, "version")
		if out, err := c.Output(); err != nil || len(out) == 0 {
			b.Fatalf("%v %q", err, out)
		}
	}
}

// The start-up budget: what every kudo-render process pays before main,
// whatever the command (Go runs the initialiser of every linked package).
// Counted, not timed: the bytes and allocations of the initialisers
// (GODEBUG=inittrace=1, the same on every run and machine within a few
// percent) and the packages linked. A change that links more past a
// budget fails here; raise the budget only with the figures of
// docs/performance.md ("Start-up weight") re-measured, and say why in the
// commit. make weight shows which package costs what and what links it.
const (
	budgetInitBytes  = 9_000_000 // measured: 8.59 MB
	budgetInitAllocs = 82_000    // measured: 78,600
	budgetPackages   = 1_650     // measured: 1,588 (1,347 outside the standard library)
)

func TestStartupWeight(t *testing.T) {
	c := exec.Command(binary, "version")
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Run(); err != nil {
		t.Fatalf("version: %v\n%s", err, errb.String())
	}
	inits := inittrace.Parse(errb.Bytes())
	if len(inits) == 0 {
		t.Fatalf("no initialisers traced (GODEBUG=inittrace=1):\n%s", errb.String())
	}
	tot := inittrace.Total(inits)
	t.Logf("initialisers: %d packages, %.2f MB, %d allocations, %.1f ms clock", len(inits), float64(tot.Bytes)/1e6, tot.Allocs, tot.Ms)
	if tot.Bytes > budgetInitBytes || tot.Allocs > budgetInitAllocs {
		var b strings.Builder
		for _, i := range inittrace.Heaviest(inits, 15) {
			fmt.Fprintf(&b, "\n  %-70s %8d bytes %6d allocs", i.Package, i.Bytes, i.Allocs)
		}
		t.Errorf("package initialisers allocate %d bytes in %d allocations, over the start-up budget of %d bytes and %d allocations (make weight says what links each package); the heaviest:%s",
			tot.Bytes, tot.Allocs, budgetInitBytes, budgetInitAllocs, b.String())
	}
	list := exec.Command("go", "list", "-deps", ".")
	list.Dir = filepath.Join("..", "..", "..")
	out, err := list.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	if n := strings.Count(string(out), "\n"); n > budgetPackages {
		t.Errorf("kudo-render links %d packages, over the start-up budget of %d (make weight says what each one costs and what links it)", n, budgetPackages)
	}
}
