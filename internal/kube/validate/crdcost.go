package validate

import (
	"fmt"
	"math"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/parser"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// What a CustomResourceDefinition costs is charged to the render's
// budget before it is spent, measured on the definition as decoded:
//
//   - typing: Kubernetes' Go types hold a schema node in about a
//     kilobyte, and the conversion of an apiextensions.k8s.io/v1beta1
//     definition to v1 (package kube/versions), its validation and the
//     validators of its versions each type it again. Every node of the
//     schema of every served version is charged to crd-schema-nodes, four
//     times for a v1beta1 definition. An 888-byte definition whose schema
//     nests YAML aliases is 125,000 nodes (740 MiB and the watchdog).
//   - compiling the x-kubernetes-validations rules: each expression is
//     charged to cel-cost before it is compiled, when the definition is
//     validated and again when the first custom resource of a version
//     needs its validator (celCompileCost).
//   - evaluating them: see customKind.checkRules.

// v1beta1Weight is what a schema node of an apiextensions.k8s.io/v1beta1
// definition counts: its conversion to v1 types the schema three times
// (measured: four times the time and memory of validating it).
const v1beta1Weight = 4

// ChargeDefinition charges budget with the schema nodes of o when it is
// a CustomResourceDefinition, before anything types it (the conversion of
// a removed API version, validation); where names it in the error of a
// spent budget. The engine charges every object of a render; New charges
// the definitions of Options.CRDs itself.
func ChargeDefinition(o *object.Object, budget *limits.Budget, where string) error {
	if budget == nil || !isDefinition(o) {
		return nil
	}
	weight := int64(1)
	if o.APIVersion() == "apiextensions.k8s.io/v1beta1" {
		weight = v1beta1Weight
	}
	nodes := schemaNodes(o.Map, budget.Left(limits.CRDSchemaNodes)/weight+1)
	return budget.Charge(limits.CRDSchemaNodes, nodes*weight, definitionWhere(o, where))
}

// ChargeDefinitionRules charges budget with compiling the CEL rules of o
// when it is a CustomResourceDefinition, which its own validation does
// (with their cost estimates, as the API server refuses rules over its
// budgets); where names it in the error of a spent budget.
func ChargeDefinitionRules(o *object.Object, budget *limits.Budget, where string) error {
	if budget == nil || !isDefinition(o) {
		return nil
	}
	return chargeCompile(budget, definitionExpressions(o.Map), definitionWhere(o, where)+": compiling its x-kubernetes-validations rules")
}

// isDefinition reports whether o is a CustomResourceDefinition.
func isDefinition(o *object.Object) bool {
	return o.Kind() == "CustomResourceDefinition" && o.Group() == "apiextensions.k8s.io"
}

// definitionWhere names definition o, after where (a template) when set.
func definitionWhere(o *object.Object, where string) string {
	s := "CustomResourceDefinition " + o.Name()
	if where != "" {
		s = where + ": " + s
	}
	return s
}

// schemaNodes counts the schema nodes of a CustomResourceDefinition, in
// map form, as the API server holds them (see eachSchema). It stops
// counting past max.
func schemaNodes(crd map[string]any, max int64) int64 {
	var n int64
	eachSchema(crd, func(s any) bool {
		n += eachNode(s, max-n, nil)
		return n <= max
	})
	return n
}

// definitionExpressions are the CEL expressions of a
// CustomResourceDefinition in map form: the rule and the message
// expression of every x-kubernetes-validations entry of every schema.
func definitionExpressions(crd map[string]any) []string {
	var exprs []string
	eachSchema(crd, func(s any) bool {
		eachNode(s, math.MaxInt64, func(node map[string]any) {
			rules, _ := node["x-kubernetes-validations"].([]any)
			for _, r := range rules {
				rm, _ := r.(map[string]any)
				for _, k := range []string{"rule", "messageExpression"} {
					if e, ok := rm[k].(string); ok && e != "" {
						exprs = append(exprs, e)
					}
				}
			}
		})
		return true
	})
	return exprs
}

// eachSchema calls f with the openAPIV3Schema of every version of a
// CustomResourceDefinition in map form, as the API server holds them:
// each version's, or the top-level one of a v1beta1 definition (copied
// into each version), until f returns false.
func eachSchema(crd map[string]any, f func(s any) bool) {
	spec, _ := crd["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	top := openAPISchema(spec["validation"])
	if len(versions) == 0 {
		f(top)
		return
	}
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		s := openAPISchema(vm["schema"])
		if s == nil {
			s = top
		}
		if !f(s) {
			return
		}
	}
}

// openAPISchema is the openAPIV3Schema of a CustomResourceValidation in
// map form, nil when it has none.
func openAPISchema(validation any) any {
	m, _ := validation.(map[string]any)
	if m == nil {
		return nil
	}
	return m["openAPIV3Schema"]
}

// schemaChildren are the keys of a schema node whose values hold nodes:
// a node, a list of nodes, or (nodeMaps) a map of nodes.
var schemaChildren = map[string]bool{
	"properties": true, "patternProperties": true, "definitions": true, "dependencies": true,
	"items": true, "additionalProperties": true, "additionalItems": true, "not": true,
	"allOf": true, "anyOf": true, "oneOf": true,
}

var nodeMaps = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "dependencies": true}

