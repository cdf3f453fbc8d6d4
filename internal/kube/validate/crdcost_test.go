package validate_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestChargeDefinition: the schema nodes of every served version are
// charged before anything types them, four times for a v1beta1
// definition, and a definition over the budget is refused naming it.
func TestChargeDefinition(t *testing.T) {
	v1beta1 := "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: xs.example.com}\n" +
		"spec:\n  group: example.com\n  names: {kind: X, plural: xs}\n  versions: [{name: v1, served: true, storage: true}, {name: v2, served: true}]\n" +
		"  validation: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: array, items: {type: string}}}}}}}\n"
	cases := []struct {
		reason string
		src    string
		nodes  int64
	}{
		// root, spec, size
		{reason: "a v1 definition", src: crd, nodes: 3},
		// root, spec, a, b, b's items; once per version, 4 times each
		{reason: "a v1beta1 definition with a top-level schema and two versions", src: v1beta1, nodes: 2 * 5 * 4},
		{reason: "not a definition", src: deployment, nodes: 0},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			b := limits.NewBudget(limits.Limits{})
			err := validate.ChargeDefinition(objects(t, c.src)[0], b, "templates/crd.yaml")
			assert.NilError(t, err)
			assert.Equal(t, b.Spent(limits.CRDSchemaNodes), c.nodes)
		})
	}
	b := limits.NewBudget(limits.Limits{CRDSchemaNodes: 39})
	err := validate.ChargeDefinition(objects(t, v1beta1)[0], b, "templates/crd.yaml")
	var le *diag.LimitError
	assert.Assert(t, errors.As(err, &le), "%v", err)
	assert.Error(t, err, "templates/crd.yaml: CustomResourceDefinition xs.example.com: CRD schema nodes exceeds the limit of 39 nodes (raise it with --max-crd-schema-nodes or KUDO_RENDER_MAX_CRD_SCHEMA_NODES)")
	assert.Equal(t, b.Spent(limits.CRDSchemaNodes), int64(0))
}

// manyRules is a definition whose spec has n CEL rules.
func manyRules(n int) string {
	var rules strings.Builder
	for i := range n {
		fmt.Fprintf(&rules, "            - {rule: \"self.size != %d\"}\n", i)
	}
	return strings.Replace(crd, "            type: object\n            properties:\n              size:",
		"            type: object\n            x-kubernetes-validations:\n"+rules.String()+"            properties:\n              size:", 1)
}

// TestChargeDefinitionRules: compiling the rules of a definition is
// charged before any is compiled; a definition of 20,000 rules is refused
// without compiling (or even parsing) them all.
func TestChargeDefinitionRules(t *testing.T) {
	b := limits.NewBudget(limits.Limits{})
	assert.NilError(t, validate.ChargeDefinitionRules(objects(t, manyRules(10))[0], b, ""))
	one := b.Spent(limits.CELCost) / 10
	assert.Assert(t, one >= 10_000 && one < 20_000, "a short rule is charged %d", one)

	b = limits.NewBudget(limits.Limits{})
	err := validate.ChargeDefinitionRules(objects(t, manyRules(20_000))[0], b, "templates/crd.yaml")
	assert.Error(t, err, "templates/crd.yaml: CustomResourceDefinition widgets.example.com: compiling its x-kubernetes-validations rules: CEL work exceeds the limit of 50000000 units (raise it with --max-cel-cost or KUDO_RENDER_MAX_CEL_COST)")
}

