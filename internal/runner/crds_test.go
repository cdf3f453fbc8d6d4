package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: not-a-crd}
`

func TestCRDs(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "app")
	for name, content := range map[string]string{
		"app/crds/a/widgets.yaml": crdYAML,
		"app/crds/readme.md":      "not YAML: skipped",
		"app/one.yml":             crdYAML,
		"outside.yaml":            crdYAML,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "outside.yaml"), filepath.Join(pkg, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	// A named pipe called *.yaml would block the reader until a writer
	// came; a sparse file is large before a byte is read.
	if err := os.MkdirAll(filepath.Join(pkg, "special"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := syscall.Mkfifo(filepath.Join(pkg, "special", "pipe.yaml"), 0o644) == nil
	sparse, err := os.Create(filepath.Join(pkg, "sparse.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sparse.Truncate(4 << 30)
	sparse.Close()
	cases := []struct {
		reason string
		crds   string
		krm    bool
		want   int
		err    string
	}{
		{reason: "a folder, read below", crds: "[crds]", want: 1},
		{reason: "a file of any name", crds: "[one.yml, crds]", want: 2},
		{reason: "a KRM function stays in its folder", crds: "[../outside.yaml]", krm: true, err: "outside"},
		{reason: "symbolic links too", crds: "[link.yaml]", krm: true, err: "outside"},
		{reason: "the CLI may read beside its config", crds: "[../outside.yaml]", want: 1},
		{reason: "a missing path is an error naming the field", crds: "[nope]", err: "spec.crds[0]"},
		{reason: "a named pipe in a folder is refused, never opened", crds: "[crds, special]", err: "spec.crds[1]: special/pipe.yaml: is a named pipe (FIFO): only regular files are read"},
		{reason: "a named pipe named itself", crds: "[special/pipe.yaml]", err: "spec.crds[0]: special/pipe.yaml: is a named pipe (FIFO)"},
		{reason: "a file larger than --max-file-bytes is refused before it is read", crds: "[sparse.yaml]", err: "spec.crds[0]: sparse.yaml: file size exceeds the limit of"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			if strings.Contains(c.crds, "special") && !fifo {
				t.Skip("no named pipes here")
			}
			src := "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: a}\nspec:\n  framework: {path: .}\n  crds: " + c.crds + "\n"
			parse := config.Parse
			if c.krm {
				parse = config.ParseKRM
			}
			cfg, err := parse("render.yaml", pkg, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []*object.Object
			done := make(chan struct{})
			go func() { got, err = runner.CRDs(cfg); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("reading spec.crds blocked")
			}
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want an error with %q", err, c.err)
			case c.err == "" && err != nil:
				t.Fatal(err)
			case len(got) != c.want:
				t.Fatalf("got %d definitions, want %d", len(got), c.want)
			}
		})
	}
}
