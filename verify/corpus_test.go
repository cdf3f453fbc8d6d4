package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
)

// corpusDir is the folder of real KUDO operator packages: the
// kudo-operators folder of $KUDO_RENDER_CORPUS, else of ../shared/corpus
// relative to the repository root.
func corpusDir(t *testing.T) string {
	t.Helper()
	base := os.Getenv("KUDO_RENDER_CORPUS")
	if base == "" {
		base = filepath.Join("..", "..", "shared", "corpus")
	}
	dir := filepath.Join(base, "kudo-operators")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not found at %s (set KUDO_RENDER_CORPUS to the corpus folder): %v", dir, err)
	}
	return dir
}

// TestCorpus: the corpus packages are known-good KUDO packages, so verify
// must find no error in any of them. Warnings are logged.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		pkg := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(pkg, "operator.yaml")); !e.IsDir() || err != nil {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			b, err := bundle.LoadDir(pkg)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			fs := Bundle(b)
			warnings := 0
			for _, f := range fs {
				if f.Severity == Error {
					t.Errorf("%s", f)
				} else {
					warnings++
					t.Logf("%s", f)
				}
			}
			t.Logf("%d warnings", warnings)
		})
	}
	if n == 0 {
		t.Fatalf("no operator packages in %s", dir)
	}
}
