package strictyaml

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// go-yaml compares every key of a mapping with every later key to find
// repeats, so decoding a mapping of n keys takes n²/2 comparisons (40,000
// keys: seconds of CPU). The decoders of this file check each mapping's
// keys against a set instead, in time linear in the node, and leave go-yaml
// only its scalars; they give the same values and errors as go-yaml's.
// They expand an alias as often as it is used: the caller has checked
// the node's aliases (CheckAliases).

// DecodeAny is (*yaml.Node).Decode into an `any` (maps, lists, scalars
// resolved by go-yaml, merge keys applied, the same errors) in linear
// time.
func DecodeAny(n *yaml.Node) (v any, err error) {
	d := &anyDecoder{active: map[*yaml.Node]bool{}}
	defer d.recover(&err)
	v, _ = d.value(n)
	if err := d.err(); err != nil {
		return v, err
	}
	return v, nil
}

// DecodeMap is (*yaml.Node).Decode of the mapping n into *m, a map from
// strings (keys, values, repeats and merge keys decode as go-yaml decodes
// them), in linear time: for a field of a decoded file that may hold many
// entries (a config's parameter values), through its UnmarshalYAML.
func DecodeMap[V any](n *yaml.Node, m *map[string]V) (err error) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return n.Decode(m) // go-yaml's own error, or its null
	}
	d := &anyDecoder{active: map[*yaml.Node]bool{}}
	defer d.recover(&err)
	entries := d.entries(n, true)
	out := make(map[string]V, len(entries))
	for _, e := range entries {
		var v V
		if err := e.value.Decode(&v); err != nil {
			d.fail(err)
			continue
		}
		out[e.key.(string)] = v
	}
	*m = out
	return d.err()
}

// anyDecoder walks nodes as go-yaml's decoder does for an `any` target.
type anyDecoder struct {
	errs   []string
	active map[*yaml.Node]bool // aliases being expanded
}

// fatalYAML is an error that ends decoding at once, as go-yaml's failf
// does (its message has the same "yaml: " prefix).
type fatalYAML struct{ err error }

func fatalf(format string, args ...any) {
	panic(fatalYAML{fmt.Errorf("yaml: "+format, args...)})
}

// recover turns a fatalYAML panic into *err.
func (d *anyDecoder) recover(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(fatalYAML)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}

// err is the type errors found, as go-yaml gives them.
func (d *anyDecoder) err() error {
	if len(d.errs) > 0 {
		return &yaml.TypeError{Errors: d.errs}
	}
	return nil
}

func (d *anyDecoder) fail(err error) {
	if te, ok := err.(*yaml.TypeError); ok {
		d.errs = append(d.errs, te.Errors...)
		return
	}
	panic(fatalYAML{err})
}

// value decodes n; ok is false when n gave no value (go-yaml then leaves
// a list element out and a map entry unset).
func (d *anyDecoder) value(n *yaml.Node) (v any, ok bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, false
		}
		v, _ = d.value(n.Content[0])
		return v, true
	case yaml.AliasNode:
		d.enter(n)
		defer delete(d.active, n)
		return d.value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			if e, ok := d.value(c); ok {
				out = append(out, e)
			}
		}
		return out, true
	case yaml.MappingNode:
		return d.mapping(n), true
	}
	// A scalar (or a node of no kind, for go-yaml's error): go-yaml's own
	// decoding.
	if err := n.Decode(&v); err != nil {
		d.fail(err)
		return nil, false
	}
	return v, true
}

// enter marks the alias n as being expanded; one that holds itself ends
// decoding.
func (d *anyDecoder) enter(n *yaml.Node) {
	if d.active[n] {
		fatalf("anchor '%s' value contains itself", n.Value)
	}
	d.active[n] = true
}

// mapping decodes a mapping into map[string]any when every key is a
// string (or a merge key), else into map[any]any, as go-yaml does.
func (d *anyDecoder) mapping(n *yaml.Node) any {
	strings := isStringMap(n)
	entries := d.entries(n, strings)
	if strings {
		m := make(map[string]any, len(entries))
		for _, e := range entries {
			if v, ok := d.value(e.value); ok || e.value.ShortTag() == "!!null" {
				m[e.key.(string)] = v
			}
		}
		return m
	}
	m := make(map[any]any, len(entries))
	for _, e := range entries {
		if v, ok := d.value(e.value); ok || e.value.ShortTag() == "!!null" {
			m[e.key] = v
		}
	}
	return m
}

