package validate_test

import (
	"fmt"

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
