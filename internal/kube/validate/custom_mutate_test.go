package validate_test

import (
	"fmt"
	"strconv"
	"strings"
)

// mutation changes one value of a custom resource: at path (keys and
// list indices), set value, or delete it.
type mutation struct {
	what   string
	path   []any
	value  any
	delete bool
}

// pairWith is how many of the mutations after it each mutation is paired
// with in a sweep.
const pairWith = 8

// mutate returns the cases of def: each seed, each mutation of each seed
// and, with pairs, each mutation with each of the pairWith after it at
// once. Every case gets a name of its own unless it mutates the name.
func mutate(def *definition, pairs bool) []crCase {
	schema := servedSchema(def.crd)
	var cases []crCase
	for si, seed := range def.seeds {
		cases = append(cases, crCase{def: def, what: fmt.Sprintf("seed %d as written", si), obj: deepCopyJSON(seed).(map[string]any)})
		muts := append(metadataMutations(), schemaMutations(schema, seed, nil)...)
		for i, m := range muts {
			obj := deepCopyJSON(seed).(map[string]any)
			m.apply(obj)
			cases = append(cases, crCase{def: def, what: fmt.Sprintf("seed %d: %s", si, m.what), obj: obj})
			if !pairs {
				continue
			}
			for _, m2 := range muts[i+1 : min(len(muts), i+1+pairWith)] {
				obj := deepCopyJSON(seed).(map[string]any)
				m.apply(obj)
				m2.apply(obj)
				cases = append(cases, crCase{def: def, what: fmt.Sprintf("seed %d: %s, and %s", si, m.what, m2.what), obj: obj})
			}
		}
	}
	for i, c := range cases {
		if !strings.Contains(c.what, "metadata.name") {
			if md, ok := c.obj["metadata"].(map[string]any); ok {
				md["name"] = fmt.Sprintf("c%d", i)
			}
		}
	}
	return cases
}

// apply makes the mutation in obj; a path through a value that is not
// there (a mutation of a first mutation's value) changes nothing.
func (m mutation) apply(obj map[string]any) {
	var cur any = obj
	for i, step := range m.path {
		last := i == len(m.path)-1
		switch c := cur.(type) {
		case map[string]any:
			k, ok := step.(string)
			if !ok {
				return
			}
			if last {
				if m.delete {
					delete(c, k)
				} else {
					c[k] = deepCopyJSON(m.value)
				}
				return
			}
			cur = c[k]
		case []any:
			j, ok := step.(int)
			if !ok || j >= len(c) {
				return
			}
			if last {
				c[j] = deepCopyJSON(m.value)
				return
			}
			cur = c[j]
		default:
			return
		}
	}
}

// metadataMutations are the names, labels and annotations the API server
// refuses or accepts.
func metadataMutations() []mutation {
	md := func(what string, path []any, v any) mutation {
		return mutation{what: what, path: append([]any{"metadata"}, path...), value: v}
	}
	return []mutation{
		md("metadata.name with an underscore and capitals", []any{"name"}, "Not_Valid"),
		md("metadata.name with a dot (a DNS subdomain)", []any{"name"}, "a.b"),
		md("metadata.name of 253 characters", []any{"name"}, strings.Repeat("a", 253)),
		md("metadata.name of 254 characters", []any{"name"}, strings.Repeat("a", 254)),
		md("metadata.name starting with a dash", []any{"name"}, "-a"),
		md("metadata.name of 64 characters (no label, but a subdomain)", []any{"name"}, strings.Repeat("a", 64)),
		md("a label value of 63 characters", []any{"labels"}, map[string]any{"a": strings.Repeat("x", 63)}),
		md("a label value of 64 characters", []any{"labels"}, map[string]any{"a": strings.Repeat("x", 64)}),
		md("a label value with a space", []any{"labels"}, map[string]any{"a": "b c"}),
		md("a label key with two slashes", []any{"labels"}, map[string]any{"a/b/c": "x"}),
		md("a label value that is a number", []any{"labels"}, map[string]any{"a": int64(1)}),
		md("a null label value", []any{"labels"}, map[string]any{"a": nil}),
		md("an annotation key with a space", []any{"annotations"}, map[string]any{"a b": "x"}),
		md("annotations over 256 KiB", []any{"annotations"}, map[string]any{"a": strings.Repeat("x", 256*1024)}),
		md("an unknown metadata field", []any{"zzUnknown"}, "x"),
		md("a finalizer", []any{"finalizers"}, []any{"example.com/f"}),
		md("metadata.generation written", []any{"generation"}, int64(5)),
		md("metadata.uid written", []any{"uid"}, "x"),
		md("metadata.namespace another one (a cluster-scoped kind has none)", []any{"namespace"}, "agree-cr-other"),
		{what: "an unknown top-level field", path: []any{"zzUnknown"}, value: int64(1)},
	}
}

