package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/bundle"
)

// zookeeperParams is a params.yaml in the spirit of KUDO's zookeeper,
// with every parameter type.
func zookeeperParams() []*bundle.Param {
	return []*bundle.Param{
		{Name: "NODE_COUNT", DisplayName: "Nodes", Description: "Number of nodes spun up for Zookeeper.", Type: bundle.TypeInteger, Default: "3", Enum: []any{"1", "3", "5"}},
		{Name: "MEMORY", Description: "Amount of memory to provide to Zookeeper pods.", Default: "1Gi"},
		{Name: "HEAP_RATIO", Type: bundle.TypeNumber, Default: "0.5"},
		{Name: "METRICS_ENABLED", Type: bundle.TypeBoolean, Default: "false"},
		{Name: "ZONES", Type: bundle.TypeArray, Default: []any{"a", "b"}},
		{Name: "LABELS", Type: bundle.TypeMap, Default: map[string]any{"team": "data", "tier": 1}},
		{Name: "ADMIN_PASSWORD", Description: "Required, no default.", Required: true},
		{Name: "OPTIONAL_NOTE", Required: false},
		{Name: "STORAGE_CLASS", Type: bundle.TypeString, Enum: []any{"fast", "slow"}, Default: "fast"},
	}
}

func TestParamsDerivedGolden(t *testing.T) {
	got, err := Params(&bundle.Bundle{Params: zookeeperParams()})
	if err != nil {
		t.Fatalf("Params(...): %v", err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	golden.Assert(t, pretty.String(), "derived-params.golden.json")
	want := readTestdata(t, "derived-params.golden.json")
	// The golden file is indented; the result is canonical.
	if c, err := Canonical(want); err != nil || !bytes.Equal(c, got) {
		t.Errorf("Params(...) is not the canonical JSON of the golden file (err %v)", err)
	}
}

func TestParams(t *testing.T) {
	base := []byte(`{
		"type": "object",
		"additionalProperties": false,
		"required": ["A"],
		"properties": {"A": {"type": "integer", "minimum": 1}, "Z": {"$ref": "#/$defs/zone"}},
		"$defs": {"zone": {"enum": ["a", "b"]}},
		"allOf": [{"if": {"required": ["Z"]}, "then": {"required": ["A"]}}]
	}`)
	ext := []byte(`{
		"required": ["B"],
		"properties": {"A": {"type": "integer", "minimum": 3}, "B": {"type": "string"}},
		"$defs": {"size": {"type": "integer"}},
		"allOf": [{"if": {"required": ["Z"]}, "then": {"required": ["A"]}}, {"not": {"required": ["X"]}}]
	}`)
	type want struct {
		schema   string
		problems []Problem
	}
	cases := map[string]struct {
		reason string
		bundle *bundle.Bundle
		want   want
	}{
		"OwnSchemaAsWritten": {
			reason: "A bundle that is not an extension uses its params.schema.json as written, canonicalised.",
			bundle: &bundle.Bundle{
				ParamsSchema: []byte(`{ "type":"object", "properties": {"A": {"type":"integer"}} }`),
				Params:       []*bundle.Param{{Name: "A", Type: bundle.TypeInteger}, {Name: "EXTRA"}},
			},
			want: want{schema: `{"properties":{"A":{"type":"integer"}},"type":"object"}`},
		},
		"ExtensionCombinesWithBase": {
			reason: "An extension's schema merges over its base's: properties per name (extension wins), required unioned, $defs merged, allOf concatenated without repeats, additionalProperties kept; a parameter only params.yaml defines gets its derived property.",
			bundle: &bundle.Bundle{
				ParamsSchema:      ext,
				BaseParamsSchemas: [][]byte{base},
				Params: []*bundle.Param{
					{Name: "A", Type: bundle.TypeInteger, Required: true},
					{Name: "B", Required: true},
					{Name: "C", Type: bundle.TypeBoolean, Default: "true"},
					{Name: "D", Type: bundle.TypeInteger, Required: true},
					{Name: "Z"},
				},
			},
			want: want{schema: `{"$defs":{"size":{"type":"integer"},"zone":{"enum":["a","b"]}},` +
				`"additionalProperties":false,` +
				`"allOf":[{"if":{"required":["Z"]},"then":{"required":["A"]}},{"not":{"required":["X"]}}],` +
				`"properties":{"A":{"minimum":3,"type":"integer"},"B":{"type":"string"},"C":{"default":true,"type":"boolean"},"D":{"type":"integer"},"Z":{"$ref":"#/$defs/zone"}},` +
				`"required":["A","B","D"],"type":"object"}`},
		},
		"ExtensionWithoutOwnSchema": {
			reason: "An extension without params.schema.json inherits its base's (extend.Merge sets it as ParamsSchema too); the parameters the extension adds in params.yaml are added, so additionalProperties: false does not reject them.",
			bundle: &bundle.Bundle{
				ParamsSchema:      base,
				BaseParamsSchemas: [][]byte{nil, base},
				Params:            []*bundle.Param{{Name: "A", Type: bundle.TypeInteger, Required: true}, {Name: "NEW", Type: bundle.TypeNumber, Default: "1.5"}},
			},
			want: want{schema: `{"$defs":{"zone":{"enum":["a","b"]}},"additionalProperties":false,` +
				`"allOf":[{"if":{"required":["Z"]},"then":{"required":["A"]}}],` +
				`"properties":{"A":{"minimum":1,"type":"integer"},"NEW":{"default":1.5,"type":"number"},"Z":{"$ref":"#/$defs/zone"}},` +
				`"required":["A"],"type":"object"}`},
		},
		"ExtensionOverBaseWithoutSchema": {
			reason: "An extension's schema over a base without one describes the base's parameters by their derived properties.",
			bundle: &bundle.Bundle{
				ParamsSchema:      []byte(`{"properties": {"B": {"type": "string", "minLength": 2}}}`),
				BaseParamsSchemas: [][]byte{nil},
				Params:            []*bundle.Param{{Name: "A", Type: bundle.TypeInteger, Required: true}, {Name: "B", Default: "bb"}},
			},
			want: want{schema: `{"properties":{"A":{"type":"integer"},"B":{"minLength":2,"type":"string"}},"required":["A"]}`},
		},
		"DialectsDiffer": {
			reason: "Layers of different dialects are not combined.",
			bundle: &bundle.Bundle{
				ParamsSchema:      []byte(`{"$schema": "http://json-schema.org/draft-07/schema#"}`),
				BaseParamsSchemas: [][]byte{[]byte(`{}`)},
			},
			want: want{problems: []Problem{{File: "params.schema.json", Field: "/$schema",
				Msg: "dialect http://json-schema.org/draft-07/schema differs from https://json-schema.org/draft/2020-12/schema of base/params.schema.json: schemas of one chain must share their dialect to be combined"}}},
		},
		"BaseSchemaInvalid": {
			reason: "A base's schema that does not compile is reported under its own name.",
			bundle: &bundle.Bundle{
				ParamsSchema:      ext,
				BaseParamsSchemas: [][]byte{[]byte(`{"properties": {"A": {"type": "integr"}}}`), nil},
			},
			want: want{problems: []Problem{{File: "base/base/params.schema.json", Field: "/properties/A/type",
				Msg: `is not a valid schema: 'anyOf' failed: (1) value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (2) got string, want array`}}},
		},
		"NotAnObject": {
			reason: "A params.schema.json must be a JSON object.",
			bundle: &bundle.Bundle{ParamsSchema: []byte(`true`)},
			want: want{problems: []Problem{{File: "params.schema.json",
				Msg: "must be a JSON object (a schema of the parameters object), not a boolean"}}},
		},
		"SyntaxError": {
			reason: "A JSON syntax error is reported with its line.",
			bundle: &bundle.Bundle{ParamsSchema: []byte("{\n  \"type\": \"object\",\n  \"properties\": {,}\n}")},
			want: want{problems: []Problem{{File: "params.schema.json", Line: 3,
				Msg: "invalid character ','"}}},
		},
		"DuplicateKey": {
			reason: "A key written twice is an error: which one wins would depend on the reader.",
			bundle: &bundle.Bundle{ParamsSchema: []byte("{\n\"type\": \"object\",\n\"type\": \"string\"}")},
			want:   want{problems: []Problem{{File: "params.schema.json", Line: 3, Msg: `duplicate key "type"`}}},
		},
		"UnknownParamType": {
			reason: "A derived schema needs a known parameter type.",
			bundle: &bundle.Bundle{Params: []*bundle.Param{{Name: "X", Type: "float", Pos: bundle.Pos{File: "params.yaml", Line: 7}}}},
			want: want{problems: []Problem{{File: "params.yaml", Line: 7, Field: "X",
				Msg: `has unknown type "float" (want string, integer, number, boolean, array or map)`}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Params(tc.bundle)
			assert.Check(t, is.DeepEqual(tc.want.problems, problemsOf(t, err)), "%s\nParams(...)", tc.reason)
			assert.Check(t, is.DeepEqual(tc.want.schema, string(got)), "%s\nParams(...)", tc.reason)
		})
	}
}

func TestValidateParams(t *testing.T) {
	full := readTestdata(t, "params.schema.json")
	withSchema := &bundle.Bundle{ParamsSchema: full, Params: []*bundle.Param{{Name: "NODE_COUNT", Type: bundle.TypeString}}}
	derived := &bundle.Bundle{Params: zookeeperParams()}
	extension := &bundle.Bundle{
		ParamsSchema:      []byte(`{"properties": {"A": {"type": "integer", "minimum": 3}}}`),
		BaseParamsSchemas: [][]byte{[]byte(`{"type": "object", "additionalProperties": false, "properties": {"A": {"type": "integer"}}, "required": ["A"]}`)},
		Params:            []*bundle.Param{{Name: "A", Type: bundle.TypeInteger, Required: true}, {Name: "ADDED", Type: bundle.TypeBoolean, Default: "false"}},
	}

	cases := map[string]struct {
		reason string
		bundle *bundle.Bundle
		values map[string]any
		want   []Violation
	}{
		"SchemaPasses": {
			reason: "Values given as text are converted to the schema's types before validation; arrays and objects may be YAML text.",
			bundle: withSchema,
			values: map[string]any{
				"NODE_COUNT": "3", "ADMIN_EMAIL": "ops@example.com", "STORAGE_CLASS": "fast-ssd",
				"METRICS_ENABLED": "true", "HEAP_RATIO": "0.75", "ZONES": []any{"a", "b"},
				"RESOURCES": "{cpu: 500m, memory: 1Gi}", "CA_BUNDLE": "aGVsbG8=", "MODE": "safe",
			},
		},
		"SchemaTypeWinsOverParamsYAML": {
			reason: "The schema says NODE_COUNT is an integer although params.yaml says string: 3 is converted and checked against maximum.",
			bundle: withSchema,
			values: map[string]any{"NODE_COUNT": "9", "ADMIN_EMAIL": "ops@example.com"},
			want:   []Violation{{Pointer: "/NODE_COUNT", Message: "maximum: got 9, want 7"}},
		},
		"EveryViolationReported": {
			reason: "Every violation is reported at once, each with its JSON pointer, sorted by pointer.",
			bundle: withSchema,
			values: map[string]any{
				"NODE_COUNT": "nine", "ADMIN_EMAIL": "root", "METRICS_ENABLED": "yes", "ZONES": "[a, a]",
				"RESOURCES": map[string]any{"cpu": "lots", "gpu": 1}, "CA_BUNDLE": "not base64!", "HEAP_RATIO": "1.5",
				"NODE_CONT": "3", "MODE": "slow", "STORAGE_CLASS": "Fast_SSD",
			},
			want: []Violation{
				{Pointer: "/ADMIN_EMAIL", Message: "'root' is not valid email: missing @"},
				{Pointer: "/CA_BUNDLE", Message: "value is not 'base64' encoded: illegal base64 data at input byte 3"},
				{Pointer: "/HEAP_RATIO", Message: "exclusiveMaximum: got 1.5, want 1"},
				{Pointer: "/METRICS_ENABLED", Message: `"yes" is not a boolean`},
				{Pointer: "/MODE", Message: "value must be one of 'fast', 'safe'"},
				{Pointer: "/NODE_CONT", Message: "is not a parameter of this package; did you mean NODE_COUNT?"},
				{Pointer: "/NODE_COUNT", Message: `"nine" is not an integer`},
				{Pointer: "/RESOURCES/cpu", Message: "'lots' does not match pattern '^[0-9]+m?$'"},
				{Pointer: "/RESOURCES/gpu", Message: "is not allowed by the schema (additionalProperties)"},
				{Pointer: "/STORAGE_CLASS", Message: "'Fast_SSD' does not match pattern '^[a-z0-9-]+$'"},
				{Pointer: "/ZONES", Message: "items at 0 and 1 are equal"},
			},
		},
		"RequiredAndNil": {
			reason: "Required parameters must be given; a nil value is no value.",
			bundle: withSchema,
			values: map[string]any{"NODE_COUNT": nil, "ZONES": []any{}},
			want: []Violation{
				{Pointer: "/ADMIN_EMAIL", Message: "is required"},
				{Pointer: "/NODE_COUNT", Message: "is required"},
				{Pointer: "/ZONES", Message: "minItems: got 0, want 1"},
			},
		},
		"DerivedPasses": {
			reason: "The schema derived from params.yaml accepts the literal text of each type.",
			bundle: derived,
			values: map[string]any{
				"NODE_COUNT": "5", "HEAP_RATIO": "1e-1", "METRICS_ENABLED": "True", "ZONES": "[x]",
				"LABELS": map[string]any{"a": "b"}, "ADMIN_PASSWORD": "s3cret", "STORAGE_CLASS": "slow",
			},
		},
		"DerivedFails": {
			reason: "The derived schema checks type, enum, required and unknown parameters.",
			bundle: derived,
			values: map[string]any{
				"NODE_COUNT": "4", "HEAP_RATIO": "half", "METRICS_ENABLED": 2, "ZONES": "{a: b}",
				"LABELS": "[a]", "STORAGE_CLASS": "medium", "node_count": "3", "ENTIRELY_UNKNOWN": "x",
			},
			want: []Violation{
				{Pointer: "/ADMIN_PASSWORD", Message: "is required"},
				{Pointer: "/ENTIRELY_UNKNOWN", Message: "is not a parameter of this package"},
				{Pointer: "/HEAP_RATIO", Message: `"half" is not a number`},
				{Pointer: "/LABELS", Message: `"[a]" is not an object`},
				{Pointer: "/METRICS_ENABLED", Message: "got number, want boolean"},
				{Pointer: "/NODE_COUNT", Message: "value must be one of 1, 3, 5"},
				{Pointer: "/STORAGE_CLASS", Message: "value must be one of 'fast', 'slow'"},
				{Pointer: "/ZONES", Message: `"{a: b}" is not an array`},
				{Pointer: "/node_count", Message: "is not a parameter of this package; did you mean NODE_COUNT?"},
			},
		},
		"ExtensionAddsParameter": {
			reason: "A parameter the extension adds passes the base's additionalProperties: false; the extension's minimum applies.",
			bundle: extension,
			values: map[string]any{"A": "2", "ADDED": "true"},
			want:   []Violation{{Pointer: "/A", Message: "minimum: got 2, want 3"}},
		},
		"TooDeep": {
			reason: "A value nested deeper than MaxDepth is refused before validation.",
			bundle: &bundle.Bundle{Params: []*bundle.Param{{Name: "DEEP", Type: bundle.TypeArray}}},
			values: map[string]any{"DEEP": nested(MaxDepth + 5)},
			want:   []Violation{{Pointer: "/DEEP" + repeatPtr("/0", MaxDepth-1), Message: "nested too deep: more than 64 levels"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := ValidateParams(tc.bundle, tc.values)
			assert.Check(t, is.DeepEqual(tc.want, violationsOf(t, err)), "%s\nValidateParams(...)", tc.reason)
		})
	}
}

// nested returns n arrays nested into each other.
func nested(n int) any {
	var v any = "leaf"
	for range n {
		v = []any{v}
	}
	return v
}

func repeatPtr(tok string, n int) string {
	var b bytes.Buffer
	for range n {
		b.WriteString(tok)
	}
	return b.String()
}

func TestValidateParamsConcurrently(t *testing.T) {
	// Every call compiles its own schema (validation counts evaluations in
	// it), so concurrent calls share nothing mutable; run with -race.
	// One of them refers to the embedded meta-schema, which each compiler
	// loads for itself.
	b := &bundle.Bundle{ParamsSchema: readTestdata(t, "params.schema.json")}
	meta := &bundle.Bundle{ParamsSchema: []byte(`{"properties": {"S": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}`)}
	errs := make(chan error, 8)
	metaErrs := make(chan error, 8)
	for range 8 {
		go func() {
			errs <- ValidateParams(b, map[string]any{"NODE_COUNT": "9", "ADMIN_EMAIL": "a@b.c", "P2": map[string]any{"$ref": "x"}})
		}()
		go func() {
			metaErrs <- ValidateParams(meta, map[string]any{"S": map[string]any{"type": "string", "minLength": 1}})
		}()
	}
	for range 8 {
		if err := <-metaErrs; err != nil {
			t.Errorf("ValidateParams(schema valued parameter): %v", err)
		}
		want := []Violation{
			{Pointer: "/NODE_COUNT", Message: "maximum: got 9, want 7"},
			{Pointer: "/P2", Message: "is not a parameter of this package"},
		}
		assert.Check(t, is.DeepEqual(want, violationsOf(t, <-errs)), "ValidateParams(...) concurrently")
	}
}
