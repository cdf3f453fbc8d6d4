package schema

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
)

// TestDefaultsAgainstTheSchema: a default that the package's own
// params.schema.json refuses is refused by a render that uses it
// (ResolveParams), as a value would be, and listed by DefaultViolations
// (what verify reports) whether a render would use it or not.
func TestDefaultsAgainstTheSchema(t *testing.T) {
	const nodes = `{"type": "object", "properties": {
		"NODE_COUNT": {"type": "integer", "minimum": 1, "maximum": 7},
		"ZONES": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "minItems": 1},
		"TLS": {"type": "boolean"}, "CERT": {"type": "string", "minLength": 1}},
		"allOf": [{"if": {"properties": {"TLS": {"const": true}}, "required": ["TLS"]}, "then": {"properties": {"CERT": {"minLength": 10}}}}]}`
	pkg := func(schema string, ps ...*bundle.Param) *bundle.Bundle {
		return &bundle.Bundle{ParamsSchema: []byte(schema), Params: ps}
	}
	count := func(def any) *bundle.Param {
		return &bundle.Param{Name: "NODE_COUNT", Type: bundle.TypeInteger, Default: def}
	}
	cases := map[string]struct {
		reason string
		bundle *bundle.Bundle
		values map[string]any
		// render: the violations of ResolveParams; all: DefaultViolations.
		render, all []params.Violation
	}{
		"DefaultWithinTheSchema": {
			reason: "A default the schema accepts renders.",
			bundle: pkg(nodes, count("3")),
		},
		"DefaultAboveMaximum": {
			reason: "Today's bug: a default of 9 under maximum 7 rendered, and verify passed it.",
			bundle: pkg(nodes, count("9")),
			render: []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true}},
			all:    []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true}},
		},
		"ValueOverridesTheDefault": {
			reason: "A default a value replaces does not reach templates: the render goes on (a user can work around a broken default), verify still reports it.",
			bundle: pkg(nodes, count("9")),
			values: map[string]any{"NODE_COUNT": "5"},
			all:    []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true}},
		},
		"NullValueUsesTheDefault": {
			reason: "An explicit null is no value: the default is used, and checked.",
			bundle: pkg(nodes, count("9")),
			values: map[string]any{"NODE_COUNT": nil},
			render: []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true}},
			all:    []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true}},
		},
		"InsideAnArrayDefault": {
			reason: "A violation inside a default names its pointer below the parameter.",
			bundle: pkg(nodes, &bundle.Param{Name: "ZONES", Type: bundle.TypeArray, Default: []any{"a", "B-1"}}),
			render: []params.Violation{{Param: "ZONES", Msg: "default refused by params.schema.json: /1: 'B-1' does not match pattern '^[a-z]+$'", Default: true}},
			all:    []params.Violation{{Param: "ZONES", Msg: "default refused by params.schema.json: /1: 'B-1' does not match pattern '^[a-z]+$'", Default: true}},
		},
		"DefaultAgainstAValue": {
			reason: "A schema may relate parameters: with TLS given true, CERT's default is too short; without TLS it is not.",
			bundle: pkg(nodes, &bundle.Param{Name: "TLS", Type: bundle.TypeBoolean, Default: "false"}, &bundle.Param{Name: "CERT", Default: "short"}),
			values: map[string]any{"TLS": "true"},
			render: []params.Violation{{Param: "CERT", Msg: "default refused by params.schema.json: minLength: got 5, want 10", Default: true}},
		},
		"WrongTypeSaidOnce": {
			reason: "A default of the wrong type is reported once, in params.yaml's words.",
			bundle: pkg(nodes, count("nine")),
			render: []params.Violation{{Param: "NODE_COUNT", Msg: `default "nine" is not an integer`, Default: true}},
			all:    []params.Violation{{Param: "NODE_COUNT", Msg: `default refused by params.schema.json: "nine" is not an integer`, Default: true}},
		},
		"ParameterUsersCannotSet": {
			reason: "A parameter the schema does not let users set (additionalProperties: false) may have a default templates use.",
			bundle: pkg(`{"type": "object", "additionalProperties": false, "properties": {"A": {"type": "string"}}}`,
				&bundle.Param{Name: "A", Default: "a"}, &bundle.Param{Name: "INTERNAL", Default: "x"}),
		},
		"KUDONullOfAnArray": {
			reason: "The text null is KUDO's array without a value, not an array the schema would refuse.",
			bundle: pkg(`{"type": "object", "properties": {"L": {"type": "array"}}}`, &bundle.Param{Name: "L", Type: bundle.TypeArray, Default: "null"}),
		},
		"RequiredStaysForUsers": {
			reason: "`required` still means the user must give the value: the default does not satisfy it, and is not itself refused.",
			bundle: pkg(`{"type": "object", "required": ["NODE_COUNT"], "properties": {"NODE_COUNT": {"type": "integer"}}}`, count("3")),
			render: []params.Violation{{Param: "NODE_COUNT", Msg: "is required"}},
		},
		"BaseSchemaOfAnExtension": {
			reason: "An extension's defaults are checked against its schema combined with its bases'.",
			bundle: &bundle.Bundle{
				BaseParamsSchemas: [][]byte{[]byte(`{"type": "object", "properties": {"NODE_COUNT": {"type": "integer", "maximum": 5}}}`)},
				Params:            []*bundle.Param{count("6")},
			},
			render: []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 6, want 5", Default: true}},
			all:    []params.Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 6, want 5", Default: true}},
		},
		"NoSchema": {
			reason: "Without a params.schema.json, params.yaml's rules alone apply (and accept 9).",
			bundle: &bundle.Bundle{Params: []*bundle.Param{count("9")}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ResolveParams(tc.bundle, tc.values)
			var got []params.Violation
			var pe *params.Error
			if errors.As(err, &pe) {
				got = pe.Violations
			} else if err != nil {
				t.Fatalf("\n%s\nResolveParams: %v", tc.reason, err)
			}
			assert.Check(t, is.DeepEqual(tc.render, got), "%s\nResolveParams", tc.reason)
			all, err := DefaultViolations(tc.bundle)
			if err != nil {
				t.Fatalf("\n%s\nDefaultViolations: %v", tc.reason, err)
			}
			assert.Check(t, is.DeepEqual(tc.all, all), "%s\nDefaultViolations", tc.reason)
		})
	}
}

// TestDefaultViolationsOfABrokenSchema: a schema a render cannot use is an
// error for DefaultViolations too, so that verify reports it.
func TestDefaultViolationsOfABrokenSchema(t *testing.T) {
	b := &bundle.Bundle{ParamsSchema: []byte(`{"type": "object", "properties": {"A": {"type": "integr"}}}`), Params: []*bundle.Param{{Name: "A", Default: "1"}}}
	_, err := DefaultViolations(b)
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("DefaultViolations of a schema that does not compile: want a *SchemaError, got %v", err)
	}
	if _, rerr := ResolveParams(b, nil); rerr == nil || rerr.Error() != err.Error() {
		t.Errorf("the render refuses the schema with the same error: got %v, want %v", rerr, err)
	}
}
