package validate_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func Example() {
	svc := object.New(map[string]any{
		"apiVersion": "v1",
		"kind":       "Service",
		"metadata":   map[string]any{"name": "zk_hs", "namespace": "data"},
		"spec": map[string]any{
			"ports": []any{map[string]any{"name": "client", "port": int64(70000)}},
		},
	})
	for _, d := range validate.Objects([]*object.Object{svc}, validate.Options{})[0] {
		fmt.Println(d.Field)
	}
	// Output:
	// metadata.name
	// spec.ports[0].port
	// spec.ports[0].targetPort
}

// ExampleApplyErrors checks a custom resource as server-side apply does,
// with a type converter built from its schema (an OpenAPI schema with the
// kind's group-version-kind, as the API extensions server builds one from
// a CustomResourceDefinition's structural schema): two items of one key
// in a list of type map.
func ExampleApplyErrors() {
	gvk := []any{map[string]any{"group": "example.com", "version": "v1", "kind": "Widget"}}
	item := spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{
		"name": {SchemaProps: spec.SchemaProps{Type: []string{"string"}}},
		"size": {SchemaProps: spec.SchemaProps{Type: []string{"integer"}}},
	}}}
	parts := spec.Schema{
		SchemaProps: spec.SchemaProps{Type: []string{"array"}, Items: &spec.SchemaOrArray{Schema: &item}},
		VendorExtensible: spec.VendorExtensible{Extensions: spec.Extensions{
			"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
		}},
	}
	widget := &spec.Schema{
		SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{
			"apiVersion": {SchemaProps: spec.SchemaProps{Type: []string{"string"}}},
			"kind":       {SchemaProps: spec.SchemaProps{Type: []string{"string"}}},
			"metadata":   {SchemaProps: spec.SchemaProps{Type: []string{"object"}, AdditionalProperties: &spec.SchemaOrBool{Allows: true}}},
			"spec":       {SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{"parts": parts}}},
		}},
		VendorExtensible: spec.VendorExtensible{Extensions: spec.Extensions{"x-kubernetes-group-version-kind": gvk}},
	}
	tc, err := managedfields.NewTypeConverter(map[string]*spec.Schema{"com.example.v1.Widget": widget}, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	obj := map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
		"spec": map[string]any{"parts": []any{
			map[string]any{"name": "a", "size": int64(1)},
			map[string]any{"name": "a", "size": int64(2)},
		}},
	}
	_, err = tc.ObjectToTyped(&unstructured.Unstructured{Object: obj})
	for _, e := range validate.ApplyErrors(obj, err) {
		fmt.Println(e.Field + ": " + e.Detail)
	}
	// Output:
	// spec.parts[1]: server-side apply refuses it (Argo CD, Flux and kubectl --server-side apply so): duplicate entries for key [name="a"]
}
