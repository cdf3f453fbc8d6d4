package params

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
)

// fuzzValue turns fuzz text into a parameter value. Text starting with
// "yaml:" is decoded as YAML so that collections, nulls and map[any]any
// keys reach Resolve too; anything else is scalar text.
func fuzzValue(s string) any {
	rest, ok := strings.CutPrefix(s, "yaml:")
	if !ok {
		return s
	}
	var v any
	if err := yaml.Unmarshal([]byte(rest), &v); err != nil {
		return rest
	}
	return v
}

func FuzzResolve(f *testing.F) {
	// typ, default, hasDefault, value, hasValue, enum (comma-separated),
	// required, extra name (a value for a name that may not be defined).
	f.Add("integer", "1000000", true, "abc", true, "", false, "")
	f.Add("integer", "3", true, "", false, "1,3,5", true, "NODE_CONT")
	f.Add("number", "1e3", true, "0.5", true, "", false, "p")
	f.Add("boolean", "true", true, "maybe", true, "true,false", false, "P")
	f.Add("string", "", false, "", false, "", true, "")
	f.Add("", "x", true, "yaml:[a, b]", true, "", false, "")
	f.Add("array", "[a, b]", true, "yaml:- a\n- {1: x}", true, "", false, "")
	f.Add("array", "a", true, "- a\n---\n- b", true, "", false, "q")
	f.Add("map", "{a: 1}", true, "yaml:{1: a, \"1\": b}", true, "", false, "")
	f.Add("map", "yaml:? [a]\n: b", true, "a: [1, {b: c}]", true, "", false, "")
	f.Add("map", "", false, "", false, "", false, "")
	f.Add("float", "1", true, "1", true, "", false, "")
	f.Add("string", "s", true, "yaml:~", true, "s,m,l", false, "P ")
	f.Add("integer", "99999999999999999999", true, "yaml:1e6", true, "", true, "p")

	f.Fuzz(func(t *testing.T, typ, def string, hasDef bool, val string, hasVal bool, enum string, required bool, extra string) {
		p := &bundle.Param{Name: "P", Type: bundle.ParamType(typ), Required: required}
		if hasDef {
			p.Default = fuzzValue(def)
		}
		if enum != "" {
			for _, e := range strings.Split(enum, ",") {
				p.Enum = append(p.Enum, fuzzValue(e))
			}
		}
		defs := []*bundle.Param{
			p,
			{Name: "FIXED", Type: bundle.TypeInteger, Default: "1000000"},
			{Name: "OPTIONAL", Type: bundle.TypeArray},
		}
		values := map[string]any{}
		if hasVal {
			values["P"] = fuzzValue(val)
		}
		if extra != "" {
			values[extra] = fuzzValue(val)
		}

		got, err := Resolve(defs, values)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Resolve(...): want *Error, got %T: %v", err, err)
			}
			if len(e.Violations) == 0 {
				t.Fatalf("Resolve(...): *Error without violations")
			}
			if got != nil {
				t.Fatalf("Resolve(...): values %v returned with an error", got)
			}
			_ = e.Error()
			return
		}
		for _, d := range defs {
			v, ok := got[d.Name]
			if !ok {
				t.Fatalf("Resolve(...) succeeded without defined parameter %q: %v", d.Name, got)
			}
			switch d.Type {
			case bundle.TypeArray:
				if _, isList := v.([]any); v != nil && !isList {
					t.Fatalf("array parameter %q is %T", d.Name, v)
				}
			case bundle.TypeMap:
				if _, isMap := v.(map[string]any); v != nil && !isMap {
					t.Fatalf("map parameter %q is %T", d.Name, v)
				}
			default:
				if _, isString := v.(string); !isString {
					t.Fatalf("scalar parameter %q is %T, want string", d.Name, v)
				}
			}
		}
		if got["FIXED"] != "1000000" {
			t.Fatalf("FIXED = %v, want 1000000", got["FIXED"])
		}
		if len(got) != len(defs) {
			t.Fatalf("Resolve(...) returned %d values for %d parameters: %v", len(got), len(defs), got)
		}
	})
}
