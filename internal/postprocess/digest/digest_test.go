package digest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func cm(data string, ann map[string]any) *object.Object {
	md := map[string]any{"name": "c", "namespace": "ns"}
	if ann != nil {
		md["annotations"] = ann
	}
	return object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md, "data": map[string]any{"k": data}})
}

func TestObject(t *testing.T) {
	a, err := Object(cm("1", nil))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		obj    *object.Object
		same   bool
	}{
		"SameContent":  {reason: "The same content gives the same version.", obj: cm("1", nil), same: true},
		"OwnAnnotions": {reason: "Its own annotations do not count.", obj: cm("1", map[string]any{AnnResourceVersion: "sha256:x", AnnProcessedBy: "y"}), same: true},
		"Data":         {reason: "Any change of content changes it.", obj: cm("2", nil)},
		"Annotation":   {reason: "Other annotations count.", obj: cm("1", map[string]any{"a": "b"})},
		"OwnAndOther":  {reason: "Other annotations count beside its own.", obj: cm("1", map[string]any{"a": "b", AnnProcessedBy: "y"})},
		"EmptyAnns":    {reason: "Empty annotations are no annotations.", obj: cm("1", map[string]any{}), same: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := tc.obj.DeepCopy()
			b, err := Object(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			if (a == b) != tc.same || !strings.HasPrefix(b, "sha256:") || len(b) != 71 {
				t.Errorf("%s: %s vs %s", tc.reason, a, b)
			}
			if !cmp.Equal(before.Map, tc.obj.Map) {
				t.Errorf("%s: Object changed the object", tc.reason)
			}
		})
	}
}

func TestInputDigest(t *testing.T) {
	b := &bundle.Bundle{Name: "x", Version: "1", Templates: map[string][]byte{"a.yaml": []byte("a")}}
	in := Input{Bundle: b, Instance: "i", Namespace: "n", Plans: []string{"deploy"}, Params: map[string]any{"A": "1", "B": "2"}}
	d1, _ := InputDigest(in)
	in.Params = map[string]any{"B": "2", "A": "1"}
	d2, _ := InputDigest(in)
	if d1 != d2 {
		t.Error("map order changed the digest")
	}
	b.Templates["a.yaml"] = []byte("b")
	d3, _ := InputDigest(in)
	if d3 == d1 {
		t.Error("a template change did not change the digest")
	}
	if got := Marker(b, d1); got != "x@1/"+d1 {
		t.Errorf("Marker = %s", got)
	}
}

func TestCheck(t *testing.T) {
	o := cm("1", nil)
	if err := Annotate([]*object.Object{o}, "m"); err != nil {
		t.Fatal(err)
	}
	v := Versions([]*object.Object{o})
	if diff := cmp.Diff(map[string]string{"ConfigMap/ns/c": o.String("metadata", "annotations", AnnResourceVersion)}, v); diff != "" {
		t.Fatal(diff)
	}
	if err := Check([]*object.Object{o}, v); err != nil {
		t.Errorf("matching pins: %v", err)
	}
	err := Check([]*object.Object{o}, map[string]string{"ConfigMap/ns/c": "sha256:old", "Secret/ns/gone": "sha256:x"})
	var me *MismatchError
	if !errors.As(err, &me) || len(me.Mismatches) != 2 {
		t.Fatalf("want 2 mismatches, got %v", err)
	}
	if !strings.Contains(me.Mismatches[0], "pinned sha256:old") || !strings.Contains(me.Mismatches[1], "not in the output") {
		t.Errorf("mismatches: %v", me.Mismatches)
	}
	// one diagnostic per mismatch, about its object (issue 25.3)
	var got []string
	for _, d := range diag.From(err) {
		got = append(got, d.Resource.String()+": "+d.Msg)
	}
	want := []string{
		"ConfigMap ns/c: resource version is " + v["ConfigMap/ns/c"] + ", pinned sha256:old (spec.expectedResourceVersions)",
		"Secret ns/gone: pinned but not in the output (spec.expectedResourceVersions)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics: -want +got:\n%s", diff)
	}
}
