package object

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/par"
)

// Object is one Kubernetes object.
type Object struct {
	// Map is the object's content as decoded from YAML.
	Map map[string]any
	// Bool11 lists the fields (JSON pointers) whose value was written as a
	// plain scalar that YAML 1.1 reads as a boolean but YAML 1.2 as a
	// string (yes, no, on, off, y, n): package kube decides, with the
	// field's type, which one it is.
	Bool11 []string
	// Line, when set, gives the line of the template that wrote a field
	// of the object (a dotted field path such as "spec.ports[0].port", or
	// a JSON pointer; "" for the object itself), for messages; 0 when
	// unknown.
	Line func(field string) int
}

// New wraps m.
func New(m map[string]any) *Object { return &Object{Map: m} }

// APIVersion returns apiVersion.
func (o *Object) APIVersion() string { return o.String("apiVersion") }

// Kind returns kind.
func (o *Object) Kind() string { return o.String("kind") }

// Name returns metadata.name.
func (o *Object) Name() string { return o.String("metadata", "name") }

// Namespace returns metadata.namespace.
func (o *Object) Namespace() string { return o.String("metadata", "namespace") }

// Group returns the API group of apiVersion ("" for the core group).
func (o *Object) Group() string {
	g, _, found := strings.Cut(o.APIVersion(), "/")
	if !found {
		return ""
	}
	return g
}

// Version is the version part of apiVersion ("v1" of "apps/v1").
func (o *Object) Version() string {
	av := o.APIVersion()
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		return av[i+1:]
	}
	return av
}

// Key identifies the object: group/kind/namespace/name.
func (o *Object) Key() string {
	return o.Group() + "/" + o.Kind() + "/" + o.Namespace() + "/" + o.Name()
}

// String returns the string at path, or "".
func (o *Object) String(path ...string) string {
	s, _ := Get(o.Map, path...).(string)
	return s
}

// Get returns the value at path inside m, or nil.
func Get(m map[string]any, path ...string) any {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

// Map returns the map at path, or nil when absent or not a map.
func (o *Object) MapAt(path ...string) map[string]any {
	m, _ := Get(o.Map, path...).(map[string]any)
	return m
}

// EnsureMap returns the map at path inside m, creating missing maps. It
// returns nil when a value on the way is not a map.
func EnsureMap(m map[string]any, path ...string) map[string]any {
	cur := m
	for _, p := range path {
		switch next := cur[p].(type) {
		case map[string]any:
			cur = next
		case nil:
			n := map[string]any{}
			cur[p] = n
			cur = n
		default:
			return nil
		}
	}
	return cur
}

// SetString sets a string field at path, creating maps on the way. It
// reports false when a value on the way is not a map.
func (o *Object) SetString(value string, path ...string) bool {
	parent := EnsureMap(o.Map, path[:len(path)-1]...)
	if parent == nil {
		return false
	}
	parent[path[len(path)-1]] = value
	return true
}

// SetStrings merges kv into the string map at path (labels, annotations).
// Existing keys are overwritten. It reports false when the path holds
// something other than a map.
func SetStrings(m map[string]any, kv map[string]string, path ...string) bool {
	target := EnsureMap(m, path...)
	if target == nil {
		return false
	}
	for k, v := range kv {
		target[k] = v
	}
	return true
}

// Marshal serialises the object as YAML with sorted keys.
func (o *Object) Marshal() ([]byte, error) {
	return marshal(o.Map)
}

// Stream serialises objects as one YAML stream separated by "---".
func Stream(objs []*Object) ([]byte, error) {
	docs, err := Documents(objs)
	if err != nil {
		return nil, err
	}
	return bytes.Join(docs, StreamSeparator), nil
}

// StreamSeparator separates the documents of a YAML stream.
var StreamSeparator = []byte("---\n")

// Documents serialises each object as one YAML document; joined with
// StreamSeparator they are Stream's bytes (a writer can write them without
// joining them into one more copy of the stream).
func Documents(objs []*Object) ([][]byte, error) {
	// Documents are encoded on all cores; the first error in object order
	// wins.
	docs := make([][]byte, len(objs))
	errs := make([]error, len(objs))
	par.Do(len(objs), func(i int) {
		if docs[i], errs[i] = objs[i].Marshal(); errs[i] != nil {
			errs[i] = fmt.Errorf("cannot serialise %s %q: %w", objs[i].Kind(), objs[i].Name(), errs[i])
		}
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	return docs, nil
}

// DeepCopy copies the object's content.
func (o *Object) DeepCopy() *Object {
	return &Object{Map: deepCopy(o.Map).(map[string]any), Bool11: append([]string(nil), o.Bool11...), Line: o.Line}
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = deepCopy(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = deepCopy(x)
		}
		return out
	default:
		return v
	}
}
