package engine_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/render"
)

// definitionPackage is a KUDO package applying the templates given.
func definitionPackage(t *testing.T, templates map[string]string) engine.Request {
	t.Helper()
	var names []string
	fs := fstest.MapFS{"params.yaml": {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters: []\n")}}
	for name, src := range templates {
		names = append(names, name)
		fs["templates/"+name] = &fstest.MapFile{Data: []byte(src)}
	}
	fs["operator.yaml"] = &fstest.MapFile{Data: []byte(fmt.Sprintf("apiVersion: kudo.dev/v1beta1\nname: defs\noperatorVersion: 0.1.0\n"+
		"tasks:\n  - {name: app, kind: Apply, spec: {resources: [%s]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n"+
		"      - name: main\n        strategy: serial\n        steps:\n          - {name: app, tasks: [app]}\n", strings.Join(names, ", ")))}
	b, err := bundle.Load(fs, "defs")
	assert.NilError(t, err)
	return engine.Request{Bundle: b, Instance: render.Instance{Name: "i", Namespace: "ns"}}
}

// nonStructural is a v1beta1 definition whose conversion to v1 is refused
// (a property without a type): charged before, its size is refused first.
const nonStructural = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: xs.example.com}
spec:
  group: example.com
  names: {kind: Xx, plural: xs}
  version: v1
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      properties:
        spec: {properties: {a: {}, b: {}, c: {}}}
`

// rules is a v1 definition with a CEL rule, and a custom resource of it.
const rules = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ys.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Yy, plural: ys}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              l: {type: array, maxItems: 300, items: {type: string, maxLength: 8}}
            x-kubernetes-validations: [{rule: "self.l.all(x, self.l.all(y, x == y || x != y))"}]
---
apiVersion: example.com/v1
kind: Yy
metadata: {name: yy}
spec: {l: [LIST]}
`

// TestDefinitionBudget: what a render's CustomResourceDefinitions cost is
// charged to its budget before it is spent, each refusal naming the
// template and the limit.
func TestDefinitionBudget(t *testing.T) {
	list := strings.TrimSuffix(strings.Repeat("abc, ", 300), ", ")
	cases := []struct {
		reason string
		src    string
		opts   engine.Options
		want   string // "": renders
	}{
		{reason: "schema nodes, before the conversion that would refuse the definition",
			src: nonStructural, opts: engine.Options{Budget: limits.NewBudget(limits.Limits{CRDSchemaNodes: 19})},
			want: "templates/crd.yaml: CustomResourceDefinition xs.example.com: CRD schema nodes exceeds the limit of 19 nodes (raise it with --max-crd-schema-nodes"},
		{reason: "compiling the rules the definition's validation compiles",
			src: rules, opts: engine.Options{Budget: limits.NewBudget(limits.Limits{CELCost: 10_000})},
			want: "templates/crd.yaml: CustomResourceDefinition ys.example.com: compiling its x-kubernetes-validations rules: CEL work exceeds the limit of 10000 units (raise it with --max-cel-cost"},
		{reason: "without validation nothing compiles them",
			src: rules, opts: engine.Options{NoValidate: true, Budget: limits.NewBudget(limits.Limits{CELCost: 10_000})}},
		{reason: "evaluating the rules of a custom resource",
			src: rules, opts: engine.Options{Budget: limits.NewBudget(limits.Limits{CELCost: 200_000})},
			want: "Yy ns/yy: evaluating its x-kubernetes-validations rules: CEL work exceeds the limit of 200000 units (raise it with --max-cel-cost"},
		{reason: "within the default budget", src: rules},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			req := definitionPackage(t, map[string]string{"crd.yaml": strings.Replace(c.src, "LIST", list, 1)})
			_, err := engine.RenderWith(c.opts, req)
			if c.want == "" {
				assert.NilError(t, err)
				return
			}
			assert.ErrorContains(t, err, c.want)
		})
	}
}

// TestConvertedDefinitionValidated: an apiextensions.k8s.io/v1beta1
// definition is validated once converted to v1, its CEL rules compiled
// as the API server compiles them; custom resources are validated
// against the converted schema.
func TestConvertedDefinitionValidated(t *testing.T) {
	const def = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: xs.example.com}
spec:
  group: example.com
  names: {kind: Xx, plural: xs}
  scope: Namespaced
  version: v1
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec: {type: object, properties: {a: {type: string, maxLength: 3}}, x-kubernetes-validations: [RULE]}
---
apiVersion: example.com/v1
kind: Xx
metadata: {name: x}
spec: {a: abcd, b: 1}
`
	_, err := engine.RenderWith(engine.Options{}, definitionPackage(t, map[string]string{"crd.yaml": strings.Replace(def, "RULE", `{rule: "self.nope("}`, 1)}))
	assert.ErrorContains(t, err, "templates/crd.yaml:14: CustomResourceDefinition xs.example.com: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value")
	assert.ErrorContains(t, err, "compilation failed")
	_, err = engine.RenderWith(engine.Options{}, definitionPackage(t, map[string]string{"crd.yaml": strings.Replace(def, "RULE", `{rule: "self.a != 'x'"}`, 1)}))
	assert.ErrorContains(t, err, "spec.b: Forbidden: field not declared in schema")
}