// schemaMutations are the mutations of value v (at path) that schema s
// (map form) tells apart: for v, then for what lies below it.
func schemaMutations(s map[string]any, v any, path []any) []mutation {
	if s == nil {
		return nil
	}
	var out []mutation
	at := func(what string, value any) {
		out = append(out, mutation{what: fieldName(path) + ": " + what, path: path, value: value})
	}
	if len(path) > 0 {
		out = append(out, mutation{what: fieldName(path) + ": deleted", path: path, delete: true})
		at("null", nil)
		for _, w := range wrongValues(s) {
			at(w.what, w.value)
		}
	}
	switch t := v.(type) {
	case map[string]any:
		out = append(out, objectMutations(s, t, path)...)
	case []any:
		out = append(out, listMutations(s, t, path)...)
	}
	return out
}

// objectMutations: an unknown field, every property absent from v given a
// value, and the mutations of every property v has.
func objectMutations(s map[string]any, v map[string]any, path []any) []mutation {
	out := []mutation{{what: fieldName(path) + ": an unknown field", path: append(clone(path), "zzUnknown"), value: "x"}}
	if len(path) == 0 {
		out = out[:0] // metadataMutations has it
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedMapKeys(props) {
		ps, _ := props[k].(map[string]any)
		if len(path) == 0 && (k == "metadata" || k == "apiVersion" || k == "kind") {
			continue
		}
		p := append(clone(path), k)
		if x, ok := v[k]; ok {
			out = append(out, schemaMutations(ps, x, p)...)
		} else {
			out = append(out, mutation{what: fieldName(p) + ": given", path: p, value: typical(ps, 0)})
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		for _, k := range sortedMapKeys(v) {
			out = append(out, schemaMutations(ap, v[k], append(clone(path), k))...)
		}
		out = append(out, mutation{what: fieldName(path) + ": a key added", path: append(clone(path), "k-added"), value: typical(ap, 0)})
	}
	return out
}

// listMutations: empty, its first item twice, over maxItems, and the
// mutations of its first item.
func listMutations(s map[string]any, v []any, path []any) []mutation {
	name := fieldName(path)
	out := []mutation{{what: name + ": empty", path: path, value: []any{}}}
	if len(v) > 0 {
		out = append(out, mutation{what: name + ": its first item twice", path: path, value: append([]any{v[0]}, v...)})
	}
	if n, ok := s["maxItems"].(int64); ok && len(v) > 0 {
		over := make([]any, n+1)
		for i := range over {
			over[i] = v[0]
		}
		out = append(out, mutation{what: name + ": over maxItems", path: path, value: over})
	}
	items, _ := s["items"].(map[string]any)
	if len(v) > 0 {
		out = append(out, schemaMutations(items, v[0], append(clone(path), 0))...)
	}
	return out
}

// fieldName writes a path as spec.ports[0].name.
func fieldName(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch t := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(t) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, t)
		}
	}
	if b.Len() == 0 {
		return "the object"
	}
	return b.String()
}

func clone(path []any) []any { return append([]any(nil), path...) }

// deepCopyJSON copies a JSON value.
func deepCopyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = deepCopyJSON(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = deepCopyJSON(x)
		}
		return out
	}
	return v
}
