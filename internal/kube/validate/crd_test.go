package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestDefinitionFields: a CustomResourceDefinition's fields its API type
// does not declare are refused where server-side apply refuses them; below
// items, additionalProperties and default the OpenAPI schema declares
// nothing and the server accepts them.
func TestDefinitionFields(t *testing.T) {
	cases := []struct {
		reason  string
		old     string // a part of crd to replace
		new     string
		refused string // the field refused; "": accepted
	}{
		{reason: "a field of spec", old: "  scope: Namespaced\n", new: "  scope: Namespaced\n  foo: 1\n", refused: "spec.foo"},
		{reason: "a field of a version", old: "    served: true\n", new: "    served: true\n    extra: x\n", refused: "spec.versions[0].extra"},
		{reason: "a field of metadata", old: "metadata: {name: widgets.example.com}", new: "metadata: {name: widgets.example.com, foo: 1}", refused: "metadata.foo"},
		{reason: "a misspelt keyword of a property", old: "size: {type: integer}", new: "size: {type: integer, minimun: 1}", refused: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].minimun"},
		{reason: "a misspelt extension", old: "size: {type: integer}", new: "size: {type: integer, x-kubernetes-int-or-strings: true}", refused: "properties[size].x-kubernetes-int-or-strings"},
		{reason: "a field of a CEL rule", old: "size: {type: integer}", new: "size: {type: integer, x-kubernetes-validations: [{rule: self > 0, foo: 1}]}", refused: "x-kubernetes-validations[0].foo"},
		{reason: "below not", old: "size: {type: integer}", new: "size: {type: integer, not: {minimum: 1, typo: 1}}", refused: "properties[size].not.typo"},
		{reason: "below allOf", old: "size: {type: integer}", new: "size: {type: integer, allOf: [{minimum: 1, typo: 1}]}", refused: "properties[size].allOf[0].typo"},
		{reason: "below items: not declared by the OpenAPI schema", old: "size: {type: integer}", new: "size: {type: array, items: {type: string, typo: 1}}"},
		{reason: "below additionalProperties", old: "size: {type: integer}", new: "size: {type: object, additionalProperties: {type: string, typo: 1}}"},
		{reason: "below default", old: "size: {type: integer}", new: "size: {type: object, default: {x: 1}, properties: {x: {type: integer}}}"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			src := strings.Replace(crd, c.old, c.new, 1)
			assert.Assert(t, src != crd, "the case changes nothing")
			got := problems(t, src)
			if c.refused == "" {
				assert.Assert(t, is.Len(got, 0), "%s", strings.Join(got, "\n"))
				return
			}
			assert.Assert(t, is.Len(got, 1), "%s", strings.Join(got, "\n"))
			assert.Assert(t, is.Contains(got[0], c.refused+": Forbidden: field not declared in schema"))
		})
	}
}

// TestDefinitionRules: CEL rules are compiled with their cost estimates
// by the definition's validation, as the API server compiles them.
func TestDefinitionRules(t *testing.T) {
	cases := []struct {
		reason, rule, refused string
	}{
		{reason: "a rule that compiles", rule: `{type: array, maxItems: 10, items: {type: string, maxLength: 10}, x-kubernetes-validations: [{rule: "self.all(x, x != 'a')"}]}`},
		{reason: "a rule that does not compile", rule: `{type: string, maxLength: 5, x-kubernetes-validations: [{rule: "self.nope("}]}`, refused: "compilation failed"},
		{reason: "a rule over the server's cost budget", rule: `{type: array, items: {type: string}, x-kubernetes-validations: [{rule: "self.all(x, self.all(y, self.all(z, x + y + z != 'a')))"}]}`, refused: "exceeds budget"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			got := problems(t, strings.Replace(crd, "size: {type: integer}", "size: "+c.rule, 1))
			if c.refused == "" {
				assert.Assert(t, is.Len(got, 0), "%s", strings.Join(got, "\n"))
				return
			}
			assert.Assert(t, len(got) > 0)
			assert.Assert(t, is.Contains(strings.Join(got, "\n"), c.refused))
		})
	}
}
