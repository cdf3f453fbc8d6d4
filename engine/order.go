package engine

import (
	"cmp"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/kudo-render/kudo-render/object"
)

// Sort orders items by wave, then by group, version and kind in
// kustomize's legacy order (kind first), then namespace and name. The sort
// is stable.
func Sort(items []Item) {
	// The keys are worked out once per item, and the items moved once:
	// comparing items by value copied them and parsed their apiVersion
	// on every comparison.
	type key struct {
		wave     int
		gvk      resid.Gvk
		ns, name string
		index    int
	}
	keys := make([]key, len(items))
	for i, it := range items {
		keys[i] = key{it.Wave, gvk(it.Obj), it.Obj.Namespace(), it.Obj.Name(), i}
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		if c := cmp.Compare(a.wave, b.wave); c != 0 {
			return c
		}
		if !a.gvk.Equals(b.gvk) {
			if a.gvk.IsLessThan(b.gvk) {
				return -1
			}
			if b.gvk.IsLessThan(a.gvk) {
				return 1
			}
		}
		if c := cmp.Compare(a.ns, b.ns); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	sorted := make([]Item, len(items))
	for i, k := range keys {
		sorted[i] = items[k.index]
	}
	copy(items, sorted)
}

func gvk(o *object.Object) resid.Gvk {
	return resid.NewGvk(o.Group(), o.Version(), o.Kind())
}