// eachNode calls f (when set) with every schema node of s (a
// JSONSchemaProps in map form) and counts them, stopping past max.
func eachNode(s any, max int64, f func(map[string]any)) int64 {
	var n int64
	stack := []any{s}
	for len(stack) > 0 && n <= max {
		m, _ := stack[len(stack)-1].(map[string]any)
		stack = stack[:len(stack)-1]
		if m == nil {
			continue
		}
		n++
		if f != nil {
			f(m)
		}
		for k, v := range m {
			if !schemaChildren[k] {
				continue
			}
			switch c := v.(type) {
			case []any:
				stack = append(stack, c...)
			case map[string]any:
				if !nodeMaps[k] {
					stack = append(stack, c)
					continue
				}
				for _, x := range c {
					stack = append(stack, x)
				}
			}
		}
	}
	return n
}

// Compiling a CEL expression is charged, in the API server's cost units
// (about 10 million a second), a fixed celCompileBase (parsing, checking
// and estimating even a short rule takes more than a millisecond),
// celByteCost per byte (parsing), celNodeCost per node of its syntax tree,
// and the square of its calls and literals: the type checker copies its
// substitutions at every overload it resolves, so a chain of 1,000
// comparisons joined by || takes a third of a second, and of 3,000 three
// seconds. BenchmarkCELCompile measures the charge against the CPU time.
const (
	celCompileBase = 15_000
	celByteCost    = 30
	celNodeCost    = 150
)

// celParser parses expressions as the API server's environment does
// (its default limits: 100,000 code points, a depth of 250).
var celParser, _ = parser.NewParser(parser.Macros(parser.AllMacros...))

// celCompileCost is what compiling expression e is charged. Parsing it to
// count is linear, and bounded by the parser's limits.
func celCompileCost(e string) int64 {
	tree, errs := celParser.Parse(common.NewTextSource(e))
	base := celCompileBase + celByteCost*int64(len(e))
	if len(errs.GetErrors()) > 0 || tree == nil {
		return base
	}
	var nodes, calls int64
	ast.PostOrderVisit(tree.Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		nodes++
		switch x.Kind() {
		case ast.CallKind, ast.ListKind, ast.MapKind, ast.StructKind, ast.ComprehensionKind:
			calls++
		}
	}))
	return base + celNodeCost*nodes + calls*calls
}

// chargeCompile charges budget with compiling exprs, one at a time, before
// any is compiled; where names what compiles them.
func chargeCompile(budget *limits.Budget, exprs []string, where string) error {
	if budget == nil {
		return nil
	}
	for _, e := range exprs {
		// The base first: a definition of many rules is refused without
		// parsing them all.
		if err := budget.Charge(limits.CELCost, celCompileBase, where); err != nil {
			return err
		}
		if err := budget.Charge(limits.CELCost, celCompileCost(e)-celCompileBase, where); err != nil {
			return err
		}
	}
	return nil
}

// compiled returns the CEL validator of the version's schema (nil when it
// has no rules), compiling it the first time, its cost charged to budget
// first.
func (c *customKind) compiled(budget *limits.Budget) (*cel.Validator, error) {
	if c.structural == nil || len(c.exprs) == 0 {
		return nil, nil
	}
	r := &c.rules
	r.once.Do(func() {
		where := fmt.Sprintf("compiling the x-kubernetes-validations rules of %s %s (CustomResourceDefinition %s)", c.gvk.Kind, c.gvk.GroupVersion(), c.crd)
		if r.err = chargeCompile(budget, c.exprs, where); r.err != nil {
			return
		}
		defer activity.Doing(where)()
		r.v = cel.NewValidator(c.structural, true, celconfig.PerCallLimit)
	})
	return r.v, r.err
}
