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
		git, doing []string
		want       string
	}{
		{nil, nil, "gave up after 2s (--timeout); raise the limit with --timeout or KUDO_RENDER_TIMEOUT (0: never)"},
		{nil, []string{"executing templates/cm.yaml"}, "gave up after 2s (--timeout) while executing templates/cm.yaml; raise"},
		{nil, []string{"a", "b", "c", "d", "e", "f"}, "gave up after 2s (--timeout) while a (also under way: b; c; d; 2 more); raise"},
		{[]string{"git fetch of https://x/r.git (depth 1)"}, []string{"loading the package at https://x/r.git"},
			"gave up after 2s (--timeout): a git fetch of https://x/r.git (depth 1) was running (also under way: loading the package at https://x/r.git); raise"},
	}
	for _, tc := range cases {
		if got := gaveUp(2*time.Second, tc.git, tc.doing); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v %v: got %q, want %q...", tc.git, tc.doing, got, tc.want)
		}
	}
}
