package validate_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleUpdate() {
	sts := func(disk string) *object.Object {
		return object.New(map[string]any{
			"apiVersion": "apps/v1", "kind": "StatefulSet",
			"metadata": map[string]any{"name": "zk", "namespace": "data"},
			"spec": map[string]any{
				"serviceName": "zk-hs",
				"selector":    map[string]any{"matchLabels": map[string]any{"app": "zk"}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "zk"}},
					"spec":     map[string]any{"containers": []any{map[string]any{"name": "zk", "image": "zookeeper:3.4"}}},
				},
				"volumeClaimTemplates": []any{map[string]any{
					"metadata": map[string]any{"name": "data"},
					"spec": map[string]any{
						"accessModes": []any{"ReadWriteOnce"},
						"resources":   map[string]any{"requests": map[string]any{"storage": disk}},
					},
				}},
			},
		})
	}
	old, new := sts("5Gi"), sts("10Gi")
	problems := validate.Update(old, new, validate.Options{})
	for _, p := range problems {
		fmt.Println(p.Field+":", p.Msg)
	}
	fmt.Println("recreated:", validate.Recreatable(new))
	// Output:
	// spec.volumeClaimTemplates: Invalid value: field is immutable
	// recreated: false
}
