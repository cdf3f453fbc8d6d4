package differential

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A path leads from an object to one of its values: map keys (string)
// and list indexes (int).
type path []any

func (p path) String() string {
	var b strings.Builder
	for _, k := range p {
		switch k := k.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		case string:
			if strings.ContainsAny(k, "./[]") || k == "" {
				fmt.Fprintf(&b, "[%s]", k)
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		}
	}
	return b.String()
}

// is reports whether p is exactly the keys given.
func (p path) is(keys ...any) bool { return slices.Equal(p, path(keys)) }

// node is a value of an object and where it is.
type node struct {
	at path
	v  any
}

// walk lists every value below root, parents before their children, map
// keys sorted.
func walk(root map[string]any) []node {
	var out []node
	var visit func(p path, v any)
	visit = func(p path, v any) {
		if len(p) > 0 {
			out = append(out, node{at: slices.Clip(p), v: v})
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				visit(append(slices.Clip(p), k), v[k])
			}
		case []any:
			for i, x := range v {
				visit(append(slices.Clip(p), i), x)
			}
		}
	}
	visit(nil, root)
	return out
}

// deepCopy copies a decoded JSON or YAML value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// get is the value at p, and whether there is one.
func get(root any, p path) (any, bool) {
	cur := root
	for _, k := range p {
		switch c := cur.(type) {
		case map[string]any:
			k, ok := k.(string)
			if !ok {
				return nil, false
			}
			if cur, ok = c[k]; !ok {
				return nil, false
			}
		case []any:
			i, ok := k.(int)
			if !ok || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// with returns a copy of root where the value at p is v (deleted when
// del: a map key goes, a list item is removed).
func with(root map[string]any, p path, v any, del bool) map[string]any {
	out := deepCopy(root).(map[string]any)
	if len(p) == 0 {
		return out
	}
	parent, ok := get(out, p[:len(p)-1])
	if !ok {
		return out
	}
	switch c := parent.(type) {
	case map[string]any:
		k, _ := p[len(p)-1].(string)
		if del {
			delete(c, k)
		} else {
			c[k] = v
		}
	case []any:
		i, _ := p[len(p)-1].(int)
		if i < 0 || i >= len(c) {
			return out
		}
		if del {
			set(out, p[:len(p)-1], slices.Delete(c, i, i+1))
		} else {
			c[i] = v
		}
	}
	return out
}

// set sets the value at p of root in place (p must exist but for its
// last key).
func set(root map[string]any, p path, v any) {
	if len(p) == 0 {
		return
	}
	parent, _ := get(root, p[:len(p)-1])
	switch c := parent.(type) {
	case map[string]any:
		c[p[len(p)-1].(string)] = v
	case []any:
		c[p[len(p)-1].(int)] = v
	}
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
