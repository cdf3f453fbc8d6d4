package schema

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/bundle"
)

// fuzzTimeout is how long one fuzz input may take.
const fuzzTimeout = 5 * time.Second

// FuzzLoadDefinitions feeds arbitrary files to LoadDefinitions and the
// loaded definitions to Resources: no panic, no hang, only the documented
// error types, and schemas that are canonical JSON.
func FuzzLoadDefinitions(f *testing.F) {
	for _, name := range []string{"topic.yaml", "user.yaml"} {
		b, err := os.ReadFile("testdata/definitions/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		header + "schema: {}\n",
		header + "schema: {unique: [a], properties: {a: {type: string}}}\n",
		header + "schema: {$ref: '#'}\n",
		header + "schema: {$ref: 'file:///dev/zero'}\n",
		header + "schema: {$ref: '/dev/zero'}\n",
		header + "schema: {$schema: 'http://json-schema.org/draft-07/schema#', items: [{type: string}]}\n",
		header + "schema: {properties: {a: {unique: [x]}}}\n",
		header + "schema: {format: emial, pattern: '(['}\n",
		header + "schema: " + strings.Repeat("{items: ", 80) + "{}" + strings.Repeat("}", 80) + "\n",
		header + "schema:\n  $defs:\n    a: &a [x, x, x, x]\n    b: &b [*a, *a, *a, *a]\n    c: [*b, *b, *b, *b]\n",
		header + "schema: {items: {allOf: [{$ref: '#'}, {$ref: '#'}]}}\n",
		header + "schema: {<<: {type: string}}\n",
		header + "schema: {minimum: .inf, maximum: 0x1F, multipleOf: 1_0}\n",
		header + "---\n" + header,
		"name: [\n",
		"- a\n- b\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var defs []*Definition
		var loadErr, resErr error
		var canonical []bool
		within(t, fuzzTimeout, func() {
			defs, loadErr = LoadDefinitions(&bundle.Bundle{Definitions: map[string][]byte{"f.yaml": data}})
			var res []map[string]any
			for _, d := range defs {
				c, err := Canonical(d.Schema)
				canonical = append(canonical, err == nil && bytes.Equal(c, d.Schema))
				res = append(res, map[string]any{
					"apiVersion": "f.kudorender.dev/" + d.Version, "kind": d.Name,
					"metadata": map[string]any{"name": "x"}, "spec": map[string]any{"a": "b"},
				})
			}
			if loadErr == nil {
				_, resErr = Resources("f", defs, res, nil)
			}
		})
		if loadErr != nil {
			var de *DefinitionsError
			if !errors.As(loadErr, &de) || len(de.Problems) == 0 {
				t.Fatalf("LoadDefinitions: want *DefinitionsError with problems, got %T: %v", loadErr, loadErr)
			}
			return
		}
		for i, ok := range canonical {
			if !ok {
				t.Errorf("definition %d: Schema is not canonical JSON: %s", i, defs[i].Schema)
			}
		}
		if resErr != nil {
			var ve *ValidationError
			if !errors.As(resErr, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("Resources: want *ValidationError with violations, got %T: %v", resErr, resErr)
			}
		}
	})
}

// FuzzParamsSchema feeds arbitrary params.schema.json and a parameter
// value to Params and ValidateParams: no panic, no hang, only the
// documented error types, and a canonical result.
func FuzzParamsSchema(f *testing.F) {
	full, err := os.ReadFile("testdata/params.schema.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full, "NODE_COUNT", "3")
	f.Add(full, "RESOURCES", "{cpu: lots}")
	f.Add([]byte(`{"$ref": "#"}`), "P", "x")
	f.Add([]byte(`{"$ref": "file:///dev/zero"}`), "P", "x")
	f.Add([]byte(`{"properties": {"P": {"$ref": "http://example.com/x"}}}`), "P", "x")
	f.Add([]byte(deepItems(100)), "P", "[[[[a]]]]")
	f.Add([]byte(laughs(30)), "P", "x")
	f.Add([]byte(`{"properties": {"P": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"items": {"allOf": [{"$ref": "#/$defs/x"}, {"$ref": "#/$defs/x"}]}}}}`), "P", strings.Repeat("[", 60)+strings.Repeat("]", 60))
	f.Add([]byte(`{"properties": {"P": {"type": "integer", "multipleOf": 0.0001}}}`), "P", "1e308")
	f.Add([]byte(`{"properties": {"P": {"contentMediaType": "application/json", "contentSchema": {"type": "object"}}}}`), "P", `{"a": [1, {"b": 2}]}`)
	f.Add([]byte(`{"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"P": {"type": "integer", "maximum": 3, "exclusiveMaximum": true}}}`), "P", "3")
	f.Add([]byte(`{"properties": {"P": {"type": ["integer", "boolean"]}}}`), "P", "yes")
	f.Add([]byte(`true`), "P", "x")
	f.Add([]byte(`{"a": 1, "a": 2}`), "P", "x")
	f.Fuzz(func(t *testing.T, schema []byte, name, value string) {
		b := &bundle.Bundle{ParamsSchema: schema, Params: []*bundle.Param{{Name: name, Type: bundle.TypeInteger}}}
		var out []byte
		var paramsErr, validateErr error
		within(t, fuzzTimeout, func() {
			out, paramsErr = Params(b)
			validateErr = ValidateParams(b, map[string]any{name: value, "other": []any{value}})
		})
		if paramsErr != nil {
			var se *SchemaError
			if !errors.As(paramsErr, &se) || len(se.Problems) == 0 {
				t.Fatalf("Params: want *SchemaError with problems, got %T: %v", paramsErr, paramsErr)
			}
			if validateErr == nil || !errors.As(validateErr, &se) {
				t.Fatalf("ValidateParams accepts a schema Params refuses: %v", validateErr)
			}
			return
		}
		if c, err := Canonical(out); err != nil || !bytes.Equal(c, out) {
			t.Errorf("Params: result is not canonical JSON (%v): %s", err, out)
		}
		if validateErr != nil {
			var ve *ValidationError
			if !errors.As(validateErr, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("ValidateParams: want *ValidationError with violations, got %T: %v", validateErr, validateErr)
			}
		}
	})
}
