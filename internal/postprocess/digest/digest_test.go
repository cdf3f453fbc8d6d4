package digest

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

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
			assert.Check(t, is.DeepEqual(before.Map, tc.obj.Map), "%s: Object changed the object", tc.reason)
		})
	}
}

// TestMarker: the processed-by marker of an object names the package and
// changes with the object's content alone (issue 33.2).
func TestMarker(t *testing.T) {
	marker := func(o *object.Object, id string) string {
		t.Helper()
		if err := Annotate([]*object.Object{o}, id); err != nil {
			t.Fatal(err)
		}
		return o.String("metadata", "annotations", AnnProcessedBy)
	}
	base := marker(cm("1", nil), "x@1")
	rv, _ := Object(cm("1", nil))
	if base != "x@1/"+rv {
		t.Errorf("marker %s, want x@1/<resource version %s>", base, rv)
	}
	cases := map[string]struct {
		reason string
		obj    *object.Object
		id     string
		same   bool
	}{
		"SameObject":      {reason: "The same object of the same package keeps its marker.", obj: cm("1", nil), id: "x@1", same: true},
		"OldMarker":       {reason: "An earlier marker (another render's) does not count.", obj: cm("1", map[string]any{AnnProcessedBy: "x@1/sha256:old"}), id: "x@1", same: true},
		"Content":         {reason: "A change of the object changes it.", obj: cm("2", nil), id: "x@1"},
		"PackageVersion":  {reason: "Another package version changes it.", obj: cm("1", nil), id: "x@2"},
		"OtherAnnotation": {reason: "Another annotation is content.", obj: cm("1", map[string]any{"a": "b"}), id: "x@1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := marker(tc.obj, tc.id); (got == base) != tc.same {
				t.Errorf("%s: %s vs %s", tc.reason, got, base)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	o := cm("1", nil)
	if err := Annotate([]*object.Object{o}, "m"); err != nil {
		t.Fatal(err)
	}
	v := Versions([]*object.Object{o})
	assert.Assert(t, is.DeepEqual(map[string]string{"ConfigMap/ns/c": o.String("metadata", "annotations", AnnResourceVersion)}, v))
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
	assert.Check(t, is.DeepEqual(want, got), "diagnostics")
}