// entry is a decoded key of a mapping and the node of its value.
type entry struct {
	key   any
	value *yaml.Node
}

// entries are the entries of the mapping n, each key once, with merge
// keys applied as go-yaml applies them: a key written wins over a merged
// one, an earlier merged mapping over a later. strings makes every key a
// string. A mapping with a repeated key gives none.
func (d *anyDecoder) entries(n *yaml.Node, strings bool) []entry {
	var out []entry
	var walk func(n *yaml.Node, merged map[any]bool)
	walk = func(n *yaml.Node, merged map[any]bool) {
		if !d.uniqueKeys(n) {
			return
		}
		var mergeNode *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn := n.Content[i]
			if isMergeKey(kn) {
				mergeNode = n.Content[i+1]
				continue
			}
			k, ok := d.key(kn, strings)
			if !ok || merged[k] {
				continue
			}
			if merged != nil {
				merged[k] = true
			}
			out = append(out, entry{k, n.Content[i+1]})
		}
		if mergeNode == nil {
			return
		}
		if merged == nil { // the keys written (go-yaml counts the merge key too)
			merged = map[any]bool{}
			for i := 0; i < len(n.Content); i += 2 {
				if k, ok := d.key(n.Content[i], strings); ok {
					merged[k] = true
				}
			}
		}
		for _, s := range mergeSources(mergeNode) {
			if s.Kind == yaml.AliasNode {
				d.enter(s)
				walk(s.Alias, merged)
				delete(d.active, s)
				continue
			}
			walk(s, merged)
		}
	}
	walk(n, nil)
	return out
}

// mergeSources are the mappings a merge key's value names: a mapping, an
// alias of one, or a list of them.
func mergeSources(n *yaml.Node) []*yaml.Node {
	sources := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		sources = n.Content
	} else if n.Kind != yaml.MappingNode && n.Kind != yaml.AliasNode {
		fatalf("map merge requires map or sequence of maps as the value")
	}
	for _, s := range sources {
		isMap := s.Kind == yaml.MappingNode || s.Kind == yaml.AliasNode && (s.Alias == nil || s.Alias.Kind == yaml.MappingNode)
		if !isMap || s.Kind == yaml.AliasNode && s.Alias == nil {
			fatalf("map merge requires map or sequence of maps as the value")
		}
	}
	return sources
}

// uniqueKeys reports whether n's keys are unique, adding go-yaml's
// message for each repeat: keys of one kind with the same text repeat.
func (d *anyDecoder) uniqueKeys(n *yaml.Node) bool {
	type key struct {
		kind  yaml.Kind
		value string
	}
	first := make(map[key]*yaml.Node, len(n.Content)/2)
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if f, seen := first[key{k.Kind, k.Value}]; seen {
			d.errs = append(d.errs, fmt.Sprintf("line %d: mapping key %#v already defined at line %d", k.Line, k.Value, f.Line))
			ok = false
			continue
		}
		first[key{k.Kind, k.Value}] = k
	}
	return ok
}

// key decodes a mapping key: with strings, as a string (a scalar's text
// when it resolves to another type, as go-yaml writes it; a null is no
// key); a map or a list cannot be one.
func (d *anyDecoder) key(n *yaml.Node, strings bool) (any, bool) {
	if t := n; strings {
		for t.Kind == yaml.AliasNode && t.Alias != nil {
			t = t.Alias
		}
		if t.Kind == yaml.MappingNode || t.Kind == yaml.SequenceNode {
			d.errs = append(d.errs, fmt.Sprintf("line %d: cannot unmarshal %s into string", t.Line, t.ShortTag()))
			return nil, false
		}
	}
	k, ok := d.value(n)
	if !ok {
		return nil, false
	}
	switch k.(type) {
	case map[string]any, map[any]any, []any:
		fatalf("invalid map key: %#v", k)
	}
	if _, isString := k.(string); strings && !isString {
		if k == nil {
			return nil, false // go-yaml sets no string from a null
		}
		return n.Value, true
	}
	return k, true
}

// isStringMap is go-yaml's test: every key is a string or a merge key.
func isStringMap(n *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if t := n.Content[i].ShortTag(); t != "!!str" && t != "!!merge" {
			return false
		}
	}
	return true
}

// isMergeKey is go-yaml's test of a merge key (<<).
func isMergeKey(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "<<" && (n.Tag == "" || n.Tag == "!" || n.ShortTag() == "!!merge")
}
