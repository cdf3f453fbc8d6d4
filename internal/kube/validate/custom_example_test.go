package validate_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// A custom resource is validated against the CustomResourceDefinition of
// the same objects as the API server validates it: a field its schema
// does not declare, a name that is no DNS subdomain, a CEL rule broken.
// The budget is charged with compiling and evaluating the rules.
func ExampleValidator_Object_customResource() {
	crd := object.New(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "backups.example.com"},
		"spec": map[string]any{
			"group": "example.com", "scope": "Namespaced",
			"names": map[string]any{"kind": "Backup", "plural": "backups"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{"spec": map[string]any{
						"type":                     "object",
						"properties":               map[string]any{"keep": map[string]any{"type": "integer"}},
						"x-kubernetes-validations": []any{map[string]any{"rule": "self.keep <= 30", "message": "keep at most 30"}},
					}},
				}},
			}},
		},
	})
	backup := func(name string, spec map[string]any) *object.Object {
		return object.New(map[string]any{"apiVersion": "example.com/v1", "kind": "Backup", "metadata": map[string]any{"name": name, "namespace": "data"}, "spec": spec})
	}
	objs := []*object.Object{
		crd,
		backup("nightly", map[string]any{"keep": int64(7)}),
		backup("Weekly_Backup", map[string]any{"keep": int64(7)}),
		backup("monthly", map[string]any{"keep": int64(90)}),
		backup("yearly", map[string]any{"keep": int64(1), "colour": "red"}),
	}
	budget := limits.NewBudget(limits.Limits{})
	v := validate.New(objs, validate.Options{Budget: budget})
	for _, o := range objs[1:] {
		for _, d := range v.Object(o) {
			fmt.Printf("%s: %s: %.60s\n", o.Name(), d.Field, d.Msg)
		}
	}
	fmt.Println(v.Err(), budget.Spent(limits.CELCost) > 0)
	// Output:
	// Weekly_Backup: metadata.name: Invalid value: "Weekly_Backup": a lowercase RFC 1123 subdoma
	// monthly: spec: Invalid value: keep at most 30
	// yearly: spec.colour: Forbidden: field not declared in schema (the API server refu
	// <nil> true
}
