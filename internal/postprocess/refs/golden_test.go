package refs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestGolden runs every refs/testdata/<case>/: input.yaml is a YAML stream
// of objects, lookup.yaml (optional) the lookup objects. An input with a
// Composable goes through ExpandComposables, any other through Resolve. A
// case named err-* must fail with expected.err; any other must give
// expected.yaml. Warnings, if any, are in expected.warn.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases")
	}
	for _, dir := range dirs {
		if filepath.Base(dir) == "fuzz" { // a fuzz corpus, not a case
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			lookupText, err := os.ReadFile(filepath.Join(dir, "lookup.yaml"))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			objs, lookup := decodeStream(t, string(input)), decodeStream(t, string(lookupText))
			var warnings []string
			opts := Options{Warn: func(m string) { warnings = append(warnings, m) }}
			composable := false
			for _, o := range objs {
				composable = composable || o.Kind() == ComposableKind
			}
			out := objs
			if composable {
				out, err = ExpandComposables(objs, lookup, opts)
			} else {
				err = Resolve(objs, lookup, opts)
			}
			files := map[string]string{}
			if strings.HasPrefix(filepath.Base(dir), "err-") {
				if err == nil {
					t.Fatalf("resolution succeeded, want an error")
				}
				files["expected.err"] = err.Error() + "\n"
			} else {
				if err != nil {
					t.Fatalf("resolution failed: %v", err)
				}
				b, err := object.Stream(out)
				if err != nil {
					t.Fatal(err)
				}
				files["expected.yaml"] = string(b)
			}
			if len(warnings) > 0 {
				files["expected.warn"] = strings.Join(warnings, "\n") + "\n"
			} else if _, err := os.Stat(filepath.Join(dir, "expected.warn")); err == nil {
				files["expected.warn"] = ""
			}
			for name, got := range files {
				// expected.warn exists only when there are warnings.
				if file := filepath.Join(dir, name); got == "" && name == "expected.warn" && golden.FlagUpdate() {
					if err := os.Remove(file); err != nil {
						t.Fatal(err)
					}
					continue
				}
				golden.Assert(t, got, filepath.Join(filepath.Base(dir), name))
			}
		})
	}
}
