package arch_test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kudo-render/kudo-render"

// Adapters are the packages at the edge: they may import the core, the
// core may never import them. Everything under internal/adapter is one,
// and internal/runner, the wiring of a render the adapters share (it
// imports the decorations of the argocd and flux adapters).
var adapters = []string{"fn", "cmd", "internal/adapter", "internal/runner"}

// notCore are packages that are neither core nor adapter: the binary, test
// helpers and suites, and the image builder.
var notCore = []string{"", "internal/test", "internal/source/gitsource/gittest", "internal/source/oci/ocitest", "internal/image/build"}

type pkg struct {
	ImportPath                string
	Dir                       string
	Deps                      []string
	Imports                   []string
	GoFiles                   []string
	TestGoFiles, XTestGoFiles []string
}

func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "-deps=false", module+"/...")
	cmd.Dir = "../../.."
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("go list is not available: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func rel(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

// under reports whether the package r is one of roots or below one.
func under(r string, roots []string) bool {
	return slices.ContainsFunc(roots, func(root string) bool {
		return r == root || (root != "" && strings.HasPrefix(r, root+"/"))
	})
}

func isAdapter(r string) bool { return under(r, adapters) }

// TestCoreImportsNoAdapter fails when a core package imports an adapter,
// directly or through another package.
func TestCoreImportsNoAdapter(t *testing.T) {
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if isAdapter(r) || under(r, notCore) {
			continue
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, module+"/") && isAdapter(rel(d)) {
				t.Errorf("core package %s imports the adapter %s", r, rel(d))
			}
		}
	}
}

// TestPackagesHaveDocAndExample: every package says what it owns in a
// doc.go; every core package and adapter with exported entry points has a
// runnable Example.
func TestPackagesHaveDocAndExample(t *testing.T) {
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if r == "" {
			continue
		}
		if !slices.Contains(p.GoFiles, "doc.go") {
			t.Errorf("package %s has no doc.go", r)
		}
		if under(r, notCore) || r == "cmd" {
			continue
		}
		if !hasExample(t, p) {
			t.Errorf("package %s has no runnable Example (func Example... with // Output:)", r)
		}
	}
}

func hasExample(t *testing.T, p pkg) bool {
	for _, f := range append(append([]string{}, p.TestGoFiles...), p.XTestGoFiles...) {
		data, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if strings.Contains(s, "\nfunc Example") && strings.Contains(s, "// Output:") {
			return true
		}
	}
	return false
}
