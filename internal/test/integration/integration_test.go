package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kudo-render-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "kudo-render")
	build := exec.Command("go", "build", "-o", binary, "../../..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// tool finds a client on PATH or in GOPATH/bin; the test fails (not skips)
// in CI and under make test (KUDO_RENDER_REQUIRE_TOOLS=1), which install
// them with .ci/tools.sh.
func tool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if gp, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gp)), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" || os.Getenv("KUDO_RENDER_REQUIRE_TOOLS") == "1" {
		t.Fatalf("%s is not installed (make test and .ci/run install it with .ci/tools.sh)", name)
	}
	t.Skipf("%s is not installed", name)
	return ""
}

// copyDir copies a folder tree.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot reads every file below dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(data)
		}
		return nil
	})
	return out
}

func run(t *testing.T, dir string, env []string, name string, args ...string) (string, string, error) {
	t.Helper()
	c := exec.Command(name, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	return out.String(), errb.String(), err
}

// krmPackage copies examples/krm and points its exec paths at the binary.
func krmPackage(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "krm")
	copyDir(t, "../../../examples/krm", dir)
	for _, f := range []string{"Kptfile", "render.yaml"} {
		p := filepath.Join(dir, f)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("../../bin/kudo-render")) {
			t.Fatalf("%s no longer runs ../../bin/kudo-render: update this test", f)
		}
		os.WriteFile(p, bytes.ReplaceAll(data, []byte("../../bin/kudo-render"), []byte(binary)), 0o644)
	}
	return dir
}

// TestKptFnRender runs the example's Kptfile pipeline twice: the first run
// writes rendered/, the second changes nothing.
func TestKptFnRender(t *testing.T) {
	kpt := tool(t, "kpt")
	dir := krmPackage(t)
	if _, errs, err := run(t, dir, nil, kpt, "fn", "render", "--allow-exec"); err != nil {
		t.Fatalf("kpt fn render: %v\n%s", err, errs)
	}
	first := snapshot(t, dir)
	for _, f := range []string{"rendered/sessions/deployment_sessions.yaml", "rendered/sessions/service_sessions.yaml"} {
		if !strings.Contains(first[f], "kudorender.dev/owner: cache/web/sessions") {
			t.Errorf("%s missing or without owner marker:\n%s", f, first[f])
		}
	}
	if !strings.Contains(first["rendered/sessions/deployment_sessions.yaml"], "replicas: 2") {
		t.Error("parameter not applied")
	}
	if _, errs, err := run(t, dir, nil, kpt, "fn", "render", "--allow-exec"); err != nil {
		t.Fatalf("second kpt fn render: %v\n%s", err, errs)
	}
	second := snapshot(t, dir)
	if len(first) != len(second) {
		t.Errorf("second run changed the file list: %d -> %d files", len(first), len(second))
	}
	for f, c := range first {
		if second[f] != c {
			t.Errorf("second run changed %s", f)
		}
	}
}

// TestKptFnRenderError: a bad parameter fails the pipeline with the
// function's message.
func TestKptFnRenderError(t *testing.T) {
	kpt := tool(t, "kpt")
	dir := krmPackage(t)
	p := filepath.Join(dir, "render.yaml")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte(`replicas: "2"`), []byte(`replicas: "two"`), 1), 0o644)
	out, errs, err := run(t, dir, nil, kpt, "fn", "render", "--allow-exec")
	if err == nil {
		t.Fatal("kpt fn render succeeded with a bad parameter")
	}
	if !strings.Contains(out+errs, `"two" is not an integer`) {
		t.Errorf("kpt output does not carry the function's error:\n%s\n%s", out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "rendered")); !os.IsNotExist(err) {
		t.Error("rendered/ written although the function failed")
	}
}

// TestKustomizeExecGenerator builds examples/krm with kustomize, the
// function as an exec generator.
func TestKustomizeExecGenerator(t *testing.T) {
	kz := tool(t, "kustomize")
	dir := krmPackage(t)
	out, errs, err := run(t, dir, nil, kz, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if err != nil {
		t.Fatalf("kustomize build: %v\n%s", err, errs)
	}
	for _, want := range []string{"kind: Deployment", "name: sessions", "kind: Service", "replicas: 2", "kudo.dev/instance: sessions"} {
		if !strings.Contains(out, want) {
			t.Errorf("kustomize output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FrameworkRender") {
		t.Error("the generator config leaked into the output")
	}
	// Without --enable-exec kustomize does not run the function: nothing
	// is generated (docs/krm.md warns about it).
	out, _, _ = run(t, dir, nil, kz, "build", "--enable-alpha-plugins", ".")
	if strings.Contains(out, "kind: Deployment") {
		t.Error("kustomize ran the exec function without --enable-exec")
	}
}
