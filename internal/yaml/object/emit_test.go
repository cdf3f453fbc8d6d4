package object

import (
	"strings"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// trickyStrings are scalars at the edges of go-yaml's rules: words YAML
// 1.1 reads as other types, numbers, indicators, quotes, spaces, line
// breaks and lengths around the line width.
var trickyStrings = []string{
	"", "a", "y", "Y", "yes", "No", "on", "OFF", "true", "null", "~", "<<", ".inf", "-.Inf", ".nan", ".5", ".x", "...", "---", "--- x",
	"0", "00", "0755", "1", "-1", "+1", "1.5", "1e3", "1E-3", "1_000", "0x1F", "0o17", "0b101", "-0b1", "1Gi", "500m", "8080",
	"12:30", "1:2:3", "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-1-1 1:2:3", "2001-13-45", "1234-x",
	"-", "- x", "-x", "?", "? x", ":", ":x", "a:", "a: b", "a:b", "a #b", "a#b", "#a", "&a", "*a", "!a", "|", ">", "'a'", `"a"`,
	"%a", "@a", "`a", ",a", "a,b", "[a]", "{a}", "a]", " a", "a ", "a  b", "it's", `say "hi"`, `back\slash`, "a\tb",
	"a\nb", "a\nb\n", "a\n\nb", "\na", "a\n\n", " a\nb", "a \nb", "a\n b", "a\n", "line\n  indented\n", "é", "a\u0085b",
	"a\rb", "a\r\nb", "a\r", "a\u2028b", "a\u2029b", "\ufeffa", "a\ufeffb", // line breaks go-yaml counts, a byte order mark
	strings.Repeat("x", 79), strings.Repeat("x", 81), strings.Repeat("word ", 15) + "end", strings.Repeat("word ", 16) + "end",
	strings.Repeat("k", 128), strings.Repeat("k", 129), "a1", "a01", "a10", "a2", "b", "B", "_", "a.b", "a-b", "a/b", "10", "9", "x9y",
	"19", "105", "1010", "a0", "a00",
	strings.Repeat("a ", 50), strings.Repeat("it's ", 20) + "x", strings.Repeat("b", 78) + "  c d", "'" + strings.Repeat("q ", 45) + "'",
	" " + strings.Repeat("w ", 45) + "z", strings.Repeat("n", 85) + " " + strings.Repeat("m", 5), "1 " + strings.Repeat("d ", 45) + "e",
	"true " + strings.Repeat("x ", 40) + "y", strings.Repeat("x", 76) + " a b  c   d", "a: " + strings.Repeat("v ", 45) + "w",
	strings.Repeat("z ", 30) + strings.Repeat("y", 30) + " " + strings.Repeat("q", 40) + " r",
}

// gen builds a tree from fuzz bytes: each byte picks the next node.
type gen struct {
	shape []byte
	pool  []string
}

func (g *gen) next() int {
	if len(g.shape) == 0 {
		return 0
	}
	b := g.shape[0]
	g.shape = g.shape[1:]
	return int(b)
}

func (g *gen) str() string { return g.pool[g.next()*7%len(g.pool)] }

func (g *gen) node(depth int) any {
	switch c := g.next() % 12; {
	case c < 4 || depth > 5:
		return g.str()
	case c == 4:
		return g.next() - 100
	case c == 5:
		switch g.next() % 6 {
		case 0:
			return float64(g.next()) // integral: an int after the JSON round trip
		case 1:
			return float32(g.next()) / 3
		case 2:
			return uint64(1<<63) + uint64(g.next())
		case 3:
			if g.next()%2 == 0 {
				return map[string]any(nil)
			}
			return []any(nil)
		case 4:
			return 1e21 * float64(g.next()+1)
		}
		return float64(g.next()) / 7
	case c == 6:
		return g.next()%2 == 0
	case c == 7:
		return nil
	case c == 8 || c == 9:
		return g.mapping(depth + 1)
	case c == 10:
		n := g.next() % 4
		s := make([]any, n)
		for i := range s {
			s[i] = g.node(depth + 1)
		}
		return s
	default:
		if g.next()%2 == 0 {
			return map[string]any{}
		}
		return []any{}
	}
}

func (g *gen) mapping(depth int) map[string]any {
	n := g.next()%4 + 1
	m := map[string]any{}
	for range n {
		m[g.str()] = g.node(depth)
	}
	return m
}

// checkEmit compares emit with go-yaml v2 where emit answers.
func checkEmit(t *testing.T, v any) bool {
	t.Helper()
	n, err := jsonNormal(v)
	if err != nil {
		return false
	}
	if !totalOrders(n) {
		return false // go-yaml's own output depends on Go's map order
	}
	got, ok := emit(n)
	if !ok {
		return false
	}
	want, err := yamlv2.Marshal(n)
	if err != nil {
		t.Fatalf("go-yaml fails (%v) where emit writes:\n%s", err, got)
	}
	assert.Assert(t, is.DeepEqual(string(want), string(got)), "-go")
	return true
}

// TestEmitStrings: every tricky string, as a key and as a value in a
// mapping and in a sequence at several depths, is written as go-yaml
// writes it, or left to go-yaml.
func TestEmitStrings(t *testing.T) {
	handled := 0
	for _, s := range trickyStrings {
		for _, v := range []map[string]any{
			{"k": s}, {s: "v"}, {"k": []any{s, map[string]any{"a": s, s: 1}}},
			{"deep": map[string]any{"er": map[string]any{"still": []any{[]any{s}}}}},
			{strings.Repeat("k", 60): s}, {"list": []any{map[string]any{"x": []any{s}}}},
		} {
			if checkEmit(t, v) {
				handled++
			}
		}
	}
	t.Logf("emit wrote %d of %d documents", handled, 6*len(trickyStrings))
}

// TestEmitShapes: nesting, empty collections, numbers and key order.
func TestEmitShapes(t *testing.T) {
	for name, v := range map[string]map[string]any{
		"nested":  {"a": map[string]any{"b": map[string]any{"c": 1}}, "l": []any{1, []any{2, []any{}}, map[string]any{}}},
		"items":   {"l": []any{map[string]any{"a": 1, "b": []any{map[string]any{"c": nil}}}, []any{map[string]any{"d": true}}}},
		"numbers": {"i": 3, "n": int64(-7), "u": uint64(1 << 63), "f": 0.1, "e": 1e21, "g": 1.5e-7},
		"order":   {"a10": 1, "a9": 2, "A": 3, "_x": 4, "a": 5, "b1": 6, "b01": 7, "1": 8, "10": 9, "2": 10, "a-b": 11, "a.b": 12},
		"literal": {"script": "#!/bin/sh\necho hi\n\nexit 0\n", "l": []any{"a\nb"}, "m": map[string]any{"x": " lead\nx"}},
	} {
		t.Run(name, func(t *testing.T) {
			if !checkEmit(t, v) {
				t.Errorf("emit left %v to go-yaml", v)
			}
		})
	}
}

// FuzzMarshalTrees: for the same trees, raw (floats, nil collections,
// invalid UTF-8 as decoded), marshal writes what sigs.k8s.io/yaml writes,
// or fails where it fails.
func FuzzMarshalTrees(f *testing.F) {
	f.Add([]byte{8, 1, 2, 3, 9, 5, 0, 3, 5, 3, 1, 5, 1, 7, 11, 0}, "key\x00value with spaces\x00\xff")
	f.Add([]byte{3, 40, 10, 2, 8, 10, 5, 4, 9, 5, 2, 1}, "a: b\x00multi\nline\n\x00\u0085x")
	f.Fuzz(func(t *testing.T, shape []byte, words string) {
		g := &gen{shape: shape, pool: append(strings.Split(words, "\x00"), trickyStrings...)}
		v := g.mapping(0)
		if n, err := jsonNormal(v); err == nil && !totalOrders(n) {
			return
		}
		if !checkAsSigsYAML(t, "the fuzzed value", v) {
			t.FailNow()
		}
	})
}

// FuzzEmit: for trees built from the fuzz input (strings from it and from
// trickyStrings), emit writes what go-yaml writes, wherever it answers.
func FuzzEmit(f *testing.F) {
	f.Add([]byte{8, 1, 2, 3, 9, 10, 3, 4, 5, 6, 7, 11, 0}, "key\x00value with spaces\x00yes")
	f.Add([]byte{3, 40, 10, 2, 8, 10, 3, 2, 1}, "a: b\x00multi\nline\n\x00  x")
	f.Fuzz(func(t *testing.T, shape []byte, words string) {
		g := &gen{shape: shape, pool: append(strings.Split(words, "\x00"), trickyStrings...)}
		checkEmit(t, g.mapping(0))
	})
}

// totalOrders tells whether go-yaml's key order is a strict total order on
// the keys of every mapping in v. Where it is not (keys such as "10",
// "010" and "0o17" form a cycle), go-yaml's result depends on the order Go
// walks the map in, so it cannot be compared; emit's is fixed.
func totalOrders(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k, x := range t {
			if !totalOrders(x) {
				return false
			}
			keys = append(keys, k)
		}
		for _, a := range keys {
			for _, b := range keys {
				if a != b && keyLess(a, b) == keyLess(b, a) {
					return false
				}
				for _, c := range keys {
					if keyLess(a, b) && keyLess(b, c) && !keyLess(a, c) {
						return false
					}
				}
			}
		}
	case []any:
		for _, x := range t {
			if !totalOrders(x) {
				return false
			}
		}
	}
	return true
}

// TestByteOrderedKeys: for keys byteOrdered accepts, keyLess is the order
// of their bytes.
func TestByteOrderedKeys(t *testing.T) {
	alphabet := "aAbBzZ-./"
	var keys []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		keys = append(keys, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+string(c), n-1)
		}
	}
	gen("", 3)
	for _, a := range keys {
		if !byteOrdered(a) {
			t.Fatalf("%q is not byte-ordered", a)
		}
		for _, b := range keys {
			if got, want := keyLess(a, b), a < b; got != want {
				t.Fatalf("keyLess(%q, %q) = %v, bytes say %v", a, b, got, want)
			}
		}
	}
	for _, k := range []string{"a1", "_", "é", "a b"} {
		if byteOrdered(k) {
			t.Errorf("%q is byte-ordered", k)
		}
	}
}
