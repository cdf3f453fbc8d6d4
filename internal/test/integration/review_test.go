package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mermaid is a folder holding node_modules/mermaid and jsdom
// (KUDO_RENDER_MERMAID; .ci/run installs them with npm).
func mermaid(t *testing.T) (node, dir string) {
	t.Helper()
	dir = os.Getenv("KUDO_RENDER_MERMAID")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("set KUDO_RENDER_MERMAID to a folder with `npm install mermaid@11 jsdom@24` and install node to check Mermaid output with Mermaid's own parser (.ci/run does)")
	}
	script, err := os.ReadFile("testdata/mermaid-parse.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kudo-render-parse.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	return node, dir
}

// TestMermaidParses: Mermaid's own parser accepts every graph the
// examples give, and the collapsed drawing of a large render.
func TestMermaidParses(t *testing.T) {
	node, dir := mermaid(t)
	files, _ := filepath.Glob("../../../cmd/testdata/review/graph/*.mmd")
	if len(files) == 0 {
		t.Fatal("no golden graphs")
	}
	big := filepath.Join(t.TempDir(), "big.mmd")
	out, errs, err := run(t, "../../..", nil, binary, "graph", bigPackage(t))
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(out, "Collapsed to") {
		t.Errorf("a large render is not collapsed:\n%.500s", out)
	}
	if err := os.WriteFile(big, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := make([]string, 0, len(files)+1)
	for _, f := range append(files, big) {
		a, _ := filepath.Abs(f)
		abs = append(abs, a)
	}
	got, errs, err := run(t, dir, nil, node, append([]string{"kudo-render-parse.mjs"}, abs...)...)
	if err != nil {
		t.Fatalf("mermaid rejects a graph: %v\n%s\n%s", err, got, errs)
	}
}

// bigPackage is a framework whose one template renders 2,000 ConfigMaps.
func bigPackage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"framework.yaml":     "name: big\nversion: \"1\"\ntasks:\n  all: {resources: [cms.yaml]}\nplans:\n  deploy:\n    steps:\n      - {name: all, tasks: [all]}\n",
		"params.yaml":        "{}\n",
		"templates/cms.yaml": "{{ range $i := until 2000 }}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"cm-{{ $i }}\"}\n{{ end }}",
		"render.yaml":        fmt.Sprintf("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: big, namespace: ns}\nspec:\n  framework: {path: .}\n"),
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "render.yaml")
}
