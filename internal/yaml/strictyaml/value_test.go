package strictyaml

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
)

// linearCases are documents whose decoding DecodeAny and DecodeMap must
// do as go-yaml does: scalars of every type, merge keys in every shape,
// repeats (written and merged), non-string keys, aliases, and what go-yaml
// refuses.
var linearCases = map[string]string{
	"Scalars":          "a: 1\nb: 1.5\nc: true\nd: ~\ne: \"x\"\nf: 2024-01-02\ng: !!binary aGk=\nh: 0x1F\ni: .inf\nj: ''\nk:\n",
	"Nested":           "a: {b: [1, {c: d}], e: []}\nf: [[], {}]\n",
	"Merge":            "base: &b {x: 1, y: 2}\nm: {<<: *b, y: 3, z: 4}\n",
	"MergeList":        "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nm: {<<: [*a, *b], z: 0}\n",
	"MergeInline":      "m: {<<: {x: 1, y: 2}, y: 3}\n",
	"MergeNested":      "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nm: {<<: *b, z: 3}\n",
	"MergeNotMap":      "a: &a [1]\nm: {<<: *a}\n",
	"MergeScalar":      "m: {<<: 1}\n",
	"MergeListOfList":  "m: {<<: [[1]]}\n",
	"MergeRepeats":     "m: {<<: {x: 1, x: 2}}\n",
	"QuotedMergeKey":   "m: {\"<<\": {x: 1}}\n",
	"TwoMergeKeys":     "m: {<<: {x: 1}, <<: {y: 2}}\n",
	"Repeat":           "a: 1\nb: 2\na: 3\n",
	"NestedRepeat":     "x: {a: 1, a: 2}\ny: [{b: 1, b: 1}]\n",
	"IntKeys":          "1: a\n2: b\nx: c\n",
	"NullKey":          "~: a\nb: c\n",
	"BoolKeys":         "true: a\nno: b\n",
	"MapKey":           "? {a: 1}\n: b\n",
	"ListKey":          "? [a]\n: b\n",
	"AliasKey":         "a: &k key\n*k : v\n",
	"AliasValues":      "a: &a {x: [1, 2]}\nb: *a\nc: [*a, *a]\n",
	"BadTag":           "a: !!int abc\nb: !!float x\nc: 1\n",
	"UnknownTag":       "a: !foo bar\nb: !!map {x: 1}\n",
	"NullTaggedMap":    "a: !!null {x: 1}\n",
	"SeqOfMaps":        "- {a: 1}\n- b: 2\n  c: [3]\n",
	"ScalarDocument":   "just text\n",
	"EmptyDocument":    "",
	"TopLevelSequence": "[1, two, 3.0, null]\n",
}

// decodeBoth decodes doc with go-yaml into an `any` and with DecodeAny.
func decodeBoth(t *testing.T, doc string) (want, got any, wantErr, gotErr error) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Skipf("not YAML: %v", err)
	}
	wantErr = n.Decode(&want)
	got, gotErr = DecodeAny(&n)
	return want, got, wantErr, gotErr
}

// TestDecodeAnyAsGoYAML: DecodeAny gives go-yaml's values and errors.
func TestDecodeAnyAsGoYAML(t *testing.T) {
	for name, doc := range linearCases {
		t.Run(name, func(t *testing.T) {
			want, got, wantErr, gotErr := decodeBoth(t, doc)
			if wantErr != nil {
				assert.Error(t, gotErr, wantErr.Error(), "%q", doc)
				return
			}
			assert.NilError(t, gotErr, "%q", doc)
			assert.DeepEqual(t, got, want)
		})
	}
}

// TestDecodeMapAsGoYAML: DecodeMap gives what go-yaml gives a
// map[string]V, for values of a type (strings: scalars are their text)
// and for nodes, and the same errors.
func TestDecodeMapAsGoYAML(t *testing.T) {
	for name, doc := range linearCases {
		t.Run(name, func(t *testing.T) {
			var n yaml.Node
			assert.NilError(t, yaml.Unmarshal([]byte(doc), &n))
			if len(n.Content) == 0 {
				return
			}
			var want, got map[string]string
			wantErr := n.Content[0].Decode(&want)
			gotErr := DecodeMap(n.Content[0], &got)
			if wantErr != nil {
				assert.Error(t, gotErr, wantErr.Error(), "%q", doc)
				return
			}
			assert.NilError(t, gotErr, "%q", doc)
			assert.DeepEqual(t, got, want)

			var wantNodes, gotNodes map[string]yaml.Node
			assert.NilError(t, n.Content[0].Decode(&wantNodes))
			assert.NilError(t, DecodeMap(n.Content[0], &gotNodes))
			assert.Equal(t, len(gotNodes), len(wantNodes))
			for k, w := range wantNodes {
				g := gotNodes[k]
				assert.Equal(t, nodeText(&g), nodeText(&w), "key %q", k)
			}
		})
	}
}

// TestDecodeManyKeys: a mapping of many keys decodes, and a repeat among
// them is found at its line (go-yaml's own check would compare 2·10⁹
// pairs here).
func TestDecodeManyKeys(t *testing.T) {
	const n = 65536
	var b strings.Builder
	b.WriteString("m:\n")
	for i := range n {
		fmt.Fprintf(&b, "  k%d: %d\n", i, i)
	}
	var root yaml.Node
	assert.NilError(t, yaml.Unmarshal([]byte(b.String()), &root))
	v, err := Value(root.Content[0].Content[1])
	assert.NilError(t, err)
	assert.Equal(t, len(v.(map[string]any)), n)
	assert.Equal(t, v.(map[string]any)["k65535"], 65535)

	b.WriteString("  k7: again\n")
	assert.NilError(t, yaml.Unmarshal([]byte(b.String()), &root))
	_, err = Value(root.Content[0].Content[1])
	assert.Error(t, err, "yaml: unmarshal errors:\n  line 65538: mapping key \"k7\" already defined at line 9")
}

// FuzzDecodeAny: DecodeAny gives go-yaml's values, and an error where
// go-yaml gives one.
func FuzzDecodeAny(f *testing.F) {
	for _, doc := range linearCases {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 4096 {
			return
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc), &n) != nil {
			return
		}
		if _, err := CheckAliases(&n, 10_000); err != nil {
			return // what DecodeAny's callers refuse first
		}
		var want any
		wantErr := n.Decode(&want)
		if wantErr != nil && strings.Contains(wantErr.Error(), "excessive aliasing") {
			return // go-yaml's own ratio, which CheckAliases replaces
		}
		got, gotErr := DecodeAny(&n)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("%q: go-yaml: %v, DecodeAny: %v", doc, wantErr, gotErr)
		}
		if wantErr == nil && !hasNaN(want) {
			assert.DeepEqual(t, got, want)
		}
	})
}

// hasNaN reports whether v holds a NaN, which is not equal to itself.
func hasNaN(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x)
	case []any:
		for _, e := range x {
			if hasNaN(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasNaN(e) {
				return true
			}
		}
	case map[any]any:
		for k, e := range x {
			if hasNaN(k) || hasNaN(e) {
				return true
			}
		}
	}
	return false
}
