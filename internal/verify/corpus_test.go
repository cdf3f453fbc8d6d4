package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestCorpus: the corpus packages are known-good KUDO packages, so verify
// must find no error in any of them. Warnings are logged.
func TestCorpus(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "kudo-operators")
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
