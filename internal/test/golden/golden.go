package golden

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update is the -update flag: rewrite golden files instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files (then review every change in the diff)")

// Check compares got with the content of file. With -update it writes
// got to file instead (and removes the file when got is empty and
// optional is set). A missing file is an error unless got is empty and
// optional is set: optional golden files (warnings) exist only when
// there is something to say.
func Check(t testing.TB, file string, got []byte, optional bool) {
	t.Helper()
	if *Update {
		if optional && len(got) == 0 {
			if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) && optional && len(got) == 0 {
		return
	}
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it, then review it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", file, diff)
	}
}
