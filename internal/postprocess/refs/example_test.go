package refs_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/postprocess/refs"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleResolve() {
	svc := object.New(map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "db", "namespace": "prod"},
		"spec":     map[string]any{"ports": []any{map[string]any{"port": int64(5432)}}}})
	cm := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "app", "namespace": "prod"},
		"data": map[string]any{"dbPort": map[string]any{"getValueFrom": map[string]any{
			"kind": "svc", "name": "db", "path": "{.spec.ports[0].port}", "format-transformers": []any{"ToString"}}}}})
	err := refs.Resolve([]*object.Object{svc, cm}, nil, refs.Options{})
	fmt.Println(cm.Map["data"], err)

	bad := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x", "namespace": "prod"},
		"data":     map[string]any{"y": map[string]any{"getValueFrom": map[string]any{"kind": "svc", "name": "nope", "path": "{.spec}"}}}})
	fmt.Println(refs.Resolve([]*object.Object{bad}, nil, refs.Options{}))
	// Output:
	// map[dbPort:5432] <nil>
	// ConfigMap prod/x: data.y: getValueFrom {kind: svc, name: nope, path: '{.spec}'}: object not found: no Service (core group) named "nope" in namespace "prod"
}
