package validate

import (
	"slices"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Server-side apply stops reading a map at its first undeclared field,
// and walks maps in Go's map order: an object with two unknown fields (or
// one, and errors in the fields after it) gets a different error from run
// to run, from the API server as from structured-merge-diff here. The
// verdict (refused) is the same every time; the words must be too, so
// the applied object is read through inOrder, whose maps are walked in
// key order: the server's answer for one of its orders, always the same.

// inOrder is v with its maps walked in key order, at every depth.
type inOrder struct{ value.Value }

func (v inOrder) AsMap() value.Map                       { return orderedMap{v.Value.AsMap()} }
func (v inOrder) AsMapUsing(a value.Allocator) value.Map { return orderedMap{v.Value.AsMapUsing(a)} }
func (v inOrder) AsList() value.List                     { return orderedList{v.Value.AsList()} }
func (v inOrder) AsListUsing(a value.Allocator) value.List {
	return orderedList{v.Value.AsListUsing(a)}
}

// orderedMap walks its keys sorted; its values are inOrder.
type orderedMap struct{ value.Map }

func (m orderedMap) Get(key string) (value.Value, bool) {
	return m.GetUsing(value.HeapAllocator, key)
}

func (m orderedMap) GetUsing(a value.Allocator, key string) (value.Value, bool) {
	v, ok := m.Map.GetUsing(a, key)
	if !ok {
		return nil, false
	}
	return inOrder{v}, true
}

func (m orderedMap) Iterate(fn func(string, value.Value) bool) bool {
	return m.IterateUsing(value.HeapAllocator, fn)
}

func (m orderedMap) IterateUsing(_ value.Allocator, fn func(string, value.Value) bool) bool {
	keys := make([]string, 0, m.Length())
	m.Map.Iterate(func(k string, _ value.Value) bool {
		keys = append(keys, k)
		return true
	})
	slices.Sort(keys)
	for _, k := range keys {
		v, _ := m.Map.Get(k)
		if !fn(k, inOrder{v}) {
			return false
		}
	}
	return true
}

// orderedList is a list whose items are inOrder.
type orderedList struct{ value.List }

func (l orderedList) At(i int) value.Value { return inOrder{l.List.At(i)} }
func (l orderedList) AtUsing(a value.Allocator, i int) value.Value {
	return inOrder{l.List.AtUsing(a, i)}
}
func (l orderedList) Range() value.ListRange { return orderedRange{l.List.Range()} }
func (l orderedList) RangeUsing(a value.Allocator) value.ListRange {
	return orderedRange{l.List.RangeUsing(a)}
}

type orderedRange struct{ value.ListRange }

func (r orderedRange) Item() (int, value.Value) {
	i, v := r.ListRange.Item()
	return i, inOrder{v}
}
