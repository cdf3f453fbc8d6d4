package golden_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/golden"
)

// fakeT records failures instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "expected.yaml")
	os.WriteFile(file, []byte("a: 1\n"), 0o644)
	cases := []struct {
		reason   string
		file     string
		got      string
		optional bool
		fail     bool
	}{
		{"equal content passes", file, "a: 1\n", false, false},
		{"different content fails", file, "a: 2\n", false, true},
		{"a missing file fails", filepath.Join(dir, "nope"), "x", false, true},
		{"a missing optional file with nothing to say passes", filepath.Join(dir, "nope"), "", true, false},
		{"a missing optional file with something to say fails", filepath.Join(dir, "nope"), "x", true, true},
	}
	for _, tc := range cases {
		ft := &fakeT{TB: t}
		golden.Check(ft, tc.file, []byte(tc.got), tc.optional)
		if ft.failed != tc.fail {
			t.Errorf("%s: failed = %t", tc.reason, ft.failed)
		}
	}
}
