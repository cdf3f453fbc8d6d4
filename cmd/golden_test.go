package cmd

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"
)

// runStderr is run, for tests that read stderr.
func runStderr(args ...string) (stdout, stderr string, err error) { return run(args...) }

// run executes the CLI in-process.
func run(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	c := New(strings.NewReader(""), &out, &errb)
	if args == nil {
		args = []string{} // not nil: cobra would read the test binary's own flags (go test -update)
	}
	c.SetArgs(args)
	err = c.Execute()
	return out.String(), errb.String(), err
}

// TestGolden renders every testdata/golden/<case>/config.yaml. A case with
// expected.yaml must render exactly that; a case with expected.err must
// fail with exactly that message and print nothing on stdout.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/golden/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			stdout, _, err := run("render", filepath.Join(dir, "config.yaml"))
			wantErr := strings.HasPrefix(filepath.Base(dir), "err-")
			var got, file string
			if wantErr {
				file = filepath.Join("golden", filepath.Base(dir), "expected.err")
				if err == nil {
					t.Fatalf("render succeeded, want an error; stdout:\n%s", stdout)
				}
				if stdout != "" {
					t.Errorf("stdout must be empty on error, got %d bytes", len(stdout))
				}
				got = strings.ReplaceAll(err.Error(), dir, "$CASE") + "\n"
			} else {
				file = filepath.Join("golden", filepath.Base(dir), "expected.yaml")
				if err != nil {
					t.Fatalf("render: %v", err)
				}
				got = stdout
			}
			golden.Assert(t, got, file)
		})
	}
}

// TestRenderTwiceSameBytes: the same input gives the same bytes.
func TestRenderTwiceSameBytes(t *testing.T) {
	for _, cfg := range []string{"testdata/golden/kudo-tasks/config.yaml", "../examples/mysql/render.yaml", "../examples/toggle/render.yaml"} {
		a, _, err := run("render", cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := run("render", cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a != b || a == "" {
			t.Errorf("%s: two renders differ (or are empty)", cfg)
		}
	}
}
