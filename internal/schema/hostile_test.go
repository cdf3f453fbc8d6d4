package schema

import (
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// Hostile schemas (issue 6; compare Helm's CVE-2025-32387, a stack
// overflow on deeply nested schemas, and CVE-2025-55199, schemas that load
// files and URLs). Each case must be refused, or handled, within
// hostileTimeout, without a crash.

const refused = `which is refused: a schema may only refer to itself ("#...") and to the standard JSON Schema meta-schemas; kudo-render never loads schemas from files or URLs`

// deepItems is a schema of n nested `items`.
func deepItems(n int) string {
	return strings.Repeat(`{"items":`, n) + `{"type":"string"}` + strings.Repeat(`}`, n)
}

// laughs is a schema in which every level checks the value twice against
// the next: 2^n subschemas for one value, the "billion laughs" of JSON
// Schema.
func laughs(n int) string {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}},"$ref":"#/$defs/d0"}`, n)
	return b.String()
}

func TestHostileParamsSchemas(t *testing.T) {
	cases := map[string]struct {
		reason string
		schema string
		want   []Problem
	}{
		"RefToFile": {
			reason: "A $ref to a file is never followed.",
			schema: `{"properties": {"P": {"$ref": "file:///etc/passwd"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$ref", Msg: `refers to "file:///etc/passwd", ` + refused}},
		},
		"RefToDevZero": {
			reason: "file:///dev/zero would never end.",
			schema: `{"$ref": "file:///dev/zero"}`,
			want:   []Problem{{File: "params.schema.json", Field: "/$ref", Msg: `refers to "file:///dev/zero", ` + refused}},
		},
		"RefToBarePath": {
			reason: "A bare path is a relative reference: it is refused too, not read.",
			schema: `{"properties": {"P": {"$ref": "/dev/zero"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$ref", Msg: `refers to "/dev/zero", ` + refused}},
		},
		"RefToRelativeFile": {
			reason: "A sibling file is refused.",
			schema: `{"properties": {"P": {"$ref": "common.json#/$defs/port"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$ref", Msg: `refers to "common.json#/$defs/port", ` + refused}},
		},
		"RefToHTTP": {
			reason: "No network: the cloud metadata endpoint is refused.",
			schema: `{"properties": {"P": {"$ref": "http://169.254.169.254/latest/meta-data/"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$ref", Msg: `refers to "http://169.254.169.254/latest/meta-data/", ` + refused}},
		},
		"RefToHTTPS": {
			reason: "No network over https either.",
			schema: `{"allOf": [{"$ref": "https://example.com/schemas/port.json"}]}`,
			want:   []Problem{{File: "params.schema.json", Field: "/allOf/0/$ref", Msg: `refers to "https://example.com/schemas/port.json", ` + refused}},
		},
		"RelativeToID": {
			reason: "A reference relative to an $id is a URL too.",
			schema: `{"$id": "https://example.com/root.json", "properties": {"P": {"$ref": "defs.json"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$ref", Msg: `refers to "defs.json", ` + refused}},
		},
		"DynamicRefOutside": {
			reason: "$dynamicRef is a reference like $ref.",
			schema: `{"properties": {"P": {"$dynamicRef": "https://example.com/meta#meta"}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/properties/P/$dynamicRef", Msg: `refers to "https://example.com/meta#meta", ` + refused}},
		},
		"CustomMetaSchema": {
			reason: "A $schema other than the standard meta-schemas would be loaded: refused.",
			schema: `{"$schema": "https://evil.example/meta.json"}`,
			want:   []Problem{{File: "params.schema.json", Field: "/$schema", Msg: `refers to "https://evil.example/meta.json", ` + refused}},
		},
		"NestedItems100000": {
			reason: "100,000 nested items are refused while decoding, before anything recursive runs.",
			schema: deepItems(100_000),
			want:   []Problem{{File: "params.schema.json", Line: 1, Msg: "nested deeper than 64 levels"}},
		},
		"NestedJustTooDeep": {
			reason: "The limit is MaxDepth levels of objects and arrays.",
			schema: deepItems(MaxDepth),
			want:   []Problem{{File: "params.schema.json", Line: 1, Msg: "nested deeper than 64 levels"}},
		},
		"TooLarge": {
			reason: "A schema larger than MaxSchemaBytes is refused unread.",
			schema: `{"description": "` + strings.Repeat("x", MaxSchemaBytes) + `"}`,
			want:   []Problem{{File: "params.schema.json", Msg: fmt.Sprintf("is %d bytes long; the limit is 1048576", MaxSchemaBytes+19)}},
		},
		"RefToItself": {
			reason: `"$ref": "#" at the top never descends into the value: refused when compiling.`,
			schema: `{"$ref": "#"}`,
			want:   []Problem{{File: "params.schema.json", Msg: "reference cycle that never descends into the value: # -> #"}},
		},
		"RefCycle": {
			reason: "a -> b -> a is refused with the cycle.",
			schema: `{"properties": {"P": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}}}`,
			want:   []Problem{{File: "params.schema.json", Field: "/$defs/a", Msg: "reference cycle that never descends into the value: #/$defs/a -> #/$defs/a/anyOf/1 -> #/$defs/b -> #/$defs/b/not -> #/$defs/a"}},
		},
		"BillionLaughs": {
			reason: "2^40 subschemas for one value are refused when compiling.",
			schema: laughs(40),
			want:   []Problem{{File: "params.schema.json", Msg: "one value would be checked against more than 10000 subschemas (allOf, anyOf, oneOf and references nested into each other): the schema is too complex"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := &bundle.Bundle{ParamsSchema: []byte(tc.schema)}
			var paramsErr, validateErr error
			within(t, hostileTimeout, func() {
				_, paramsErr = Params(b)
				validateErr = ValidateParams(b, map[string]any{"P": "x"})
			})
			assert.Check(t, is.DeepEqual(tc.want, problemsOf(t, paramsErr)), "%s\nParams(...)", tc.reason)
			// Validation refuses the schema the same way.
			assert.Check(t, is.DeepEqual(tc.want, problemsOf(t, validateErr)), "%s\nValidateParams(...)", tc.reason)
		})
	}
}

func TestHostileDefinitions(t *testing.T) {
	yamlLaughs := "  $defs:\n" +
		"    a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
		"    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
		"    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
	cases := map[string]struct {
		reason string
		file   string
		want   []Problem
	}{
		"RefToDevZero": {
			reason: "A definition's schema cannot read /dev/zero either.",
			file:   header + "schema:\n  properties:\n    data: {$ref: /dev/zero}\n",
			want:   []Problem{{File: "definitions/t.yaml", Line: 8, Field: "schema/properties/data/$ref", Msg: `refers to "/dev/zero", ` + refused}},
		},
		"RefToURL": {
			reason: "Nor fetch a URL.",
			file:   header + "schema:\n  $ref: 'https://example.com/topic.json'\n",
			want:   []Problem{{File: "definitions/t.yaml", Line: 7, Field: "schema/$ref", Msg: `refers to "https://example.com/topic.json", ` + refused}},
		},
		"FlowNested100000": {
			reason: "100,000 nested flow mappings stop in the YAML parser's own depth limit.",
			file:   header + "schema: " + strings.Repeat("{items: ", 100_000) + "{}" + strings.Repeat("}", 100_000) + "\n",
			want:   []Problem{{File: "definitions/t.yaml", Line: 6, Msg: "exceeded max depth of 10000"}},
		},
		"BlockNestedTooDeep": {
			reason: "Nesting below the parser's limit stops at MaxDepth, with the line.",
			file: header + "schema:\n" + func() string {
				var b strings.Builder
				for i := range 100 {
					b.WriteString(strings.Repeat(" ", i+1) + "items:\n")
				}
				return b.String() + strings.Repeat(" ", 101) + "type: string\n"
			}(),
			want: []Problem{{File: "definitions/t.yaml", Line: 71, Field: "schema" + strings.Repeat("/items", 64), Msg: "nested deeper than 64 levels"}},
		},
		"AliasBomb": {
			reason: "YAML aliases that expand a few lines into 10^7 values are refused as the file is read, at the alias that takes it over --max-yaml-values.",
			file:   header + "schema:\n" + yamlLaughs,
			want:   []Problem{{File: "definitions/t.yaml", Line: 13, Column: 40, Msg: "alias *e (aliases expanded): YAML values exceeds the limit of 1000000 values (raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES)"}},
		},
		"RecursiveRef": {
			reason: "A cycle of references that never descends into the value is refused.",
			file:   header + "schema:\n  $ref: '#/$defs/a'\n  $defs:\n    a: {$ref: '#/$defs/b'}\n    b: {allOf: [{$ref: '#/$defs/a'}]}\n",
			want:   []Problem{{File: "definitions/t.yaml", Line: 9, Field: "schema/$defs/a", Msg: "reference cycle that never descends into the value: #/$defs/a -> #/$defs/b -> #/$defs/b/allOf/0 -> #/$defs/a"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			within(t, hostileTimeout, func() {
				_, err = LoadDefinitions(&bundle.Bundle{Definitions: map[string][]byte{"t.yaml": []byte(tc.file)}})
			})
			assert.Check(t, is.DeepEqual(tc.want, problemsOf(t, err)), "%s\nLoadDefinitions(...)", tc.reason)
		})
	}
}

func TestHostileValidation(t *testing.T) {
	tree := `{"$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
	          "properties": {"TREE": {"$ref": "#/$defs/node"}}}`
	// A tree nested to the limit: TREE is at depth 1, each level adds an
	// object and a children array.
	deepTree := func(levels int) map[string]any {
		node := map[string]any{"name": "leaf"}
		for range levels {
			node = map[string]any{"name": "n", "children": []any{node}}
		}
		return node
	}
	cases := map[string]struct {
		reason string
		schema string
		values map[string]any
		want   []Violation
	}{
		"RecursiveSchemaTerminates": {
			reason: "A recursive schema (a tree) validates a value as deep as allowed: values are finite and bounded.",
			schema: tree,
			values: map[string]any{"TREE": deepTree((MaxDepth - 2) / 2)},
		},
		"RecursiveSchemaReportsDeepViolation": {
			reason: "A violation deep in a recursive structure is found and located.",
			schema: tree,
			values: map[string]any{"TREE": map[string]any{"children": []any{map[string]any{"children": []any{map[string]any{"name": 7}}}}}},
			want:   []Violation{{Pointer: "/TREE/children/0/children/0/name", Message: "got number, want string"}},
		},
		"ValueTooDeep": {
			reason: "A value deeper than MaxDepth is refused before validation.",
			schema: tree,
			values: map[string]any{"TREE": deepTree(MaxDepth)},
			want: []Violation{{
				Pointer: "/TREE" + strings.Repeat("/children/0", 31) + "/children",
				Message: "nested too deep: more than 64 levels",
			}},
		},
		"ExponentialRecursion": {
			reason: "A schema that checks every item twice against itself takes 2^depth evaluations: the evaluation budget stops it.",
			schema: `{"properties": {"P": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"items": {"allOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}]}}}}`,
			values: map[string]any{"P": nested(60)},
			want: []Violation{{Message: fmt.Sprintf(
				"validation stopped after %d subschema evaluations: the schema is too complex for this value (references that multiply at every level?)", BaseEvaluations+EvaluationsPerNode*62)}},
		},
		"MetaSchemaAllowed": {
			reason: "The standard meta-schemas are embedded: a parameter may hold a schema.",
			schema: `{"properties": {"P": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}`,
			values: map[string]any{"P": map[string]any{"type": 5}},
			want: []Violation{{Pointer: "/P/type",
				Message: "'anyOf' failed: (1) value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (2) got number, want array"}},
		},
		"CatastrophicRegex": {
			reason: "Go's regular expressions are linear: the classic ReDoS pattern is harmless.",
			schema: `{"properties": {"P": {"type": "string", "pattern": "^(a+)+$"}}}`,
			values: map[string]any{"P": strings.Repeat("a", 100_000) + "!"},
			want:   []Violation{{Pointer: "/P", Message: "'" + strings.Repeat("a", 296) + "..."}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			within(t, hostileTimeout, func() {
				err = ValidateParams(&bundle.Bundle{ParamsSchema: []byte(tc.schema)}, tc.values)
			})
			assert.Check(t, is.DeepEqual(tc.want, violationsOf(t, err)), "%s\nValidateParams(...)", tc.reason)
		})
	}
}

func TestHostileResources(t *testing.T) {
	// A definition whose schema multiplies at every level, and a resource
	// that nests deep enough for 2^50 evaluations.
	defs, err := LoadDefinitions(&bundle.Bundle{Definitions: map[string][]byte{"t.yaml": []byte(header +
		"schema:\n  properties:\n    x: {$ref: '#/$defs/x'}\n  $defs:\n    x: {items: {allOf: [{$ref: '#/$defs/x'}, {$ref: '#/$defs/x'}]}}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	within(t, hostileTimeout, func() {
		_, err = Resources("kafka", defs, []map[string]any{{
			"apiVersion": "kafka.kudorender.dev/v1", "kind": "Topic",
			"metadata": map[string]any{"name": "bomb"},
			"spec":     map[string]any{"x": nested(50)},
		}}, nil)
	})
	want := []Violation{{Resource: "Topic/bomb", Pointer: "/spec", Message: fmt.Sprintf(
		"validation stopped after %d subschema evaluations: the schema is too complex for this value (references that multiply at every level?)", BaseEvaluations+EvaluationsPerNode*52)}}
	assert.Check(t, is.DeepEqual(want, violationsOf(t, err)), "Resources(exponential schema)")
}
