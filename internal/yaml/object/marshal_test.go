package object

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"sigs.k8s.io/yaml"
)

// checkAsSigsYAML checks that marshal(v) gives the very bytes of
// sigs.k8s.io/yaml.Marshal(v), or fails where it fails; what names v in
// the failure.
func checkAsSigsYAML(t *testing.T, what string, v any) bool {
	t.Helper()
	sigsYAML, sigsErr := yaml.Marshal(v)
	marshalled, err := marshal(v)
	if (sigsErr == nil) != (err == nil) {
		return assert.Check(t, func() is.Result {
			return is.ResultFailure(fmt.Sprintf("errors differ: sigs.k8s.io/yaml %v, marshal %v", sigsErr, err))
		}, what)
	}
	return assert.Check(t, is.Equal(string(sigsYAML), string(marshalled)), "%s: -sigs.k8s.io/yaml +marshal", what)
}

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
			checkAsSigsYAML(t, name, v)
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
		if !checkAsSigsYAML(t, "the fuzzed value", v) {
			t.FailNow()
		}
	})
}

// TestMarshalLongKeys: go-yaml does not find a key longer than 1,024
// characters of JSON text, so sigs.k8s.io/yaml fails on it; marshal fails
// at the same length, escapes counted.
func TestMarshalLongKeys(t *testing.T) {
	for _, k := range []string{
		strings.Repeat("a", 1022), strings.Repeat("a", 1023), strings.Repeat("é", 1022), strings.Repeat("é", 1023),
		strings.Repeat("&", 170) + "ab", strings.Repeat("&", 170) + "abc", strings.Repeat("\n", 511), strings.Repeat("\n", 512),
		strings.Repeat("\x01", 170) + "ab", strings.Repeat("\x01", 170) + "abc", strings.Repeat("\xff", 1023), strings.Repeat("\xff", 170) + "ab", strings.Repeat("\xff", 170) + "abc",
	} {
		v := map[string]any{"x": []any{map[string]any{k: 1}}}
		checkAsSigsYAML(t, fmt.Sprintf("key of %d bytes", len(k)), v)
	}
}

// TestMarshalNEL: encoding/json leaves NEL (U+0085) unescaped and go-yaml
// reads it as a line break, folding it with the spaces around it; marshal
// gives the same strings, and the same errors for keys and for a document
// indicator after the break.
func TestMarshalNEL(t *testing.T) {
	for _, s := range []string{
		"\u0085", "a\u0085", "\u0085a", "a\u0085b", "a \u0085 b", "a  \u0085\u0085  b", "a\u0085\u0085\u0085b",
		"a\u0085 \u0085b", "a\t\u0085\tb", "a\n\u0085b", "\u0085---", "\u0085--- x", "\u0085... x", "\u0085 --- x",
		"\u0085---\u0085", "\u0085----", "a\u0085\u0085--- ", "x\u2028\u0085y",
	} {
		for _, v := range []any{s, map[string]any{"k": s}, map[string]any{s: 1}, []any{s}} {
			checkAsSigsYAML(t, fmt.Sprintf("%q", v), v)
		}
	}
}

// TestStreamFirstError: documents are encoded concurrently, but the error
// is the first failing object's, in stream order.
func TestStreamFirstError(t *testing.T) {
	var objs []*Object
	for i := range 100 {
		m := map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprint("cm-", i)}}
		if i == 41 || i == 77 {
			m["data"] = map[string]any{"x": math.NaN()}
		}
		objs = append(objs, &Object{Map: m})
	}
	for range 20 {
		if _, err := Stream(objs); err == nil || !strings.Contains(err.Error(), `"cm-41"`) {
			t.Fatalf("want the error of cm-41, got %v", err)
		}
	}
}

// TestMarshalCollidingKeys: keys that invalid UTF-8 makes equal keep the
// value sigs.k8s.io/yaml keeps (the greatest original key's), whatever
// order the map is walked in.
func TestMarshalCollidingKeys(t *testing.T) {
	for _, v := range []map[string]any{
		{"\x92": 1, "\xff": 2},
		{"\x92": 1, "\xff": 2, "\ufffd": 3},
		{"\ufffd": 3, "a\xff": 4, "a\xfe": 5, "a\ufffd": 6},
	} {
		want, err := yaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			if got, err := marshal(v); err != nil || string(got) != string(want) {
				t.Fatalf("%q: got %q, %v; sigs.k8s.io/yaml %q", v, got, err, want)
			}
		}
	}
}

// TestMarshalKeyOrderFixed: keys on which go-yaml's order is not a total
// one ("10" < "010" < "0o17" < "10") still come out in one order, run after
// run, also on the go-yaml path (a value emit leaves to go-yaml).
func TestMarshalKeyOrderFixed(t *testing.T) {
	for _, extra := range []any{1, "é"} { // emit's path, go-yaml's path
		v := map[string]any{"10": 1, "010": 2, "0o17": 3, "x": extra}
		first, err := marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for range 100 {
			if got, _ := marshal(v); string(got) != string(first) {
				t.Fatalf("%v: the order changed:\n%s\n%s", extra, first, got)
			}
		}
	}
}
