package params

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestKUDORules mirrors KUDO v0.19's parameter handling, rule by rule:
// the reason names the KUDO source it follows (kudobuilder/kudo), or says
// why kudo-render differs on purpose.
func TestKUDORules(t *testing.T) {
	req := true
	cases := []struct {
		reason string
		def    bundle.Param
		value  any  // nil and absent differ: see given
		given  bool // the value is given
		want   any
		err    string
	}{
		{"reader/parser.go: required defaults to true; a required parameter without a default and without a value is missing (install/package.go validateParameters)",
			bundle.Param{Name: "P", Required: req}, nil, false, nil, "P: is required"},
		{"a required parameter with a default takes the default (ParamsMap)",
			bundle.Param{Name: "P", Required: req, Default: "d"}, nil, false, "d", ""},
		{"convert.WrapParamValue: an array without a default is the text null, so it has a default and is never missing; templates see nothing",
			bundle.Param{Name: "P", Required: req, Type: bundle.TypeArray}, nil, false, nil, ""},
		{"the same for a map",
			bundle.Param{Name: "P", Required: req, Type: bundle.TypeMap}, nil, false, nil, ""},
		{"an explicit null for an array is accepted (UnwrapParamValue of the text null)",
			bundle.Param{Name: "P", Type: bundle.TypeArray, Default: []any{"a"}}, nil, true, nil, ""},
		{"the text null for an array is accepted (validateArrayType unmarshals it)",
			bundle.Param{Name: "P", Type: bundle.TypeArray}, "null", true, nil, ""},
		{"an empty text for a map is accepted (validateMapType unmarshals it)",
			bundle.Param{Name: "P", Type: bundle.TypeMap}, "", true, nil, ""},
		{"an array value is YAML text, unwrapped (UnwrapParamValue, ToYAMLArray)",
			bundle.Param{Name: "P", Type: bundle.TypeArray}, "[a, b]", true, []any{"a", "b"}, ""},
		{"a map value that is not a map is refused (validateMapType)",
			bundle.Param{Name: "P", Type: bundle.TypeMap}, "[a]", true, nil, "P: \"[a]\" is not a map"},
		{"an integer value must parse in base 10 (validateIntegerType, strconv.ParseInt(v, 10, 64))",
			bundle.Param{Name: "P", Type: bundle.TypeInteger}, "0x10", true, nil, "P: \"0x10\" is not an integer"},
		{"a number parses as a float (validateNumberType)",
			bundle.Param{Name: "P", Type: bundle.TypeNumber}, "1e3", true, "1e3", ""},
		{"a boolean parses with strconv.ParseBool (validateBooleanType): T is true",
			bundle.Param{Name: "P", Type: bundle.TypeBoolean}, "T", true, "T", ""},
		{"yes is not a boolean for ParseBool",
			bundle.Param{Name: "P", Type: bundle.TypeBoolean}, "yes", true, nil, "P: \"yes\" is not a boolean"},
		{"ValidateValue: an empty value is taken as it is, without a type check, and wins over the default (ParamsMap)",
			bundle.Param{Name: "P", Type: bundle.TypeInteger, Default: "3"}, "", true, "", ""},
		{"ValidateValue: an empty value skips the enum check too",
			bundle.Param{Name: "P", Enum: []any{"a", "b"}, Default: "a"}, "", true, "", ""},
		{"ValidateValue: an empty value for a required parameter without default is refused",
			bundle.Param{Name: "P", Required: req}, "", true, nil, "P: is required (the value is empty)"},
		{"ValidateParameterValueForEnum: a value must be one of the enum values",
			bundle.Param{Name: "P", Enum: []any{"a", "b"}}, "c", true, nil, "P: \"c\" is not one of the allowed values: \"a\", \"b\""},
		{"scalars reach templates as text (UnwrapParamValue: StringValue)",
			bundle.Param{Name: "P", Type: bundle.TypeInteger}, "7", true, "7", ""},
		{"differs on purpose: a default keeps the text it was written with (KUDO's %v of a float64 turned 1000000 into 1e+06)",
			bundle.Param{Name: "P", Type: bundle.TypeInteger, Default: "1000000"}, nil, false, "1000000", ""},
		{"differs on purpose: an explicit null for a scalar is no value (KUDO's map[string]string cannot hold one)",
			bundle.Param{Name: "P", Default: "d"}, nil, true, "d", ""},
	}
	for _, tc := range cases {
		values := map[string]any{}
		if tc.given {
			values["P"] = tc.value
		}
		def := tc.def
		got, err := Resolve([]*bundle.Param{&def}, values)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s:\n  got %v, want an error with %q", tc.reason, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s:\n  %v", tc.reason, err)
			continue
		}
		assert.Check(t, is.DeepEqual(tc.want, got["P"]), "%s", tc.reason)
	}
}
