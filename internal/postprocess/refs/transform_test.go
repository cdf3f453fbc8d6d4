package refs

import (
	"testing"

	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"
)

func TestTransformers(t *testing.T) {
	type want struct {
		out any
		err bool
	}
	cases := map[string]struct {
		reason string
		name   string
		in     any
		want   want
	}{
		"ToStringInt":            {"%v of an int64.", "ToString", int64(80), want{out: "80"}},
		"ToStringFloat":          {"%v of a float64.", "ToString", 2.5, want{out: "2.5"}},
		"ToStringBool":           {"%v of a bool.", "ToString", true, want{out: "true"}},
		"ToStringString":         {"A string stays itself.", "ToString", "x", want{out: "x"}},
		"ToStringList":           {"%v of a list, as Composable did.", "ToString", []any{"a", int64(1)}, want{out: "[a 1]"}},
		"ArrayToCSString":        {"Elements with %v joined by commas.", "ArrayToCSString", []any{"a", int64(1), 2.5, true}, want{out: "a,1,2.5,true"}},
		"ArrayToCSStringEmpty":   {"An empty list is an empty string.", "ArrayToCSString", []any{}, want{out: ""}},
		"ArrayToCSStringNotList": {"Needs a list.", "ArrayToCSString", "a,b", want{err: true}},
		"Base64ToString":         {"Standard padded base64.", "Base64ToString", "aGVsbG8gd29ybGQ=", want{out: "hello world"}},
		"Base64ToStringInvalid":  {"Invalid base64 fails.", "Base64ToString", "not base64!", want{err: true}},
		"Base64ToStringUnpadded": {"Unpadded base64 is not standard encoding.", "Base64ToString", "aGVsbG8", want{err: true}},
		"Base64ToStringBinary":   {"Bytes that are not UTF-8 cannot become a YAML string.", "Base64ToString", "/w==", want{err: true}},
		"Base64ToStringNotStr":   {"Needs a string.", "Base64ToString", int64(1), want{err: true}},
		"StringToBase64":         {"Standard padded base64.", "StringToBase64", "hello", want{out: "aGVsbG8="}},
		"StringToBase64NotStr":   {"Needs a string.", "StringToBase64", int64(1), want{err: true}},
		"StringToInt":            {"A decimal integer, as int64.", "StringToInt", "-42", want{out: int64(-42)}},
		"StringToIntBig":         {"64-bit range.", "StringToInt", "9223372036854775807", want{out: int64(9223372036854775807)}},
		"StringToIntOverflow":    {"Out of 64-bit range fails.", "StringToInt", "9223372036854775808", want{err: true}},
		"StringToIntNotNumber":   {"Text fails.", "StringToInt", "forty", want{err: true}},
		"StringToIntFloat":       {"A float is not an integer.", "StringToInt", "1.5", want{err: true}},
		"StringToIntNotStr":      {"Needs a string: an int is not converted silently.", "StringToInt", int64(1), want{err: true}},
		"StringToInt32":          {"A 32-bit integer, as int64.", "StringToInt32", "2147483647", want{out: int64(2147483647)}},
		"StringToInt32Overflow":  {"Out of 32-bit range fails.", "StringToInt32", "2147483648", want{err: true}},
		"StringToInt32Negative":  {"Lower bound.", "StringToInt32", "-2147483648", want{out: int64(-2147483648)}},
		"StringToFloat":          {"A float64.", "StringToFloat", "3.25", want{out: 3.25}},
		"StringToFloatInt":       {"An integer text gives a float64.", "StringToFloat", "3", want{out: 3.0}},
		"StringToFloatNaN":       {"NaN cannot be written as YAML or JSON.", "StringToFloat", "NaN", want{err: true}},
		"StringToFloatInf":       {"Infinity neither.", "StringToFloat", "+Inf", want{err: true}},
		"StringToFloatText":      {"Text fails.", "StringToFloat", "pi", want{err: true}},
		"StringToBoolTrue":       {"strconv.ParseBool.", "StringToBool", "True", want{out: true}},
		"StringToBoolZero":       {"strconv.ParseBool accepts 0.", "StringToBool", "0", want{out: false}},
		"StringToBoolYes":        {"yes is not a ParseBool boolean.", "StringToBool", "yes", want{err: true}},
		"JsonToObjectMap":        {"JSON numbers become int64 and float64.", "JsonToObject", `{"a":1,"b":[2.5,"x",null,true]}`, want{out: map[string]any{"a": int64(1), "b": []any{2.5, "x", nil, true}}}},
		"JsonToObjectList":       {"A JSON list.", "JsonToObject", `["a","b"]`, want{out: []any{"a", "b"}}},
		"JsonToObjectScalar":     {"Any JSON value.", "JsonToObject", `12`, want{out: int64(12)}},
		"JsonToObjectBigInt":     {"An integer beyond int64 is a float64.", "JsonToObject", `12345678901234567890`, want{out: 12345678901234567890.0}},
		"JsonToObjectOutOfRange": {"A number beyond float64 fails.", "JsonToObject", `1e400`, want{err: true}},
		"JsonToObjectInvalid":    {"Invalid JSON fails.", "JsonToObject", `{"a":`, want{err: true}},
		"JsonToObjectTrailing":   {"One JSON value only.", "JsonToObject", `{} {}`, want{err: true}},
		"JsonToObjectNotStr":     {"Needs a string.", "JsonToObject", map[string]any{}, want{err: true}},
		"ObjectToJson":           {"Compact JSON with sorted keys, no HTML escaping.", "ObjectToJson", map[string]any{"b": "<&>", "a": []any{int64(1), 2.5}}, want{out: `{"a":[1,2.5],"b":"<&>"}`}},
		"ObjectToJsonString":     {"A string becomes a JSON string.", "ObjectToJson", "x", want{out: `"x"`}},
	}
	if len(transformers) != 10 {
		t.Fatalf("want Composable's ten transformers, have %d: %v", len(transformers), transformerNames)
	}
	covered := map[string]bool{}
	for name, tc := range cases {
		covered[tc.name] = true
		t.Run(name, func(t *testing.T) {
			got, err := transformers[tc.name](tc.in)
			if (err != nil) != tc.want.err {
				t.Fatalf("%s\n%s(%v): want error %v, got %v", tc.reason, tc.name, tc.in, tc.want.err, err)
			}
			assert.Check(t, gtcmp.DeepEqual(tc.want.out, got), "%s\n%s(%v)", tc.reason, tc.name, tc.in)
		})
	}
	for _, n := range transformerNames {
		if !covered[n] {
			t.Errorf("transformer %s has no test case", n)
		}
	}
}
