package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary act as kudo-render when asked to, so the
// tests below check the real process: exit status and streams.
func TestMain(m *testing.M) {
	if os.Getenv("KUDO_RENDER_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func kudoRender(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "KUDO_RENDER_AS_MAIN=1")
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
		c := exec.Command(os.Args[0], "version")
		c.Env = append(os.Environ(), "KUDO_RENDER_AS_MAIN=1")
		if out, err := c.Output(); err != nil || len(out) == 0 {
			b.Fatalf("%v %q", err, out)
		}
	}
}
