package params

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
)

// violations returns the violations of an error from Resolve, failing the
// test when the error is not an *Error.
func violations(t *testing.T, err error) []Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Resolve(...): want *Error, got %T: %v", err, err)
	}
	if len(e.Violations) == 0 {
		t.Fatalf("Resolve(...): *Error without violations")
	}
	return e.Violations
}

func TestResolve(t *testing.T) {
	type args struct {
		defs   []*bundle.Param
		values map[string]any
	}
	type want struct {
		values     Values
		violations []Violation
	}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"NoDefinitions": {
			reason: "A package without parameters resolves to an empty view.",
			args:   args{},
			want:   want{values: Values{}},
		},
		"StringDefault": {
			reason: "A string parameter without a value uses its default.",
			args: args{defs: []*bundle.Param{
				{Name: "IMAGE", Type: bundle.TypeString, Default: "nginx:1.27"},
			}},
			want: want{values: Values{"IMAGE": "nginx:1.27"}},
		},
		"EmptyTypeIsString": {
			reason: "An empty type means string: any scalar text is accepted as is.",
			args: args{
				defs:   []*bundle.Param{{Name: "NAME", Default: "x"}},
				values: map[string]any{"NAME": " anything: at all "},
			},
			want: want{values: Values{"NAME": " anything: at all "}},
		},
		"UserValueOverridesDefault": {
			reason: "A user value wins over the default.",
			args: args{
				defs:   []*bundle.Param{{Name: "IMAGE", Type: bundle.TypeString, Default: "nginx:1.27"}},
				values: map[string]any{"IMAGE": "nginx:1.28"},
			},
			want: want{values: Values{"IMAGE": "nginx:1.28"}},
		},
		"NilValueFallsBackToDefault": {
			reason: "A nil user value (e.g. `KEY: null` in a FunctionConfig) is no value: the default applies.",
			args: args{
				defs:   []*bundle.Param{{Name: "IMAGE", Default: "nginx"}},
				values: map[string]any{"IMAGE": nil},
			},
			want: want{values: Values{"IMAGE": "nginx"}},
		},
		"StringGivenGoScalars": {
			reason: "Go numbers and booleans given to a string parameter become their canonical text.",
			args: args{
				defs: []*bundle.Param{
					{Name: "A", Type: bundle.TypeString, Required: true},
					{Name: "B", Type: bundle.TypeString, Required: true},
					{Name: "C", Type: bundle.TypeString, Required: true},
				},
				values: map[string]any{"A": 42, "B": true, "C": 0.5},
			},
			want: want{values: Values{"A": "42", "B": "true", "C": "0.5"}},
		},
		"StringGivenList": {
			reason: "A string parameter given a list is a violation.",
			args: args{
				defs:   []*bundle.Param{{Name: "NAME", Type: bundle.TypeString, Required: true}},
				values: map[string]any{"NAME": []any{"a"}},
			},
			want: want{violations: []Violation{{Param: "NAME", Msg: "is a list, not a string"}}},
		},
		"StringGivenMap": {
			reason: "A string parameter given a map is a violation.",
			args: args{
				defs:   []*bundle.Param{{Name: "NAME", Required: true}},
				values: map[string]any{"NAME": map[string]any{"a": "b"}},
			},
			want: want{violations: []Violation{{Param: "NAME", Msg: "is a map, not a string"}}},
		},
		"IntegerKeepsText": {
			reason: "An integer default keeps the text it was written with: 1000000, never 1e+06.",
			args: args{defs: []*bundle.Param{
				{Name: "HEAP", Type: bundle.TypeInteger, Default: "1000000"},
				{Name: "SIGNED", Type: bundle.TypeInteger, Default: "-7"},
			}},
			want: want{values: Values{"HEAP": "1000000", "SIGNED": "-7"}},
		},
		"IntegerFromFloat64": {
			reason: "A float64 1e6 (as JSON decoding gives) becomes \"1000000\", not \"1e+06\".",
			args: args{
				defs:   []*bundle.Param{{Name: "HEAP", Type: bundle.TypeInteger, Default: "1"}},
				values: map[string]any{"HEAP": float64(1e6)},
			},
			want: want{values: Values{"HEAP": "1000000"}},
		},
		"IntegerFromGoInts": {
			reason: "Go integers of any size are accepted for integer parameters.",
			args: args{
				defs: []*bundle.Param{
					{Name: "A", Type: bundle.TypeInteger, Required: true},
					{Name: "B", Type: bundle.TypeInteger, Required: true},
					{Name: "C", Type: bundle.TypeInteger, Required: true},
				},
				values: map[string]any{"A": 3, "B": int64(math.MaxInt64), "C": uint8(7)},
			},
			want: want{values: Values{"A": "3", "B": "9223372036854775807", "C": "7"}},
		},
		"IntegerFromJSONNumber": {
			reason: "A json.Number is scalar text like any string type.",
			args: args{
				defs:   []*bundle.Param{{Name: "A", Type: bundle.TypeInteger, Required: true}},
				values: map[string]any{"A": json.Number("12")},
			},
			want: want{values: Values{"A": "12"}},
		},
		"IntegerNotANumber": {
			reason: "Text that strconv.ParseInt rejects is not an integer.",
			args: args{
				defs:   []*bundle.Param{{Name: "NODE_COUNT", Type: bundle.TypeInteger, Default: "3"}},
				values: map[string]any{"NODE_COUNT": "abc"},
			},
			want: want{violations: []Violation{{Param: "NODE_COUNT", Msg: `"abc" is not an integer`}}},
		},
		"IntegerFraction": {
			reason: "A float64 with a fraction is not an integer, and the message shows it without an exponent.",
			args: args{
				defs:   []*bundle.Param{{Name: "N", Type: bundle.TypeInteger, Default: "3"}},
				values: map[string]any{"N": 1.5},
			},
			want: want{violations: []Violation{{Param: "N", Msg: `"1.5" is not an integer`}}},
		},
		"IntegerUnderscoresAndHex": {
			reason: "Integers are base 10 only: YAML-ish 1_000 and 0x10 are not accepted.",
			args: args{
				defs: []*bundle.Param{
					{Name: "A", Type: bundle.TypeInteger, Required: true},
					{Name: "B", Type: bundle.TypeInteger, Required: true},
				},
				values: map[string]any{"A": "1_000", "B": "0x10"},
			},
			want: want{violations: []Violation{
				{Param: "A", Msg: `"1_000" is not an integer`},
				{Param: "B", Msg: `"0x10" is not an integer`},
			}},
		},
		"IntegerOutOfRange": {
			reason: "An integer beyond 64 bits is a violation that says so.",
			args: args{
				defs:   []*bundle.Param{{Name: "N", Type: bundle.TypeInteger, Required: true}},
				values: map[string]any{"N": "99999999999999999999"},
			},
			want: want{violations: []Violation{{Param: "N", Msg: `"99999999999999999999" is out of range for a 64-bit integer`}}},
		},
		"NumberKeepsText": {
			reason: "Number values keep the text as written.",
			args: args{
				defs: []*bundle.Param{
					{Name: "RATIO", Type: bundle.TypeNumber, Default: "0.75"},
					{Name: "BIG", Type: bundle.TypeNumber, Default: "1e3"},
					{Name: "MILLION", Type: bundle.TypeNumber, Required: true},
				},
				values: map[string]any{"MILLION": 1000000.0},
			},
			want: want{values: Values{"RATIO": "0.75", "BIG": "1e3", "MILLION": "1000000"}},
		},
		"NumberInvalid": {
			reason: "Text that strconv.ParseFloat rejects is not a number.",
			args: args{
				defs:   []*bundle.Param{{Name: "RATIO", Type: bundle.TypeNumber, Required: true}},
				values: map[string]any{"RATIO": "three quarters"},
			},
			want: want{violations: []Violation{{Param: "RATIO", Msg: `"three quarters" is not a number`}}},
		},
		"NumberOutOfRange": {
			reason: "A number beyond float64 is a violation that says so.",
			args: args{
				defs:   []*bundle.Param{{Name: "RATIO", Type: bundle.TypeNumber, Required: true}},
				values: map[string]any{"RATIO": "1e400"},
			},
			want: want{violations: []Violation{{Param: "RATIO", Msg: `"1e400" is out of range for a 64-bit number`}}},
		},
		"Boolean": {
			reason: "Boolean values reach templates as text, as written, so `eq .Params.X \"true\"` works.",
			args: args{
				defs: []*bundle.Param{
					{Name: "ENABLED", Type: bundle.TypeBoolean, Default: "true"},
					{Name: "DEBUG", Type: bundle.TypeBoolean, Default: "true"},
					{Name: "TLS", Type: bundle.TypeBoolean, Default: "false"},
				},
				values: map[string]any{"DEBUG": false, "TLS": "True"},
			},
			want: want{values: Values{"ENABLED": "true", "DEBUG": "false", "TLS": "True"}},
		},
		"BooleanInvalid": {
			reason: "Text that strconv.ParseBool rejects, including YAML 1.1's yes, is not a boolean.",
			args: args{
				defs: []*bundle.Param{
					{Name: "ENABLED", Type: bundle.TypeBoolean, Default: "true"},
					{Name: "DEBUG", Type: bundle.TypeBoolean, Default: "true"},
				},
				values: map[string]any{"ENABLED": "maybe", "DEBUG": "yes"},
			},
			want: want{violations: []Violation{
				{Param: "ENABLED", Msg: `"maybe" is not a boolean (want true or false)`},
				{Param: "DEBUG", Msg: `"yes" is not a boolean (want true or false)`},
			}},
		},
		"ScalarGivenToBooleanAsList": {
			reason: "A boolean parameter given a list is a violation.",
			args: args{
				defs:   []*bundle.Param{{Name: "ENABLED", Type: bundle.TypeBoolean, Default: "true"}},
				values: map[string]any{"ENABLED": []any{true}},
			},
			want: want{violations: []Violation{{Param: "ENABLED", Msg: "is a list, not a boolean"}}},
		},
		"ArrayFromList": {
			reason: "An array given as a list is copied into []any.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": []any{"a", 1}},
			},
			want: want{values: Values{"ZONES": []any{"a", 1}}},
		},
		"ArrayFromGoSlice": {
			reason: "Other Go slices are accepted as lists.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": []string{"a", "b"}},
			},
			want: want{values: Values{"ZONES": []any{"a", "b"}}},
		},
		"ArrayFromText": {
			reason: "An array may be written as YAML flow, YAML block or JSON text; it reaches templates parsed.",
			args: args{
				defs: []*bundle.Param{
					{Name: "FLOW", Type: bundle.TypeArray, Required: true},
					{Name: "BLOCK", Type: bundle.TypeArray, Required: true},
					{Name: "JSON", Type: bundle.TypeArray, Required: true},
				},
				values: map[string]any{
					"FLOW":  "[a, 2]",
					"BLOCK": "- a\n- b: c\n",
					"JSON":  `["a", {"b": true}]`,
				},
			},
			want: want{values: Values{
				"FLOW":  []any{"a", 2},
				"BLOCK": []any{"a", map[string]any{"b": "c"}},
				"JSON":  []any{"a", map[string]any{"b": true}},
			}},
		},
		"ArrayDefault": {
			reason: "An array default decoded by package bundle is used as is; nested map keys become strings.",
			args: args{defs: []*bundle.Param{
				{Name: "ZONES", Type: bundle.TypeArray, Default: []any{"a", map[any]any{1: "one"}}},
			}},
			want: want{values: Values{"ZONES": []any{"a", map[string]any{"1": "one"}}}},
		},
		"ArrayFromScalarText": {
			reason: "Text that is not a YAML sequence is not an array.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": "a,b"},
			},
			want: want{violations: []Violation{
				{Param: "ZONES", Msg: `"a,b" is not an array (want a YAML or JSON sequence such as [a, b])`},
			}},
		},
		"ArrayFromBadYAML": {
			reason: "Text that is not valid YAML says why.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": "[a, b"},
			},
			want: want{violations: []Violation{
				{Param: "ZONES", Msg: `"[a, b" is not an array: line 1: did not find expected ',' or ']'`},
			}},
		},
		"ArrayFromManyDocuments": {
			reason: "Only one YAML document is accepted.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": "- a\n---\n- b\n"},
			},
			want: want{violations: []Violation{
				{Param: "ZONES", Msg: `"- a\n---\n- b\n" is not an array: holds more than one YAML document`},
			}},
		},
		"ArrayGivenMap": {
			reason: "An array parameter given a map is a violation.",
			args: args{
				defs:   []*bundle.Param{{Name: "ZONES", Type: bundle.TypeArray, Required: true}},
				values: map[string]any{"ZONES": map[string]any{"a": 1}},
			},
			want: want{violations: []Violation{{Param: "ZONES", Msg: "is a map, not an array"}}},
		},
		"MapFromMap": {
			reason: "A map given as map[string]any is copied.",
			args: args{
				defs:   []*bundle.Param{{Name: "LABELS", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"LABELS": map[string]any{"app": "x", "tier": []any{"a"}}},
			},
			want: want{values: Values{"LABELS": map[string]any{"app": "x", "tier": []any{"a"}}}},
		},
		"MapFromText": {
			reason: "A map may be written as YAML or JSON text.",
			args: args{
				defs: []*bundle.Param{
					{Name: "YAML", Type: bundle.TypeMap, Required: true},
					{Name: "JSON", Type: bundle.TypeMap, Required: true},
				},
				values: map[string]any{"YAML": "app: x\nreplicas: 3\n", "JSON": `{"app": "y", "n": [1]}`},
			},
			want: want{values: Values{
				"YAML": map[string]any{"app": "x", "replicas": 3},
				"JSON": map[string]any{"app": "y", "n": []any{1}},
			}},
		},
		"MapAnyKeys": {
			reason: "map[any]any keys are turned into their canonical text, deeply; a null key is \"null\".",
			args: args{
				defs: []*bundle.Param{{Name: "M", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"M": map[any]any{
					1: "one", true: "yes", 1e6: "million", nil: "null",
					"inner": map[any]any{2.5: []any{map[any]any{3: "c"}}},
				}},
			},
			want: want{values: Values{"M": map[string]any{
				"1": "one", "true": "yes", "1000000": "million", "null": "null",
				"inner": map[string]any{"2.5": []any{map[string]any{"3": "c"}}},
			}}},
		},
		"MapTextIntegerKeys": {
			reason: "YAML text with integer keys decodes to map[any]any; the keys become strings.",
			args: args{
				defs:   []*bundle.Param{{Name: "M", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"M": "1: a\n2: b\n"},
			},
			want: want{values: Values{"M": map[string]any{"1": "a", "2": "b"}}},
		},
		"MapKeyCollision": {
			reason: "Keys that become equal as text are a violation rather than one silently winning.",
			args: args{
				defs:   []*bundle.Param{{Name: "M", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"M": map[string]any{"x": map[any]any{1: "a", "1": "b"}}},
			},
			want: want{violations: []Violation{{Param: "M", Msg: `holds a map in which the key "1" appears twice at .x`}}},
		},
		"MapNonScalarKey": {
			reason: "A map key that is a collection cannot become a string key.",
			args: args{
				defs:   []*bundle.Param{{Name: "M", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"M": map[string]any{"a": map[any]any{[2]string{"x", "y"}: "c"}}},
			},
			want: want{violations: []Violation{{Param: "M", Msg: "holds a map key that is a list, not a scalar at .a"}}},
		},
		"MapComplexKeyText": {
			reason: "A YAML complex key in text is reported with the parser's reason.",
			args: args{
				defs:   []*bundle.Param{{Name: "M", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"M": "? [a, b]\n: c\n"},
			},
			want: want{violations: []Violation{
				{Param: "M", Msg: `"? [a, b]\n: c\n" is not a map: invalid map key: []interface {}{"a", "b"}`},
			}},
		},
		"MapFromListText": {
			reason: "Text that is a YAML sequence is not a map.",
			args: args{
				defs:   []*bundle.Param{{Name: "LABELS", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"LABELS": "[a]"},
			},
			want: want{violations: []Violation{
				{Param: "LABELS", Msg: `"[a]" is not a map (want a YAML or JSON mapping such as {a: 1})`},
			}},
		},
		"MapGivenNumber": {
			reason: "A map parameter given a Go number is read as text, which is not a mapping.",
			args: args{
				defs:   []*bundle.Param{{Name: "LABELS", Type: bundle.TypeMap, Required: true}},
				values: map[string]any{"LABELS": 5},
			},
			want: want{violations: []Violation{
				{Param: "LABELS", Msg: `"5" is not a map (want a YAML or JSON mapping such as {a: 1})`},
			}},
		},
		"UnsupportedGoType": {
			reason: "A value of a type no caller should pass is a violation, not a panic.",
			args: args{
				defs: []*bundle.Param{
					{Name: "A", Required: true},
					{Name: "B", Type: bundle.TypeArray, Required: true},
				},
				values: map[string]any{"A": struct{}{}, "B": []any{make(chan int)}},
			},
			want: want{violations: []Violation{
				{Param: "A", Msg: "is a value of unsupported type struct {}"},
				{Param: "B", Msg: "holds a value of unsupported type chan int at [0]"},
			}},
		},
		"UnknownType": {
			reason: "A definition with a type package bundle would have rejected is a violation.",
			args:   args{defs: []*bundle.Param{{Name: "X", Type: "float", Default: "1"}}},
			want: want{violations: []Violation{
				{Param: "X", Msg: `has unknown type "float" (want string, integer, number, boolean, array or map)`},
			}},
		},
		"Required": {
			reason: "A required parameter with neither a value nor a default is a violation.",
			args:   args{defs: []*bundle.Param{{Name: "PASSWORD", Required: true}}},
			want:   want{violations: []Violation{{Param: "PASSWORD", Msg: "is required"}}},
		},
		"RequiredWithDefault": {
			reason: "A required parameter with a default is satisfied by the default.",
			args:   args{defs: []*bundle.Param{{Name: "NODES", Type: bundle.TypeInteger, Required: true, Default: "3"}}},
			want:   want{values: Values{"NODES": "3"}},
		},
		"RequiredGivenEmptyString": {
			reason: "KUDO's admission webhook (Parameter.ValidateValue) refuses an empty value for a required parameter without a default.",
			args: args{
				defs:   []*bundle.Param{{Name: "SUFFIX", Required: true}},
				values: map[string]any{"SUFFIX": ""},
			},
			want: want{violations: []Violation{{Param: "SUFFIX", Msg: "is required (the value is empty)"}}},
		},
		"OptionalWithoutDefault": {
			reason: "As in KUDO, an optional parameter without a value is in the view: \"\" for scalars, nil for collections.",
			args: args{defs: []*bundle.Param{
				{Name: "S", Type: bundle.TypeString},
				{Name: "I", Type: bundle.TypeInteger},
				{Name: "N", Type: bundle.TypeNumber},
				{Name: "B", Type: bundle.TypeBoolean, Enum: []any{"true"}},
				{Name: "A", Type: bundle.TypeArray},
				{Name: "M", Type: bundle.TypeMap},
			}},
			want: want{values: Values{"S": "", "I": "", "N": "", "B": "", "A": nil, "M": nil}},
		},
		"EnumAllowed": {
			reason: "A value that is one of the enum values is accepted.",
			args: args{
				defs:   []*bundle.Param{{Name: "SIZE", Default: "small", Enum: []any{"small", "large"}}},
				values: map[string]any{"SIZE": "large"},
			},
			want: want{values: Values{"SIZE": "large"}},
		},
		"EnumComparesCanonicalText": {
			reason: "Enum values compare as canonical text: a Go 3 matches \"3\", a float64 1e6 matches \"1000000\".",
			args: args{
				defs: []*bundle.Param{
					{Name: "REPLICAS", Type: bundle.TypeInteger, Default: "1", Enum: []any{"1", "3", "5"}},
					{Name: "HEAP", Type: bundle.TypeInteger, Default: "1", Enum: []any{"1", "1000000"}},
				},
				values: map[string]any{"REPLICAS": 3, "HEAP": 1e6},
			},
			want: want{values: Values{"REPLICAS": "3", "HEAP": "1000000"}},
		},
		"EnumRejected": {
			reason: "A value outside the enum is a violation listing the allowed values.",
			args: args{
				defs:   []*bundle.Param{{Name: "SIZE", Default: "small", Enum: []any{"small", "medium", "large"}}},
				values: map[string]any{"SIZE": "xl"},
			},
			want: want{violations: []Violation{
				{Param: "SIZE", Msg: `"xl" is not one of the allowed values: "small", "medium", "large"`},
			}},
		},
		"EnumOfArrays": {
			reason: "Collections in an enum compare by structure, with scalars as text.",
			args: args{
				defs: []*bundle.Param{
					{Name: "OK", Type: bundle.TypeArray, Required: true, Enum: []any{[]any{1, 2}, []any{3}}},
					{Name: "BAD", Type: bundle.TypeArray, Required: true, Enum: []any{[]any{1, 2}, []any{3}}},
				},
				values: map[string]any{"OK": []any{"1", 2}, "BAD": "[4]"},
			},
			want: want{violations: []Violation{
				{Param: "BAD", Msg: "is not one of the allowed values: [1,2], [3]"},
			}},
		},
		"DefaultNotInEnum": {
			reason: "A default outside the enum is a violation that says it is the default.",
			args:   args{defs: []*bundle.Param{{Name: "SIZE", Default: "huge", Enum: []any{"small", "large"}}}},
			want: want{violations: []Violation{
				{Param: "SIZE", Msg: `default "huge" is not one of the allowed values: "small", "large"`, Default: true},
			}},
		},
		"BadDefault": {
			reason: "Defaults are validated like user values; the violation says it is the default.",
			args: args{defs: []*bundle.Param{
				{Name: "NODES", Type: bundle.TypeInteger, Default: "three"},
				{Name: "ZONES", Type: bundle.TypeArray, Default: "a"},
				{Name: "NAME", Type: bundle.TypeString, Default: []any{"a"}},
			}},
			want: want{violations: []Violation{
				{Param: "NODES", Msg: `default "three" is not an integer`, Default: true},
				{Param: "ZONES", Msg: `default "a" is not an array (want a YAML or JSON sequence such as [a, b])`, Default: true},
				{Param: "NAME", Msg: "default is a list, not a string", Default: true},
			}},
		},
		"BadDefaultOverridden": {
			reason: "A bad default that a user value overrides never reaches templates and is not reported.",
			args: args{
				defs:   []*bundle.Param{{Name: "NODES", Type: bundle.TypeInteger, Default: "three"}},
				values: map[string]any{"NODES": "3"},
			},
			want: want{values: Values{"NODES": "3"}},
		},
		"UndefinedCaseSuggestion": {
			reason: "A name that differs only in case suggests the defined name.",
			args: args{
				defs:   []*bundle.Param{{Name: "NODE_COUNT", Default: "3"}},
				values: map[string]any{"node_count": "5"},
			},
			want: want{violations: []Violation{
				{Param: "node_count", Msg: "is not defined by the package; did you mean NODE_COUNT?"},
			}},
		},
		"UndefinedEditSuggestion": {
			reason: "A name within two edits of a defined one suggests the closest.",
			args: args{
				defs: []*bundle.Param{
					{Name: "NODE_COUNT", Default: "3"},
					{Name: "NODE_COUNTS", Default: "3"},
					{Name: "MEMORY", Default: "1Gi"},
				},
				values: map[string]any{"NODE_CONT": "5", "MEMROY": "2Gi"},
			},
			want: want{violations: []Violation{
				{Param: "MEMROY", Msg: "is not defined by the package; did you mean MEMORY?"},
				{Param: "NODE_CONT", Msg: "is not defined by the package; did you mean NODE_COUNT?"},
			}},
		},
		"UndefinedNoSuggestion": {
			reason: "A name far from every defined one, or one that would be replaced entirely, gets no suggestion.",
			args: args{
				defs:   []*bundle.Param{{Name: "NODE_COUNT", Default: "3"}, {Name: "X", Default: "1"}},
				values: map[string]any{"REPLICAS": "5", "Y": "1"},
			},
			want: want{violations: []Violation{
				{Param: "REPLICAS", Msg: "is not defined by the package"},
				{Param: "Y", Msg: "is not defined by the package"},
			}},
		},
		"AllViolationsAtOnce": {
			reason: "Every violation is reported in one error: defined parameters in definition order, then undefined names sorted.",
			args: args{
				defs: []*bundle.Param{
					{Name: "NODE_COUNT", Type: bundle.TypeInteger, Default: "3"},
					{Name: "PASSWORD", Required: true},
					{Name: "SIZE", Default: "s", Enum: []any{"s", "m"}},
					{Name: "OK", Default: "fine"},
					{Name: "BROKEN", Type: bundle.TypeBoolean, Default: "perhaps"},
				},
				values: map[string]any{"NODE_COUNT": "abc", "SIZE": "xl", "zzz": "1", "aaa": "2", "size": "m"},
			},
			want: want{violations: []Violation{
				{Param: "NODE_COUNT", Msg: `"abc" is not an integer`},
				{Param: "PASSWORD", Msg: "is required"},
				{Param: "SIZE", Msg: `"xl" is not one of the allowed values: "s", "m"`},
				{Param: "BROKEN", Msg: `default "perhaps" is not a boolean (want true or false)`, Default: true},
				{Param: "aaa", Msg: "is not defined by the package"},
				{Param: "size", Msg: "is not defined by the package; did you mean SIZE?"},
				{Param: "zzz", Msg: "is not defined by the package"},
			}},
		},
		"DuplicateAndNilDefinitions": {
			reason: "A nil definition is skipped and a repeated name is resolved once, by its first definition.",
			args: args{defs: []*bundle.Param{
				nil,
				{Name: "A", Default: "first"},
				{Name: "A", Default: "second"},
			}},
			want: want{values: Values{"A": "first"}},
		},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Resolve(tc.args.defs, tc.args.values)
			assert.Check(t, is.DeepEqual(tc.want.violations, violations(t, err), cmpopts.EquateEmpty()), "%s\nResolve(...)", tc.reason)
			assert.Check(t, is.DeepEqual(tc.want.values, got), "%s\nResolve(...)", tc.reason)
		})
	}
}

func TestResolveCopiesCollections(t *testing.T) {
	def := map[string]any{"a": []any{"x"}}
	user := []any{map[string]any{"b": "y"}}
	defs := []*bundle.Param{
		{Name: "M", Type: bundle.TypeMap, Default: def},
		{Name: "A", Type: bundle.TypeArray, Required: true},
	}
	got, err := Resolve(defs, map[string]any{"A": user})
	if err != nil {
		t.Fatalf("Resolve(...): %v", err)
	}
	got["M"].(map[string]any)["a"].([]any)[0] = "changed"
	got["A"].([]any)[0].(map[string]any)["b"] = "changed"

	assert.Check(t, is.DeepEqual(map[string]any{"a": []any{"x"}}, def), "changing the result changed the default")
	assert.Check(t, is.DeepEqual([]any{map[string]any{"b": "y"}}, user), "changing the result changed the user value")
}

func TestErrorString(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    *Error
		want   string
	}{
		"One": {
			reason: "One violation reads as one sentence.",
			err:    &Error{Violations: []Violation{{Param: "NODE_COUNT", Msg: `"abc" is not an integer`}}},
			want:   `invalid parameter NODE_COUNT: "abc" is not an integer`,
		},
		"Many": {
			reason: "Several violations are listed one per line.",
			err: &Error{Violations: []Violation{
				{Param: "NODE_COUNT", Msg: `"abc" is not an integer`},
				{Param: "FOO", Msg: "is required"},
			}},
			want: "invalid parameters:\n  NODE_COUNT: \"abc\" is not an integer\n  FOO: is required",
		},
		"DefaultAtItsPlace": {
			reason: "A default the package wrote is reported where params.yaml writes it; the field names the parameter (issue 25.3).",
			err: &Error{Violations: []Violation{{Param: "NODE_COUNT", Msg: "default refused by params.schema.json: maximum: got 9, want 7", Default: true,
				At: bundle.Pos{File: "params.yaml", Line: 3, Field: "NODE_COUNT.default"}}}},
			want: "invalid parameter: params.yaml:3: NODE_COUNT.default: refused by params.schema.json: maximum: got 9, want 7",
		},
		"KUDODefaultAtItsPlace": {
			reason: "A KUDO parameter's field is its index: the message names the parameter.",
			err: &Error{Violations: []Violation{
				{Param: "NODE_COUNT", Msg: `default "three" is not an integer`, Default: true, At: bundle.Pos{File: "params.yaml", Line: 9, Field: "parameters[2].default"}},
				{Param: "FOO", Msg: "is required"},
			}},
			want: "invalid parameters:\n  params.yaml:9: parameters[2].default: NODE_COUNT: default \"three\" is not an integer\n  FOO: is required",
		},
		"OddName": {
			reason: "A name that would garble the message is quoted.",
			err:    &Error{Violations: []Violation{{Param: "a b\n", Msg: "is not defined by the package"}}},
			want:   `invalid parameter "a b\n": is not defined by the package`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.err.Error()), "%s\nError()", tc.reason)
		})
	}
}

