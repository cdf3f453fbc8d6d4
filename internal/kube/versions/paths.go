package versions

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// A path leads to a value inside plain values: string keys and int
// indexes.
type path []any

// String writes p as spec.containers[0].name.
func (p path) String() string {
	var b strings.Builder
	for _, e := range p {
		switch e := e.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(e) + "]")
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e)
		}
	}
	return b.String()
}

func (p path) with(e any) path { return append(slices.Clip(p), e) }

// difference is a place where two plain values differ; a value that is
// absent has ok false.
type difference struct {
	at     path
	a, b   any
	aOK    bool
	bOK    bool
	inList bool // at ends inside a list of different length
}

// differences lists where a and b differ: maps key by key, lists of the
// same length element by element, anything else as a whole.
func differences(a, b any, at path, out *[]difference) {
	am, aMap := a.(map[string]any)
	bm, bMap := b.(map[string]any)
	if aMap && bMap {
		for _, k := range unionKeys(am, bm) {
			av, aok := am[k]
			bv, bok := bm[k]
			if !aok || !bok {
				if aok || bok {
					*out = append(*out, difference{at: at.with(k), a: av, b: bv, aOK: aok, bOK: bok})
				}
				continue
			}
			differences(av, bv, at.with(k), out)
		}
		return
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if aList && bList && len(al) == len(bl) {
		for i := range al {
			differences(al[i], bl[i], at.with(i), out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, difference{at: at, a: a, b: b, aOK: true, bOK: true})
	}
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// get returns the value at p inside x.
func get(x any, p path) (any, bool) {
	for _, e := range p {
		switch e := e.(type) {
		case string:
			m, ok := x.(map[string]any)
			if !ok {
				return nil, false
			}
			if x, ok = m[e]; !ok {
				return nil, false
			}
		case int:
			l, ok := x.([]any)
			if !ok || e >= len(l) {
				return nil, false
			}
			x = l[e]
		}
	}
	return x, true
}

// set puts value at p inside m, creating maps on the way. It fails when
// the way goes through a list element that does not exist or through a
// value of another kind.
func set(m map[string]any, p path, value any) error {
	var cur any = m
	for i, e := range p {
		last := i == len(p)-1
		switch e := e.(type) {
		case string:
			mm, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("%s is not an object", p[:i])
			}
			if last {
				mm[e] = value
				return nil
			}
			next, ok := mm[e]
			if !ok || next == nil {
				if _, isIndex := p[i+1].(int); isIndex {
					return fmt.Errorf("%s is not a list", p[:i+1])
				}
				next = map[string]any{}
				mm[e] = next
			}
			cur = next
		case int:
			l, ok := cur.([]any)
			if !ok || e >= len(l) {
				return fmt.Errorf("%s has no element %d", p[:i], e)
			}
			if last {
				l[e] = value
				return nil
			}
			cur = l[e]
		}
	}
	return nil
}

// listPrefix returns the longest prefix of p that ends at a list, and
// whether there is one.
func listPrefix(p path) (path, bool) {
	for i := len(p) - 1; i >= 0; i-- {
		if _, ok := p[i].(int); ok {
			return p[:i], true
		}
	}
	return nil, false
}

// remove deletes the value at p inside m, and the maps on the way that it
// leaves empty, unless the input had them (had). It reports whether there
// was a value to delete; a list element is not deleted.
func remove(m map[string]any, p path, had map[string]any) bool {
	if len(p) == 0 {
		return false
	}
	parent, ok := get(m, p[:len(p)-1])
	pm, isMap := parent.(map[string]any)
	k, isKey := p[len(p)-1].(string)
	if !ok || !isMap || !isKey {
		return false
	}
	if _, ok := pm[k]; !ok {
		return false
	}
	delete(pm, k)
	if _, kept := get(had, p[:len(p)-1]); len(pm) == 0 && !kept {
		remove(m, p[:len(p)-1], had)
	}
	return true
}
