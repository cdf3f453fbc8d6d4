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
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := cmp.Compare(a.Wave, b.Wave); c != 0 {
			return c
		}
		ga, gb := gvk(a.Obj), gvk(b.Obj)
		if !ga.Equals(gb) {
			if ga.IsLessThan(gb) {
				return -1
			}
			if gb.IsLessThan(ga) {
				return 1
			}
		}
		if c := cmp.Compare(a.Obj.Namespace(), b.Obj.Namespace()); c != 0 {
			return c
		}
		return cmp.Compare(a.Obj.Name(), b.Obj.Name())
	})
}

func gvk(o *object.Object) resid.Gvk {
	return resid.NewGvk(o.Group(), o.Version(), o.Kind())
}
