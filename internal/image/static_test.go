package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestCheckStatic builds a tiny program the way make image builds
// kudo-render (CGO_ENABLED=0, -trimpath) and checks that CheckStatic
// takes it for its architecture only.
func TestCheckStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module tiny\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { println(\"tiny\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "tiny")
	// The go command that runs the tests: runtime.GOROOT is empty in a
	// test binary built with -trimpath (make test builds so).
	goBin := "go"
	if root := runtime.GOROOT(); root != "" {
		goBin = filepath.Join(root, "bin", "go")
	}
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64", "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := CheckStatic(bin, "arm64"); err != nil {
		t.Errorf("a static arm64 build: %v", err)
	}
	if err := CheckStatic(bin, "amd64"); err == nil {
		t.Error("an arm64 build taken for amd64")
	}
	o := fixture(t)
	o.Binaries = map[string]string{"arm64": bin}
	o.RequireStatic = true
	if _, err := Build(o); err != nil {
		t.Errorf("Build with a static binary: %v", err)
	}
}
