package jsonfields_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/kube/jsonfields"
)

type Meta struct {
	Name string `json:"name"`
}

type hidden struct {
	Shown  string `json:"shown"`
	secret string
}

type (
	withInline struct {
		Meta `json:",inline"`
	}
	withUntagged struct {
		Meta
		Kind string `json:"kind"`
	}
	withPointer    struct{ *Meta }
	withUnexported struct {
		hidden
		Kind string `json:"kind"`
	}
	withUnexportedPtr struct{ *hidden }
	withNamed         struct {
		Meta `json:"meta"`
	}
	withSkipped struct {
		Meta  `json:"-"`
		Other string `json:"-"`
		Kept  string
		loose string
	}
)

// TestOfAgreesWithEncodingJSON: Of lists the keys encoding/json writes for
// a value of each type (its pointers allocated), embedded structs
// exported or not. kube/validate's former copy of this walk left out the
// fields of an unexported embedded struct, where the generator of
// kube/types_gen.go kept them.
func TestOfAgreesWithEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		reason string
		v      any
	}{
		{"an embedded struct marked inline is flattened", withInline{}},
		{"an untagged embedded struct is flattened", withUntagged{}},
		{"a pointer to an embedded struct is flattened", withPointer{Meta: &Meta{}}},
		{"an unexported embedded struct's exported fields are promoted", withUnexported{}},
		{"through a pointer too", withUnexportedPtr{hidden: &hidden{}}},
		{"an embedded struct the tag names is one field", withNamed{}},
		{"fields tagged - and unexported fields are left out", withSkipped{}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			data, err := json.Marshal(tc.v)
			assert.NilError(t, err)
			var m map[string]any
			assert.NilError(t, json.Unmarshal(data, &m))
			want := slices.Sorted(maps.Keys(m))
			got := slices.Sorted(maps.Keys(jsonfields.Of(reflect.TypeOf(tc.v))))
			assert.DeepEqual(t, got, want)
		})
	}
}

func ExampleOf() {
	type Spec struct {
		Meta     `json:",inline"`
		Replicas *int32 `json:"replicas,omitempty"`
	}
	fields := jsonfields.Of(reflect.TypeFor[Spec]())
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		fmt.Println(k, fields[k])
	}
	// Output:
	// name string
	// replicas *int32
}
