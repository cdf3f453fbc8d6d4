package object_test

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func cm() *object.Object {
	return object.New(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cfg", "namespace": "data", "labels": map[string]any{"a": "b"}},
		"data":     map[string]any{"z": "1", "a": "2"},
	})
}

func TestAccessors(t *testing.T) {
	deploy := object.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"}})
	crd := object.New(map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": map[string]any{"name": "x.example.com"}})
	cases := map[string]struct {
		reason string
		got    any
		want   any
	}{
		"CoreGroup":      {reason: "The core group is empty.", got: cm().Group(), want: ""},
		"NamedGroup":     {reason: "A group is the part before the slash.", got: deploy.Group(), want: "apps"},
		"CoreKey":        {reason: "Key is group/kind/namespace/name.", got: cm().Key(), want: "/ConfigMap/data/cfg"},
		"ClusterKey":     {reason: "Without a namespace that part is empty.", got: crd.Key(), want: "apiextensions.k8s.io/CustomResourceDefinition//x.example.com"},
		"Name":           {reason: "Name reads metadata.name.", got: deploy.Name(), want: "web"},
		"NoNamespace":    {reason: "A missing namespace is empty.", got: deploy.Namespace(), want: ""},
		"StringNested":   {reason: "String reads nested strings.", got: cm().String("data", "z"), want: "1"},
		"StringNotStr":   {reason: "String of a non-string is empty.", got: cm().String("metadata", "labels"), want: ""},
		"StringThrough":  {reason: "A path through a scalar gives empty.", got: cm().String("kind", "x"), want: ""},
		"GetMissing":     {reason: "Get of a missing path is nil.", got: object.Get(cm().Map, "spec", "x"), want: nil},
		"MapAt":          {reason: "MapAt returns the map at the path.", got: cm().MapAt("metadata", "labels"), want: map[string]any{"a": "b"}},
		"MapAtNotAMap":   {reason: "MapAt of a scalar is nil.", got: cm().MapAt("kind") == nil, want: true},
		"MapAtNoPathNil": {reason: "MapAt of a missing path is nil.", got: cm().MapAt("spec") == nil, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.got), "%s", tc.reason)
		})
	}
}

func TestSetters(t *testing.T) {
	cases := map[string]struct {
		reason string
		do     func(o *object.Object) bool
		ok     bool
		want   map[string]any
	}{
		"SetStringCreatesMaps": {
			reason: "SetString creates the maps on the way.",
			do:     func(o *object.Object) bool { return o.SetString("v", "spec", "template", "name") },
			ok:     true,
			want:   map[string]any{"kind": "X", "spec": map[string]any{"template": map[string]any{"name": "v"}}},
		},
		"SetStringThroughScalar": {
			reason: "SetString refuses to go through a scalar.",
			do:     func(o *object.Object) bool { return o.SetString("v", "kind", "name") },
			ok:     false,
			want:   map[string]any{"kind": "X"},
		},
		"SetStringsMerges": {
			reason: "SetStrings merges into the map at the path and overwrites existing keys.",
			do: func(o *object.Object) bool {
				o.Map["metadata"] = map[string]any{"labels": map[string]any{"keep": "1", "over": "old"}}
				return object.SetStrings(o.Map, map[string]string{"over": "new", "add": "2"}, "metadata", "labels")
			},
			ok:   true,
			want: map[string]any{"kind": "X", "metadata": map[string]any{"labels": map[string]any{"keep": "1", "over": "new", "add": "2"}}},
		},
		"SetStringsNotAMap": {
			reason: "SetStrings refuses a path that holds a scalar.",
			do: func(o *object.Object) bool {
				o.Map["metadata"] = map[string]any{"labels": "oops"}
				return object.SetStrings(o.Map, map[string]string{"a": "b"}, "metadata", "labels")
			},
			ok:   false,
			want: map[string]any{"kind": "X", "metadata": map[string]any{"labels": "oops"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := object.New(map[string]any{"kind": "X"})
			if ok := tc.do(o); ok != tc.ok {
				t.Errorf("\n%s\nwant ok %t, got %t", tc.reason, tc.ok, ok)
			}
			assert.Check(t, is.DeepEqual(tc.want, o.Map), "%s", tc.reason)
		})
	}
}

func TestStream(t *testing.T) {
	a := cm()
	b := object.New(map[string]any{"kind": "Namespace", "apiVersion": "v1", "metadata": map[string]any{"name": "data"}})
	cases := map[string]struct {
		reason string
		objs   []*object.Object
		want   string
	}{
		"Two": {
			reason: "Objects are separated by ---, keys sorted.",
			objs:   []*object.Object{a, b},
			want: `apiVersion: v1
data:
  a: "2"
  z: "1"
kind: ConfigMap
metadata:
  labels:
    a: b
  name: cfg
  namespace: data
---
apiVersion: v1
kind: Namespace
metadata:
  name: data
`,
		},
		"None": {
			reason: "No objects give an empty stream.",
			want:   "",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := object.Stream(tc.objs)
			if err != nil {
				t.Fatal(err)
			}
			assert.Check(t, is.DeepEqual(tc.want, string(got)), "%s\nStream(...)", tc.reason)
		})
	}
	bad := object.New(map[string]any{"kind": "X", "metadata": map[string]any{"name": "n"}, "f": func() {}})
	if _, err := object.Stream([]*object.Object{bad}); err == nil {
		t.Error("Stream(unserialisable): want an error")
	}
}

func TestDeepCopy(t *testing.T) {
	a := cm()
	a.Map["list"] = []any{map[string]any{"x": "1"}}
	b := a.DeepCopy()
	object.SetStrings(b.Map, map[string]string{"new": "1"}, "metadata", "labels")
	b.Map["list"].([]any)[0].(map[string]any)["x"] = "2"
	assert.Check(t, is.DeepEqual(map[string]any{"a": "b"}, a.MapAt("metadata", "labels")), "DeepCopy: the copy shares labels with the original")
	if got := a.Map["list"].([]any)[0].(map[string]any)["x"]; got != "1" {
		t.Errorf("DeepCopy: the copy shares lists with the original, x = %v", got)
	}
}
