package object

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestMarshalAsSigsYAML: Marshal gives the very bytes of
// sigs.k8s.io/yaml.Marshal, which kudo-render used before (and which
// kubectl and Argo CD read).
func TestMarshalAsSigsYAML(t *testing.T) {
	cases := map[string]any{
		"numbers": map[string]any{
			"int": 3, "int64": int64(-7), "big": int64(math.MaxInt64), "uint": uint64(math.MaxUint64),
			"float": 0.1, "whole": 123456789.0, "negzero": math.Copysign(0, -1), "huge": 1e20, "hugest": 1e300,
			"tiny": 1e-7, "f32": float32(0.1),
		},
		"strings": map[string]any{
			"yes": "yes", "num": "0755", "empty": "", "html": "<a & b>", "multi": "a\nb\n", "space": " x ",
			"invalid": "a\xffb\xfe\xfd", "unicode": "zé\u2028", "colon": "a: b", "null": "null", "tilde": "~",
		},
		"collections": map[string]any{
			"nilmap": map[string]any(nil), "nilslice": []any(nil), "emptymap": map[string]any{}, "emptyslice": []any{},
			"nested": []any{map[string]any{"b": 1, "a": []any{"x", nil, true}}},
			"keys":   map[string]any{"a10": 1, "a9": 2, "A": 3, "true": 4, "1": 5, "": 6},
		},
		"other types": map[string]any{"strs": []string{"a", "b"}, "m": map[string]string{"k": "v"}},
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			want, werr := yaml.Marshal(v)
			got, gerr := marshal(v)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("errors differ: want %v, got %v", werr, gerr)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("-sigs.k8s.io/yaml +object.marshal:\n%s", diff)
			}
		})
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), map[string]any{"x": math.Inf(-1)}} {
		if _, err := marshal(bad); err == nil {
			t.Errorf("marshal(%v): want an error like sigs.k8s.io/yaml's", bad)
		}
	}
}

func FuzzMarshalAsSigsYAML(f *testing.F) {
	f.Add("key", "value", 3.5, int64(7), true)
	f.Add("", "yes", 123456789.0, int64(-1), false)
	f.Add("a\xff", "\x00", 1e21, int64(1)<<62, true)
	f.Fuzz(func(t *testing.T, k, s string, fl float64, i int64, b bool) {
		v := map[string]any{k: s, "f": fl, "i": i, "b": b, "l": []any{s, fl, map[string]any{k: i}}}
		want, werr := yaml.Marshal(v)
		got, gerr := marshal(v)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("errors differ: want %v, got %v", werr, gerr)
		}
		if string(want) != string(got) {
			t.Fatalf("-sigs +ours:\n%s", cmp.Diff(string(want), string(got)))
		}
	})
}
