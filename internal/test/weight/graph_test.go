package main

import (
	"slices"
	"testing"

	"gotest.tools/v3/assert"
)

// main imports a and b; both import shared; only a imports onlyA, which
// imports deep. Leaving a out drops a, onlyA and deep, not shared.
func testGraph() *graph {
	return &graph{root: "main", imports: map[string][]string{
		"main":   {"a", "b"},
		"a":      {"shared", "onlyA"},
		"b":      {"shared"},
		"shared": nil,
		"onlyA":  {"deep"},
		"deep":   nil,
	}}
}

func TestDominated(t *testing.T) {
	g := testGraph()
	sub := dominated(g.dominators())
	for _, c := range []struct {
		reason, pkg string
		want        []string
	}{
		{"a package and what only it imports", "a", []string{"a", "deep", "onlyA"}},
		{"a package imported through two chains is nobody's but main's", "b", []string{"b"}},
		{"main dominates everything", "main", []string{"a", "b", "deep", "main", "onlyA", "shared"}},
	} {
		got := slices.Sorted(slices.Values(sub[c.pkg]))
		assert.DeepEqual(t, got, c.want)
	}
}

func TestReachWithout(t *testing.T) {
	g := testGraph()
	kept := g.reach(map[string]bool{"a": true})
	assert.Assert(t, kept["shared"] && kept["b"] && !kept["onlyA"] && !kept["deep"])
	kept = g.reach(map[string]bool{"a": true, "b": true})
	assert.Assert(t, !kept["shared"])
}

func TestChain(t *testing.T) {
	assert.DeepEqual(t, testGraph().chain("deep"), []string{"main", "a", "onlyA", "deep"})
}

func TestSymbolPackage(t *testing.T) {
	known := map[string][]string{"k8s.io/api/core/v1": nil, "github.com/a/b": nil}
	for sym, want := range map[string]string{
		"k8s.io/api/core/v1.(*Pod).DeepCopy":                  "k8s.io/api/core/v1",
		"type:*k8s.io/api/core/v1.Pod":                        "k8s.io/api/core/v1",
		"go:itab.*github.com/a/b.T,k8s.io/api/core/v1.Object": "github.com/a/b",
		"runtime.mallocgc":                                    "(runtime)",
		"unknown.org/x.F":                                     "(runtime)",
	} {
		assert.Equal(t, symbolPackage(sym, known), want, sym)
	}
}
