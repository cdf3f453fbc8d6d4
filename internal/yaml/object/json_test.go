package object

import (
	"encoding/json"
	"math"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestJSON(t *testing.T) {
	cases := []struct {
		reason string
		v      any
		direct bool // written without encoding/json
	}{
		{"scalars", []any{nil, true, false, 0, -7, int64(math.MinInt64), uint64(math.MaxUint64), "x"}, true},
		{"floats in both forms and the exponent cleaned", []any{0.0, math.Copysign(0, -1), 1.5, 1e-6, 9.99e-7, 1e20, 1e21, 123456789e15, -2.5e-9, math.MaxFloat64, math.SmallestNonzeroFloat64}, true},
		{"sorted keys, nested", map[string]any{"b": map[string]any{"z": 1, "a": []any{}}, "a": map[string]any{}, "": nil}, true},
		{"nil map and list", map[string]any{"m": map[string]any(nil), "l": []any(nil)}, true},
		{"escapes", []any{"\"\\/\b\f\n\r\t\x00\x1f\x7f <>& \u2028\u2029 é 日本", "bad \xff\xfe utf8 \xe2\x82", "\xed\xa0\x80"}, true},
		{"escaped keys", map[string]any{"<k>": 1, "a\u2028": 2, "\xff": 3}, true},
		{"many keys", manyKeys(40), true},
		{"other types go to encoding/json", map[string]any{"t": map[string]string{"b": "1", "a": "<"}, "f": float32(0.1)}, false},
		{"NaN is encoding/json's error", map[string]any{"n": math.NaN()}, false},
		{"infinity inside a list", []any{1, math.Inf(-1)}, false},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			want, wantErr := json.Marshal(c.v)
			got, gotErr := JSON(c.v)
			assert.Check(t, is.DeepEqual(string(want), string(got)), "-encoding/json +JSON")
			if (wantErr == nil) != (gotErr == nil) {
				t.Errorf("error %v, encoding/json's %v", gotErr, wantErr)
			}
			if _, ok := AppendJSON(nil, c.v); ok != c.direct {
				t.Errorf("written directly: %v, want %v", ok, c.direct)
			}
		})
	}
}

func manyKeys(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[string(rune('z'-i%26))+string(rune('A'+i))] = i
	}
	return m
}

// FuzzJSON: JSON writes what encoding/json.Marshal writes for any value
// YAML decodes to, and for strings, floats and integers of any value.
func FuzzJSON(f *testing.F) {
	f.Add([]byte("a: [1, 2.5, -0.0, 1e400, .nan, true, null, \"\\u2028<&>\", {b: c}]\n"), "\xff\u2029\x01", 1e-7, int64(-1))
	f.Add([]byte("{1: x, y: [z]}"), "", 1e21, int64(9))
	f.Add([]byte("- 12345678901234567890\n- 0x1F\n- 1_000\n"), "é\x7f", math.Inf(1), int64(0))
	f.Fuzz(func(t *testing.T, doc []byte, s string, fl float64, i int64) {
		var v any
		if yaml.Unmarshal(doc, &v) != nil {
			v = nil
		}
		for _, x := range []any{v, map[string]any{s: []any{s, fl, i, v}}, s, fl} {
			want, wantErr := json.Marshal(x)
			got, gotErr := JSON(x)
			if string(got) != string(want) || (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("%#v:\n got %q %v\nwant %q %v", x, got, gotErr, want, wantErr)
			}
		}
	})
}

func BenchmarkJSON(b *testing.B) {
	var v any
	if err := yaml.Unmarshal([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {app: web, tier: <front>}}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers: [{name: web, image: nginx, ports: [{containerPort: 80}], resources: {limits: {cpu: 0.5}}}]\n"), &v); err != nil {
		b.Fatal(err)
	}
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("JSON", func(b *testing.B) {
		for b.Loop() {
			if _, err := JSON(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
