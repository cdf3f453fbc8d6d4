package hostile_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// aliasDefinition is a v1beta1 CustomResourceDefinition of under a
// kilobyte whose schema nests YAML aliases levels deep, nine properties a
// level: 125,000 schema nodes, within --max-yaml-values.
func aliasDefinition(levels int) string {
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: xs.example.com}\n" +
		"spec:\n  group: example.com\n  names: {kind: Xx, plural: xs}\n  scope: Namespaced\n  version: v1\n" +
		"  validation:\n    openAPIV3Schema:\n      type: object\n      properties:\n" +
		"        l0: &l0 {type: object, properties: {p: {type: string}}}\n")
	for i := 1; i <= levels; i++ {
		var props []string
		for j := range 9 {
			props = append(props, fmt.Sprintf("k%d: *l%d", j, i-1))
		}
		fmt.Fprintf(&b, "        l%d: &l%d {type: object, properties: {%s}}\n", i, i, strings.Join(props, ", "))
	}
	return b.String()
}

// wideDefinition is a v1 CustomResourceDefinition whose spec has n
// objects of n string properties (mappings of n keys: decoding a large
// mapping is another cost).
func wideDefinition(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.example.com}\n" +
		"spec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Ww, plural: ws}\n  versions:\n" +
		"  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n" +
		"        properties:\n          spec:\n            type: object\n            properties:\n")
	for i := range n {
		fmt.Fprintf(&b, "              o%d:\n                type: object\n                properties:\n", i)
		for j := range n {
			fmt.Fprintf(&b, "                  p%d: {type: string}\n", j)
		}
	}
	return b.String()
}

// ruleDefinition is a v1 CustomResourceDefinition of kind Yy whose spec
// holds the rules given (flow mappings, one a line) over its string a and
// its list l.
func ruleDefinition(rules []string) string {
	return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ys.example.com}\n" +
		"spec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Yy, plural: ys}\n  versions:\n" +
		"  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n" +
		"        properties:\n          spec:\n            type: object\n            properties:\n" +
		"              a: {type: string, maxLength: 64}\n" +
		"              l: {type: array, maxItems: 600, items: {type: string, maxLength: 4}}\n" +
		"            x-kubernetes-validations:\n            - " + strings.Join(rules, "\n            - ") + "\n"
}

// TestDefinitionCost: what Kubernetes' typing, conversion and CEL
// compilation and evaluation of CustomResourceDefinitions cost is charged
// to the render's budget before it is spent (issue 35, class 3). On the
// main of before, the first two took 740 MiB and the watchdog.
func TestDefinitionCost(t *testing.T) {
	render := func(templates map[string]string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			return []string{"render", pkg(t, dir, templates, nil), "--name", "inst", "--output-dir", "{out}"}
		}
	}
	manyRules := make([]string, 20_000)
	for i := range manyRules {
		manyRules[i] = fmt.Sprintf("{rule: \"!has(self.a) || self.a != 'value-number-%05d-is-not-allowed-here'\", message: m%d}", i, i)
	}
	chain := "{rule: \"self.a == 'x'" + strings.Repeat(" || self.a == 'y'", 4000) + "\"}"
	heavy := "{rule: \"self.l.all(x, self.l.all(y, x == y || x != y))\"}"
	list := strings.TrimSuffix(strings.Repeat("abcd, ", 300), ", ")
	var resources strings.Builder
	for i := range 100 {
		fmt.Fprintf(&resources, "---\napiVersion: example.com/v1\nkind: Yy\nmetadata: {name: r%d}\nspec: {l: [%s]}\n", i, list)
	}
	runCases(t, map[string]hostileCase{
		"AliasedDefinition": {
			class: "CustomResourceDefinitions", reason: "a 963-byte v1beta1 definition whose schema nests aliases: 125,000 schema nodes to type and convert",
			setup:  render(map[string]string{"crd.yaml": aliasDefinition(5)}),
			stderr: `templates/crd\.yaml: CustomResourceDefinition xs\.example\.com: CRD schema nodes exceeds the limit of 50000 nodes \(raise it with --max-crd-schema-nodes or KUDO_RENDER_MAX_CRD_SCHEMA_NODES\)`,
			within: atOnce,
		},
		"DefinitionOfCRDs": {
			class: "CustomResourceDefinitions", reason: "a 2.5 MB definition of 62,500 properties in a folder --crds names (not an object of the render)",
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"crds/x.yaml": wideDefinition(250)})
				return []string{"render", pkg(t, dir, map[string]string{"cm.yaml": cm}, nil), "--name", "inst", "--crds", filepath.Join(dir, "crds"), "--output-dir", "{out}"}
			},
			stderr: `CustomResourceDefinition ws\.example\.com: CRD schema nodes exceeds the limit of 50000 nodes \(raise it with --max-crd-schema-nodes`,
			within: atOnce,
		},
		"DefinitionAtTheLimit": {
			class: "CustomResourceDefinitions", reason: "a 2 MB definition of 48,622 schema nodes, just within --max-crd-schema-nodes, and a custom resource of it: rendered under 1 GiB",
			setup:   render(map[string]string{"crd.yaml": wideDefinition(220), "w.yaml": "apiVersion: example.com/v1\nkind: Ww\nmetadata: {name: w}\nspec: {o1: {p1: a}}\n"}),
			succeed: true,
			check: func(t *testing.T, dir, _ string) {
				found := false
				for _, content := range snapshot(t, filepath.Join(dir, "out")) {
					found = found || strings.Contains(content, "kind: Ww")
				}
				if !found {
					t.Errorf("the custom resource is not in --output-dir")
				}
			},
		},
		"ManyRules": {
			class: "CustomResourceDefinitions", reason: "a 2 MB definition of 20,000 CEL rules to compile",
			setup:  render(map[string]string{"crd.yaml": ruleDefinition(manyRules)}),
			stderr: `templates/crd\.yaml: CustomResourceDefinition ys\.example\.com: compiling its x-kubernetes-validations rules: CEL work exceeds the limit of 50000000 units \(raise it with --max-cel-cost or KUDO_RENDER_MAX_CEL_COST\)`,
			within: atOnce,
		},
		"QuadraticRule": {
			class: "CustomResourceDefinitions", reason: "one 68 KB rule of 4,000 comparisons joined by ||, which CEL's type checker compiles in quadratic time",
			setup:  render(map[string]string{"crd.yaml": ruleDefinition([]string{chain})}),
			stderr: `compiling its x-kubernetes-validations rules: CEL work exceeds the limit of 50000000 units \(raise it with --max-cel-cost`,
			within: atOnce,
		},
		"RuleEvaluations": {
			class: "CustomResourceDefinitions", reason: "100 custom resources whose rule costs 650,000 units to evaluate (just under the server's limit per call), against a budget of 10 million",
			setup:  render(map[string]string{"crd.yaml": ruleDefinition([]string{heavy}), "rs.yaml": resources.String()}),
			env:    []string{"KUDO_RENDER_MAX_CEL_COST=10000000"},
			stderr: `Yy \S+/r\d+: evaluating its x-kubernetes-validations rules: CEL work exceeds the limit of 10000000 units \(raise it with --max-cel-cost`,
			within: 10 * time.Second,
		},
	})
}
