package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar overrides where the corpus is.
const EnvVar = "KUDO_RENDER_CORPUS"

// Dir returns the corpus folder (holding kudo-operators/ and
// kudo-reference/), or skips the test.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := Find()
	if err != nil {
		t.Skip(err)
	}
	return dir
}

// Find returns the corpus folder, or an error saying where it was looked
// for: for tests that go on without it.
func Find() (string, error) {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		root, err := repoRoot()
		if err != nil {
			return "", fmt.Errorf("corpus not found: %v (set %s to the corpus folder)", err, EnvVar)
		}
		dir = filepath.Join(root, "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "kudo-operators")); err != nil {
		return "", fmt.Errorf("corpus not found at %s (set %s to the corpus folder): %v", dir, EnvVar, err)
	}
	return dir, nil
}

// Operators lists the package folders of kudo-operators/.
func Operators(t testing.TB) map[string]string {
	t.Helper()
	base := filepath.Join(Dir(t), "kudo-operators")
	entries, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			out[e.Name()] = filepath.Join(base, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatalf("no packages in %s", base)
	}
	return out
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
