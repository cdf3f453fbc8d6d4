package graph

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// nest puts each instance's waves into its group and each dependency's
// group into its parent's, ordered by wave (a dependency by its first).
func (b *builder) nest() {
	type entry struct {
		wave int
		g    *Group
	}
	entries := map[string][]entry{}
	first := func(ig *instanceGroup) int {
		ws := sortedWaves(ig.waves)
		if len(ws) == 0 {
			return 0
		}
		return ws[0]
	}
	for _, name := range b.order {
		ig := b.instances[name]
		for _, w := range sortedWaves(ig.waves) {
			entries[name] = append(entries[name], entry{w, ig.waves[w]})
		}
		if p := b.instances[ig.parent]; ig.parent != "" && p != nil && p != ig {
			entries[ig.parent] = append(entries[ig.parent], entry{first(ig), ig.Group})
			continue
		}
		b.g.Groups = append(b.g.Groups, ig.Group)
	}
	for _, name := range b.order {
		es := entries[name]
		sort.SliceStable(es, func(i, j int) bool { return es[i].wave < es[j].wave })
		for _, e := range es {
			b.instances[name].Groups = append(b.instances[name].Groups, e.g)
		}
	}
}

// waveEdges link every wave group to the next, in wave order then
// instance order; waves of the same number are applied together.
func (b *builder) waveEdges() {
	type wave struct {
		n, inst int
		g       *Group
	}
	var all []wave
	for i, name := range b.order {
		for n, g := range b.instances[name].waves {
			all = append(all, wave{n, i, g})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n < all[j].n
		}
		return all[i].inst < all[j].inst
	})
	for i := 1; i < len(all); i++ {
		a, c := all[i-1], all[i]
		e := Edge{From: a.g.ID, To: c.g.ID, Order: true, Same: a.n == c.n}
		if !e.Same {
			e.Label = "then"
		}
		b.g.Edges = append(b.g.Edges, e)
	}
}

// refEdges add an edge per reference, from the node that reads to the
// node read; edges between the same nodes are merged.
func (b *builder) refEdges(refs []Ref) {
	type pair struct{ from, to string }
	labels := map[pair][]string{}
	var order []pair
	var ext *Group
	for _, r := range refs {
		from, ok := b.nodeOf[objectKey(r.From)]
		if !ok {
			continue
		}
		to, ok := b.nodeOf[objectKey(r.To)]
		if !ok {
			if ext == nil {
				ext = &Group{ID: b.next("x"), Label: "read, not rendered here"}
				b.g.Groups = append(b.g.Groups, ext)
			}
			var label string
			to, label = b.object(r.To)
			b.nodeOf[objectKey(r.To)] = to
			ext.Nodes = append(ext.Nodes, &Node{ID: to, Label: label, External: true})
		}
		if from == to {
			continue
		}
		p := pair{from, to}
		if _, seen := labels[p]; !seen {
			order = append(order, p)
		}
		labels[p] = append(labels[p], b.sec.Mask(visible.Escape(r.Field)))
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].from != order[j].from {
			return order[i].from < order[j].from
		}
		return order[i].to < order[j].to
	})
	for _, p := range order {
		b.g.Edges = append(b.g.Edges, Edge{From: p.from, To: p.to, Label: refLabel(labels[p])})
	}
}

// refLabel names the fields a reference edge stands for.
func refLabel(fields []string) string {
	sort.Strings(fields)
	if len(fields) > 2 {
		return fields[0] + ", +" + strconv.Itoa(len(fields)-1) + " more"
	}
	return strings.Join(fields, ", ")
}
