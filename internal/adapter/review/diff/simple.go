package diff

import (
	"reflect"
	"sort"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// maxDyffItems is the longest list Dyff compares with dyff, whose list
// comparison grows with the square of the items (10,000 items: 1.9 s,
// 40,000: 30 s).
// Objects with a longer list are compared by Simple.
const maxDyffItems = 1000

// Simple is a Differ in linear time: maps key by key, lists of the same
// length entry by entry, lists of different lengths whole.
type Simple struct{}

// Changes implements Differ.
func (Simple) Changes(from, to *object.Object) ([]Change, error) {
	var out []Change
	walk(nil, from.Map, to.Map, &out)
	return out, nil
}

func walk(p Path, a, b any, out *[]Change) {
	if reflect.DeepEqual(a, b) {
		return
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			q := append(append(Path{}, p...), Elem{Key: k})
			av, ina := am[k]
			bv, inb := bm[k]
			switch {
			case !ina:
				*out = append(*out, valueChange(q, OpAdded, nil, bv)...)
			case !inb:
				*out = append(*out, valueChange(q, OpRemoved, av, nil)...)
			default:
				walk(q, av, bv, out)
			}
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			walk(append(append(Path{}, p...), Elem{Index: i}), al[i], bl[i], out)
		}
		return
	}
	*out = append(*out, valueChange(p, OpChanged, a, b)...)
}

// valueChange is one change of a value; maps added or removed whole are
// given key by key.
func valueChange(p Path, op Op, a, b any) []Change {
	if m, ok := b.(map[string]any); ok && op == OpAdded {
		var out []Change
		walk(p, map[string]any{}, m, &out)
		return out
	}
	if m, ok := a.(map[string]any); ok && op == OpRemoved {
		var out []Change
		walk(p, m, map[string]any{}, &out)
		return out
	}
	c := Change{Path: p, Op: op, From: yamlText(a), To: yamlText(b)}
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok || aok && b == nil || bok && a == nil {
		c.From, c.To, c.Text = as, bs, true
	}
	return []Change{c}
}

func yamlText(v any) string {
	if v == nil {
		return ""
	}
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	s := string(data)
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = s[:n-1]
	}
	return s
}

// longestList is the length of the longest list in v.
func longestList(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n = max(n, longestList(e))
		}
	case []any:
		n = len(x)
		for _, e := range x {
			n = max(n, longestList(e))
		}
	}
	return n
}