func TestParseBool(t *testing.T) {
	type want struct {
		b   bool
		err string
	}
	cases := map[string]struct {
		reason string
		v      any
		want   want
	}{
		"TrueText":  {reason: "\"true\" is true.", v: "true", want: want{b: true}},
		"FalseText": {reason: "\"false\" is false.", v: "false", want: want{b: false}},
		"Capital":   {reason: "strconv.ParseBool spellings are accepted.", v: "TRUE", want: want{b: true}},
		"One":       {reason: "1 is true, as with strconv.ParseBool.", v: 1, want: want{b: true}},
		"GoBool":    {reason: "A Go bool is its own value.", v: true, want: want{b: true}},
		"Maybe": {
			reason: "Other text is an error naming the value.",
			v:      "maybe",
			want:   want{err: `"maybe" is not a boolean (want true or false)`},
		},
		"Empty": {
			reason: "The empty text of an unset optional parameter is not a boolean.",
			v:      "",
			want:   want{err: `"" is not a boolean (want true or false)`},
		},
		"List": {
			reason: "A collection is not a boolean.",
			v:      []any{"true"},
			want:   want{err: "a list is not a boolean (want true or false)"},
		},
		"Nil": {
			reason: "nil is not a boolean.",
			v:      nil,
			want:   want{err: "no value is not a boolean (want true or false)"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := ParseBool(tc.v)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			assert.Check(t, is.DeepEqual(tc.want, want{b: b, err: gotErr}, cmp.AllowUnexported(want{})), "%s\nParseBool(%#v)", tc.reason, tc.v)
		})
	}
}

