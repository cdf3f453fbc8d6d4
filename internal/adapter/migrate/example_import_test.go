package migrate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// exampleExport is the export of examples/migrate.
const exampleExport = "../../../examples/migrate/kudo-export.yaml"

// TestExampleExportIsCurrent: examples/migrate/kudo-export.yaml is what
// `kubectl kudo install zookeeper --instance zk -n data -p NODE_COUNT=5 -p
// MEMORY=2Gi -p CPUS=250m` leaves, exported (go test -update rewrites it
// from the corpus).
func TestExampleExportIsCurrent(t *testing.T) {
	ops := testcorpus.Operators(t)
	head := []byte("# kubectl get instances,operatorversions,operators -A -o yaml, after\n" +
		"# kubectl kudo install zookeeper --instance zk -n data -p NODE_COUNT=5 -p MEMORY=2Gi -p CPUS=250m\n" +
		"# (CPUS is given its default: the import leaves it out). Import it with\n" +
		"# kudo-render import --from examples/migrate/kudo-export.yaml --output-dir gitops/\n")
	got := append(head, kudotest.Export(t, ops["zookeeper"], "data", kudotest.Instance{Name: "zk", Params: map[string]string{"NODE_COUNT": "5", "MEMORY": "2Gi", "CPUS": "250m"}})...)
	file, _ := filepath.Abs(exampleExport) // outside testdata: by absolute path
	golden.Assert(t, string(got), file)
}

// TestExampleImport imports examples/migrate/kudo-export.yaml, compares
// the tree with testdata/golden/example/ and renders the result.
func TestExampleImport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gitops")
	stdout, stderr, err := run("import", "--from", exampleExport, "--output-dir", out, "--repo-url", "https://git.example.com/gitops.git", "--revision", "main")
	if err != nil || stdout != "" {
		t.Fatalf("import: %v, stdout %q\n%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "imported 1 instances") {
		t.Errorf("no summary on stderr: %q", stderr)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".kudo-render-files" {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, "testdata/golden/example", files)
	rendered, stderr, err := run("render", filepath.Join(out, "data", "zk", "kudo-render.yaml"))
	if err != nil || !strings.Contains(rendered, "kind: StatefulSet") || !strings.Contains(rendered, "replicas: 5") {
		t.Errorf("the imported instance does not render a 5-node StatefulSet: %v\n%s", err, stderr)
	}
}

// BenchmarkImportExample measures an import of the example, writing
// included.
func BenchmarkImportExample(b *testing.B) {
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		if _, _, err := run("import", "--from", exampleExport, "--output-dir", filepath.Join(dir, "out")); err != nil {
			b.Fatal(err)
		}
	}
}
