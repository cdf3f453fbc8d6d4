package arch_test

import (
	"slices"
	"strings"
	"testing"
)

// floors is the floor plan of the module, lowest first: a package imports
// only packages of lower floors, so the data flows one way and there is no
// cycle. The helpers are at the bottom, then the package model and the
// API, the stages of the pipeline (source, params, render, plan,
// post-process), the engine that runs them, the adapters and the wiring
// they share (runner), and the binary. A new package gets its floor here:
// the lowest above everything it imports. Test suites and helpers
// (notCore) are off the plan.
var floors = [][]string{
	{"internal/activity", "internal/diag", "internal/image", "internal/lazy", "internal/par", "internal/suggest", "internal/visible",
		"internal/kube/apischeme", "internal/kube/kinds", "internal/kube/kubeversion", "internal/yaml/simpleyaml",
		"internal/source/cachedir", "internal/kube/jsonfields", "internal/startup"},
	{"internal/limits", "internal/yaml/object"},
	{"internal/yaml/strictyaml", "internal/redact", "internal/output", "internal/postprocess/enhance",
		"internal/kube", "internal/kube/validate", "internal/kube/versions"},
	{"bundle", "internal/render/tmpl", "internal/postprocess/refs"},
	{"internal/source/location", "internal/params", "internal/postprocess/digest"},
	{"config", "internal/source/gitsource", "internal/source/oci", "internal/extend", "internal/schema", "internal/render", "internal/plan"},
	{"internal/engine"},
	{"internal/verify", "internal/adapter/argocd", "internal/adapter/flux"},
	{"internal/runner", "internal/adapter/review/diff", "internal/adapter/review/graph", "internal/adapter/migrate"},
	{"fn", "internal/adapter/adopt"},
	{"cmd"},
	{""}, // main.go
}

// floorOf is the floor of each package of the plan.
func floorOf(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for i, f := range floors {
		for _, p := range f {
			if j, ok := out[p]; ok {
				t.Errorf("%q is on floors %d and %d of the plan", p, j, i)
			}
			out[p] = i
		}
	}
	return out
}

// TestFloorPlan fails when a package imports one of its own floor or a
// higher one, and when a package is not on the plan (or the plan names a
// package the module no longer has).
func TestFloorPlan(t *testing.T) {
	floor := floorOf(t)
	seen := map[string]bool{}
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if r != "" && under(r, notCore) {
			continue
		}
		seen[r] = true
		f, ok := floor[r]
		if !ok {
			t.Errorf("package %s is not on the floor plan: add it to floors in internal/test/arch, on the lowest floor above everything it imports", r)
			continue
		}
		for _, d := range p.Imports {
			if !strings.HasPrefix(d, module+"/") && d != module {
				continue
			}
			dr := rel(d)
			if df, ok := floor[dr]; ok && df >= f {
				t.Errorf("package %s (floor %d) imports %s (floor %d): a package imports only lower floors", r, f, dr, df)
			}
		}
	}
	for p := range floor {
		if !seen[p] {
			t.Errorf("the floor plan names %q, which the module does not hold: remove it", p)
		}
	}
	if !slices.Contains(floors[len(floors)-1], "") {
		t.Error("the binary (main.go) is the top floor")
	}
}
