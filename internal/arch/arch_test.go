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
// core may never import them.
var adapters = []string{"argocd", "flux", "config", "fn", "cmd", "review", "review/diff", "review/graph", "internal/adopt"}

// notCore are packages that are neither core nor adapter.
var notCore = []string{"", "integration", "internal/arch", "internal/testcorpus", "internal/golden", "internal/hostile", "internal/benchinput", "internal/benchcompare", "internal/kudotest", "source/gittest", "hack/image"}

type pkg struct {
	ImportPath                string
	Dir                       string
	Deps                      []string
	GoFiles                   []string
	TestGoFiles, XTestGoFiles []string
}

func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "-deps=false", module+"/...")
	cmd.Dir = "../.."
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

func isAdapter(r string) bool { return slices.Contains(adapters, r) }

// TestCoreImportsNoAdapter fails when a core package imports an adapter,
// directly or through another package.
func TestCoreImportsNoAdapter(t *testing.T) {
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if isAdapter(r) || slices.Contains(notCore, r) {
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
		if slices.Contains(notCore, r) || r == "cmd" {
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
