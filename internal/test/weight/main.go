package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const module = "github.com/kudo-render/kudo-render"

func main() {
	bin := flag.String("bin", "bin/kudo-render", "the built kudo-render binary (make build)")
	runs := flag.Int("runs", 9, "runs of the binary's version command; each package's medians are reported")
	top := flag.Int("top", 25, "rows of each table")
	without := flag.String("without", "", "comma-separated packages to leave out together: what would no longer be linked, and its cost")
	flag.Parse()
	if err := run(os.Stdout, *bin, *runs, *top, *without); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// report is what the tables are made of.
type report struct {
	g     *graph
	init  map[string]initCost
	size  map[string]int64
	sub   map[string][]string // packages only this one brings
	total cost
}

// cost is the sum over a set of packages.
type cost struct {
	pkgs   int
	ms     float64
	bytes  int64
	allocs int64
	size   int64
}

func (r *report) sum(pkgs []string) cost {
	c := cost{pkgs: len(pkgs)}
	for _, p := range pkgs {
		ic := r.init[p]
		c.ms += ic.ms
		c.bytes += ic.bytes
		c.allocs += ic.allocs
		c.size += r.size[p]
	}
	return c
}

func run(w io.Writer, bin string, runs, top int, without string) error {
	g, err := loadGraph(".", ".")
	if err != nil {
		return err
	}
	r := &report{g: g}
	if r.init, err = initCosts(bin, max(1, runs)); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "weight")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if r.size, err = symbolSizes(".", ".", tmp, g.imports); err != nil {
		return err
	}
	r.sub = dominated(g.dominators())
	all := slices.Sorted(func(yield func(string) bool) {
		for p := range g.imports {
			if !yield(p) {
				return
			}
		}
	})
	r.total = r.sum(all)
	st, err := os.Stat(bin)
	if err != nil {
		return err
	}
	nonStd := 0
	for _, p := range all {
		if !g.std[p] {
			nonStd++
		}
	}
	fmt.Fprintf(w, "# What each linked package costs every process (%s)\n\n", filepath.Base(bin))
	fmt.Fprintf(w, "- packages linked: %d (%d outside the standard library)\n", len(all), nonStd)
	fmt.Fprintf(w, "- binary: %.1f MB as built (%s); %.1f MB of symbols in an unstripped build\n", mb(st.Size()), bin, mb(r.total.size))
	fmt.Fprintf(w, "- initialisers, medians of %d runs of `version`: %.1f ms clock, %.2f MB, %d allocations\n\n", max(1, runs), r.total.ms, mb(r.total.bytes), r.total.allocs)
	r.heaviest(w, all, top)
	r.cuts(w, all, top)
	if without != "" {
		r.without(w, strings.Split(without, ","))
	}
	return nil
}

// heaviest lists the initialisers that allocate most, with the chain that
// links each.
func (r *report) heaviest(w io.Writer, all []string, top int) {
	ps := slices.Clone(all)
	slices.SortFunc(ps, func(a, b string) int {
		return cmp.Or(cmp.Compare(r.init[b].bytes, r.init[a].bytes), cmp.Compare(r.init[b].ms, r.init[a].ms), strings.Compare(a, b))
	})
	fmt.Fprintf(w, "## The heaviest initialisers\n\n| package | clock ms | KB | allocs | linked through |\n|---|---|---|---|---|\n")
	for _, p := range ps[:min(top, len(ps))] {
		ic := r.init[p]
		fmt.Fprintf(w, "| %s | %.2f | %.0f | %d | %s |\n", p, ic.ms, kb(ic.bytes), ic.allocs, r.through(p))
	}
	fmt.Fprintln(w)
}

// cuts lists, for the packages of this module and the packages they
// import directly, what only they bring into the binary.
func (r *report) cuts(w io.Writer, all []string, top int) {
	var ps []string
	for _, p := range all {
		if p == r.g.root {
			continue
		}
		if strings.HasPrefix(p, module+"/") || r.importedByModule(p) && !r.g.std[p] {
			ps = append(ps, p)
		}
	}
	cs := map[string]cost{}
	for _, p := range ps {
		cs[p] = r.sum(r.sub[p])
	}
	slices.SortFunc(ps, func(a, b string) int {
		return cmp.Or(cmp.Compare(cs[b].bytes, cs[a].bytes), cmp.Compare(cs[b].size, cs[a].size), strings.Compare(a, b))
	})
	fmt.Fprintf(w, "## What leaving one package out would save\n\n")
	fmt.Fprintf(w, "The packages of this module, and the packages they import directly, by what only they bring into the binary (their subtree of the dominator tree).\n\n")
	fmt.Fprintf(w, "| package | packages only it links | init ms | init KB | allocs | code MB |\n|---|---|---|---|---|---|\n")
	for _, p := range ps[:min(top, len(ps))] {
		c := cs[p]
		fmt.Fprintf(w, "| %s | %d | %.2f | %.0f | %d | %.1f |\n", short(p), c.pkgs, c.ms, kb(c.bytes), c.allocs, mb(c.size))
	}
	fmt.Fprintln(w)
}

// without reports what leaving all of cut out at once would save.
func (r *report) without(w io.Writer, cut []string) {
	set := map[string]bool{}
	for _, p := range cut {
		if p = strings.TrimSpace(p); p != "" {
			set[p] = true
		}
	}
	kept := r.g.reach(set)
	var gone []string
	for p := range r.g.imports {
		if !kept[p] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	c := r.sum(gone)
	fmt.Fprintf(w, "## Without %s\n\n", strings.Join(slices.Sorted(func(y func(string) bool) {
		for p := range set {
			if !y(p) {
				return
			}
		}
	}), ", "))
	fmt.Fprintf(w, "%d packages would no longer be linked: %.1f ms of initialisers (%.0f%%), %.2f MB (%.0f%%), %d allocations, %.1f MB of code (%.0f%%).\n\n",
		c.pkgs, c.ms, pct(c.ms, r.total.ms), mb(c.bytes), pct(float64(c.bytes), float64(r.total.bytes)), c.allocs, mb(c.size), pct(float64(c.size), float64(r.total.size)))
	slices.SortFunc(gone, func(a, b string) int { return cmp.Compare(r.init[b].bytes, r.init[a].bytes) })
	fmt.Fprintf(w, "| package | clock ms | KB |\n|---|---|---|\n")
	for _, p := range gone[:min(15, len(gone))] {
		fmt.Fprintf(w, "| %s | %.2f | %.0f |\n", p, r.init[p].ms, kb(r.init[p].bytes))
	}
	fmt.Fprintln(w)
}

func (r *report) importedByModule(p string) bool {
	for q, imps := range r.g.imports {
		if (q == r.g.root || strings.HasPrefix(q, module+"/")) && slices.Contains(imps, p) {
			return true
		}
	}
	return false
}

// through is the chain that links p, from the last package of this
// module on it.
func (r *report) through(p string) string {
	c := r.g.chain(p)
	last := 0
	for i, q := range c {
		if q == r.g.root || strings.HasPrefix(q, module+"/") {
			last = i
		}
	}
	c = c[last:]
	for i := range c {
		c[i] = short(c[i])
	}
	return strings.Join(c, " → ")
}

func short(p string) string {
	if p == module {
		return "main"
	}
	return strings.TrimPrefix(p, module+"/")
}

func mb(n int64) float64 { return float64(n) / 1e6 }
func kb(n int64) float64 { return float64(n) / 1e3 }

func pct(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * a / b
}