func TestText(t *testing.T) {
	type myString string
	type want struct {
		s  string
		ok bool
	}
	cases := map[string]struct {
		reason string
		v      any
		want   want
	}{
		"String":       {reason: "A string is its own text.", v: "1e6", want: want{s: "1e6", ok: true}},
		"NamedString":  {reason: "A named string type is text.", v: myString("x"), want: want{s: "x", ok: true}},
		"Bool":         {reason: "Booleans are true or false.", v: false, want: want{s: "false", ok: true}},
		"Int":          {reason: "Integers are base 10.", v: -42, want: want{s: "-42", ok: true}},
		"Int64":        {reason: "Big integers keep every digit.", v: int64(math.MinInt64), want: want{s: "-9223372036854775808", ok: true}},
		"Uint64":       {reason: "Unsigned integers keep every digit.", v: uint64(math.MaxUint64), want: want{s: "18446744073709551615", ok: true}},
		"Million":      {reason: "A float64 million is 1000000, never 1e+06.", v: 1e6, want: want{s: "1000000", ok: true}},
		"Huge":         {reason: "Large floats are written out in full.", v: 1e21, want: want{s: "1000000000000000000000", ok: true}},
		"Fraction":     {reason: "Fractions use the shortest exact form.", v: 0.1, want: want{s: "0.1", ok: true}},
		"Float32":      {reason: "float32 uses its own precision.", v: float32(0.1), want: want{s: "0.1", ok: true}},
		"Nil":          {reason: "nil has no text.", v: nil, want: want{}},
		"List":         {reason: "Collections have no text.", v: []any{"a"}, want: want{}},
		"Map":          {reason: "Collections have no text.", v: map[string]any{}, want: want{}},
		"OtherGoValue": {reason: "Other Go values have no text.", v: struct{}{}, want: want{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, ok := Text(tc.v)
			assert.Check(t, is.DeepEqual(tc.want, want{s: s, ok: ok}, cmp.AllowUnexported(want{})), "%s\nText(%#v)", tc.reason, tc.v)
		})
	}
}

// TestErrorDiagnostics: one diagnostic per violation; a default at its
// place in params.yaml, a value with the parameter as its field.
func TestErrorDiagnostics(t *testing.T) {
	_, err := Resolve([]*bundle.Param{
		{Name: "NODES", Type: bundle.TypeInteger, Default: "three", DefaultPos: bundle.Pos{File: "params.yaml", Line: 4, Field: "NODES.default"}},
		{Name: "SIZE", Type: bundle.TypeInteger, Default: "1", DefaultPos: bundle.Pos{File: "params.yaml", Line: 8, Field: "SIZE.default"}},
	}, map[string]any{"SIZE": "big"})
	want := []*diag.Diagnostic{
		{File: "params.yaml", Line: 4, Field: "NODES.default", Msg: `"three" is not an integer`},
		{Field: "SIZE", Msg: `"big" is not an integer`},
	}
	assert.Check(t, is.DeepEqual(want, diag.From(err)), "diag.From(Resolve(...))")
}
