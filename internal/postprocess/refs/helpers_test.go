package refs

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// decodeStream decodes a YAML stream into objects whose numbers are int64
// and float64, as the renderer's objects are.
func decodeStream(t testing.TB, data string) []*object.Object {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(data))
	var out []*object.Object
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("decoding test YAML: %v", err)
		}
		untimestamp(&n)
		var v any
		if err := n.Decode(&v); err != nil {
			t.Fatalf("decoding test YAML: %v", err)
		}
		v = copyValue(v)
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("test YAML document is not a mapping: %v", v)
		}
		out = append(out, object.New(m))
	}
}

// deepCopyAll copies objects, to check later that they did not change.
func deepCopyAll(objs []*object.Object) []map[string]any {
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = o.DeepCopy().Map
	}
	return out
}

func mapsOf(objs []*object.Object) []map[string]any {
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = o.Map
	}
	return out
}

// errClass names the class of err, "" for nil. A joined error gets the
// class of its first error.
func errClass(err error) string {
	if err == nil {
		return ""
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return errClass(j.Unwrap()[0])
	}
	for _, c := range []struct {
		name string
		is   func(error) bool
	}{
		{"IllFormedRef", IsIllFormedRef},
		{"KindNotFound", IsKindNotFound},
		{"ObjectNotFound", IsObjectNotFound},
		{"ValueNotFound", IsValueNotFound},
		{"Transform", is[*TransformError]},
		{"Cycle", is[*CycleError]},
		{"SecretCopy", is[*SecretCopyError]},
	} {
		if c.is(err) {
			return c.name
		}
	}
	return "untyped " + reflect.TypeOf(err).String()
}

// leafErrors flattens joined errors.
func leafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}

func TestDecodeStreamNumbers(t *testing.T) {
	got := decodeStream(t, "a: 1\nb: 1.5\nc: y\nd: 2024-01-01\ne: '1'\n")
	want := map[string]any{"a": int64(1), "b": 1.5, "c": "y", "d": "2024-01-01", "e": "1"}
	assert.Check(t, gtcmp.DeepEqual(want, got[0].Map), "decodeStream")
}

// untimestamp keeps timestamps as strings, as the renderer's decoder does.
func untimestamp(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!timestamp" {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		untimestamp(c)
	}
}
