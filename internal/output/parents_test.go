package output_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/internal/output"
)

// TestWriteDirMakesParents: -o a/b/c writes where the user pointed, making
// the missing folders on the way, as mkdir -p does.
func TestWriteDirMakesParents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", "c")
	if err := output.WriteDir(dir, map[string][]byte{"x.yaml": []byte("kind: X\n")}); err != nil {
		t.Fatalf("WriteDir into missing parents: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "x.yaml")); err != nil || string(data) != "kind: X\n" {
		t.Errorf("x.yaml: %q, %v", data, err)
	}
}