// TestCELBudget: the rules a custom resource's validation compiles and
// evaluates are charged to the budget; once it is spent, validation stops
// and Err says so (the object is not reported: the render stops).
func TestCELBudget(t *testing.T) {
	// A rule of quadratic cost over a list of 200 strings.
	def := strings.Replace(crd, "size: {type: integer}",
		"l: {type: array, maxItems: 1000, items: {type: string, maxLength: 8}, x-kubernetes-validations: [{rule: \"self.all(x, self.all(y, x == y || x != y))\"}]}", 1)
	list := "[" + strings.TrimSuffix(strings.Repeat("abc, ", 200), ", ") + "]"
	src := def + "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {l: " + list + "}\n"
	objs := objects(t, src)

	b := limits.NewBudget(limits.Limits{})
	v := validate.New(objs, validate.Options{Budget: b})
	assert.Assert(t, is.Len(v.Object(objs[1]), 0))
	assert.NilError(t, v.Err())
	spent := b.Spent(limits.CELCost)
	assert.Assert(t, spent > 100_000 && spent < 10_000_000, "spent %d: the evaluation's cost, not the reserve", spent)

	b = limits.NewBudget(limits.Limits{CELCost: 50_000})
	v = validate.New(objs, validate.Options{Budget: b})
	assert.Assert(t, is.Len(v.Object(objs[1]), 0))
	assert.Error(t, v.Err(), "Widget ns/w: evaluating its x-kubernetes-validations rules: CEL work exceeds the limit of 50000 units (raise it with --max-cel-cost or KUDO_RENDER_MAX_CEL_COST)")

	b = limits.NewBudget(limits.Limits{CELCost: 5_000})
	v = validate.New(objs, validate.Options{Budget: b})
	v.Object(objs[1])
	assert.ErrorContains(t, v.Err(), "compiling the x-kubernetes-validations rules of Widget example.com/v1 (CustomResourceDefinition widgets.example.com): CEL work exceeds the limit of 5000 units")
}

// TestCELCallLimit: a rule whose one evaluation passes the server's
// limit per call is the object's problem (the server refuses it whatever
// its budget), not a spent render budget, even when the render has less
// left than the server's budget per object.
func TestCELCallLimit(t *testing.T) {
	def := strings.Replace(crd, "size: {type: integer}",
		"l: {type: array, maxItems: 1000, items: {type: string, maxLength: 4}, x-kubernetes-validations: [{rule: \"self.all(x, self.all(y, x == y || x != y))\"}]}", 1)
	list := "[" + strings.TrimSuffix(strings.Repeat("abc, ", 1000), ", ") + "]"
	objs := objects(t, def+"---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {l: "+list+"}\n")
	v := validate.New(objs, validate.Options{Budget: limits.NewBudget(limits.Limits{CELCost: 5_000_000})})
	got := v.Object(objs[1])
	assert.NilError(t, v.Err())
	assert.Assert(t, is.Len(got, 1))
	assert.Assert(t, is.Contains(got[0].Msg, "call cost exceeds limit"))
}

// TestDefinitionsOfOptionsCharged: the definitions the render does not
// hold are charged when New reads them.
func TestDefinitionsOfOptionsCharged(t *testing.T) {
	b := limits.NewBudget(limits.Limits{CRDSchemaNodes: 2})
	v := validate.New(nil, validate.Options{CRDs: []*object.Object{objects(t, crd)[0]}, Budget: b})
	assert.ErrorContains(t, v.Err(), "CustomResourceDefinition widgets.example.com: CRD schema nodes exceeds the limit of 2 nodes")
}

// TestCustomResourcesConcurrently: custom resources of one kind are
// validated on many goroutines at once (as the engine does), sharing the
// kind's validator compiled once and the budget; each gets the problems
// it gets alone.
func TestCustomResourcesConcurrently(t *testing.T) {
	var src strings.Builder
	src.WriteString(widgetCRD)
	for i := range 64 {
		fmt.Fprintf(&src, "---\napiVersion: cr.example.com/v1\nkind: Widget\nmetadata: {name: w%d, namespace: ns}\nspec: {size: %d, ports: [{name: a, port: %d}]}\n", i, i%20, i)
	}
	objs := objects(t, src.String())
	alone := validate.Objects(objs, validate.Options{})
	b := limits.NewBudget(limits.Limits{})
	v := validate.New(objs, validate.Options{Budget: b})
	got := make([][]*diag.Diagnostic, len(objs))
	var wg sync.WaitGroup
	for i := range objs {
		wg.Go(func() { got[i] = v.Object(objs[i]) })
	}
	wg.Wait()
	assert.NilError(t, v.Err())
	refused := 0
	for i := range objs {
		assert.Equal(t, len(got[i]), len(alone[i]), "object %d", i)
		if len(got[i]) > 0 {
			refused++
		}
	}
	assert.Equal(t, refused, 27, "sizes 11 to 19 break the rule, three times over 64 objects")
}
