package cmd

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestSoftMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	debug.SetMemoryLimit(1 << 40)
	softMemoryLimit(func(string) string { return "2GiB" })
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT set: the limit changed to %d", got)
	}
	softMemoryLimit(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got != SoftMemoryLimit {
		t.Errorf("limit %d, want %d", got, SoftMemoryLimit)
	}
}

func TestGaveUp(t *testing.T) {
	cases := []struct {
		doing []string
		want  string
	}{
		{nil, "gave up after 2s; raise the limit with --timeout or KUDO_RENDER_TIMEOUT (0: never)"},
		{[]string{"fetching https://x/r.git"}, "gave up after 2s while fetching https://x/r.git; raise"},
		{[]string{"a", "b", "c", "d", "e", "f"}, "gave up after 2s while a (also under way: b; c; d; 2 more); raise"},
	}
	for _, tc := range cases {
		if got := gaveUp(2*time.Second, tc.doing); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: got %q, want %q...", tc.doing, got, tc.want)
		}
	}
}
