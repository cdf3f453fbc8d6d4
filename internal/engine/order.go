package engine

import (
	"cmp"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Sort orders items by wave, then by group, version and kind in
// kustomize's legacy order (kind first), then namespace and name. The sort
// is stable.
func Sort(items []Item) {
	// The keys are worked out once per item (the kind order as a rank of
	// the few distinct kinds), and the items moved once; the index ends
	// every tie, which makes an unstable sort stable.
	type key struct {
		wave, rank int
		ns, name   string
		index      int
	}
	gvks := make([]resid.Gvk, len(items))
	byType := map[[2]string]resid.Gvk{} // NewGvk looks up the scope: once per kind
	for i, it := range items {
		t := [2]string{it.Obj.APIVersion(), it.Obj.Kind()}
		g, ok := byType[t]
		if !ok {
			g = gvk(it.Obj)
			byType[t] = g
		}
		gvks[i] = g
	}
	ranks := gvkRanks(gvks)
	keys := make([]key, len(items))
	for i, it := range items {
		keys[i] = key{it.Wave, ranks[gvks[i]], it.Obj.Namespace(), it.Obj.Name(), i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		// one comparison after another (cmp.Or would make them all)
		switch {
		case a.wave != b.wave:
			return cmp.Compare(a.wave, b.wave)
		case a.rank != b.rank:
			return cmp.Compare(a.rank, b.rank)
		case a.ns != b.ns:
			return strings.Compare(a.ns, b.ns)
		case a.name != b.name:
			return strings.Compare(a.name, b.name)
		}
		return cmp.Compare(a.index, b.index)
	})
	// Items are large: move each once, cycle by cycle, instead of through
	// a sorted copy of the whole slice.
	src := make([]int, len(keys)) // src[i]: the item that goes to i
	for i, k := range keys {
		src[i] = k.index
	}
	for i := range src {
		if src[i] < 0 || src[i] == i {
			continue
		}
		held, j := items[i], i
		for src[j] != i {
			items[j], src[j], j = items[src[j]], -1, src[j]
		}
		items[j], src[j] = held, -1
	}
}

// gvkRanks numbers the distinct kinds in kustomize's legacy order; kinds
// that order neither way (the same kind) share a number.
func gvkRanks(all []resid.Gvk) map[resid.Gvk]int {
	ranks := map[resid.Gvk]int{}
	var distinct []resid.Gvk
	for _, g := range all {
		if _, ok := ranks[g]; !ok {
			ranks[g] = 0
			distinct = append(distinct, g)
		}
	}
	order := func(a, b resid.Gvk) int {
		switch {
		case a.Equals(b):
			return 0
		case a.IsLessThan(b):
			return -1
		case b.IsLessThan(a):
			return 1
		}
		return 0
	}
	slices.SortFunc(distinct, order)
	for i, g := range distinct {
		ranks[g] = i
		if i > 0 && order(distinct[i-1], g) == 0 {
			ranks[g] = ranks[distinct[i-1]]
		}
	}
	return ranks
}

func gvk(o *object.Object) resid.Gvk {
	return resid.NewGvk(o.Group(), o.Version(), o.Kind())
}
