package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
)

// graph is the import graph of a main package: the packages it links and
// what each one imports (tests left out).
type graph struct {
	root    string
	imports map[string][]string
	std     map[string]bool
}

// loadGraph lists main's dependencies with go list, from dir.
func loadGraph(dir, pkg string) (*graph, error) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Standard", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w", pkg, err)
	}
	g := &graph{imports: map[string][]string{}, std: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Standard   bool
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		g.imports[p.ImportPath] = p.Imports
		g.std[p.ImportPath] = p.Standard
		g.root = p.ImportPath // go list -deps prints main last
	}
	return g, nil
}

// reach is the set of packages reachable from the root without passing
// through any package of cut.
func (g *graph) reach(cut map[string]bool) map[string]bool {
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		if seen[p] || cut[p] {
			return
		}
		seen[p] = true
		for _, q := range g.imports[p] {
			if _, ok := g.imports[q]; ok {
				walk(q)
			}
		}
	}
	walk(g.root)
	return seen
}

// chain is a shortest import chain from the root to p (breadth first, in
// sorted order so it is the same on every run).
func (g *graph) chain(p string) []string {
	prev := map[string]string{g.root: ""}
	queue := []string{g.root}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == p {
			var out []string
			for ; cur != ""; cur = prev[cur] {
				out = append(out, cur)
			}
			slices.Reverse(out)
			return out
		}
		for _, q := range slices.Sorted(slices.Values(g.imports[cur])) {
			if _, seen := prev[q]; !seen {
				if _, ok := g.imports[q]; ok {
					prev[q] = cur
					queue = append(queue, q)
				}
			}
		}
	}
	return nil
}

// dominators returns each package's immediate dominator: the package
// every import chain from the root to it passes through last (Cooper,
// Harvey and Kennedy's iterative algorithm over a reverse postorder).
func (g *graph) dominators() map[string]string {
	var order []string // postorder
	index := map[string]int{}
	var walk func(p string)
	seen := map[string]bool{}
	walk = func(p string) {
		seen[p] = true
		for _, q := range slices.Sorted(slices.Values(g.imports[p])) {
			if _, ok := g.imports[q]; ok && !seen[q] {
				walk(q)
			}
		}
		index[p] = len(order)
		order = append(order, p)
	}
	walk(g.root)
	preds := map[string][]string{}
	for p := range seen {
		for _, q := range g.imports[p] {
			if seen[q] {
				preds[q] = append(preds[q], p)
			}
		}
	}
	idom := map[string]string{g.root: g.root}
	intersect := func(a, b string) string {
		for a != b {
			for index[a] < index[b] {
				a = idom[a]
			}
			for index[b] < index[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			p := order[i]
			if p == g.root {
				continue
			}
			var d string
			for _, q := range preds[p] {
				if _, ok := idom[q]; !ok {
					continue
				}
				if d == "" {
					d = q
				} else {
					d = intersect(q, d)
				}
			}
			if idom[p] != d {
				idom[p] = d
				changed = true
			}
		}
	}
	return idom
}

// dominated is, for each package, the packages only it brings into the
// binary (itself included): its subtree in the dominator tree.
func dominated(idom map[string]string) map[string][]string {
	children := map[string][]string{}
	for p, d := range idom {
		if p != d {
			children[d] = append(children[d], p)
		}
	}
	out := map[string][]string{}
	var collect func(p string) []string
	collect = func(p string) []string {
		if s, ok := out[p]; ok {
			return s
		}
		s := []string{p}
		for _, c := range children[p] {
			s = append(s, collect(c)...)
		}
		out[p] = s
		return s
	}
	for p := range idom {
		collect(p)
	}
	return out
}
