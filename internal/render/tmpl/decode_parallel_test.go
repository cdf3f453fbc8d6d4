package tmpl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// decodeBoth decodes text in parts (every document marker a cut) and in
// one pass; when the parts decode, the result must be the one pass's.
func decodeBoth(t *testing.T, text string) (parallel bool) {
	t.Helper()
	defer func(m, p int) { minParallelText, partBytes = m, p }(minParallelText, partBytes)
	minParallelText, partBytes = 0, 1
	// One mark at the start: the template is the text itself, so a Doc's
	// Line is its rendered line.
	out := &Output{Name: "t.yaml", Text: []byte(text), marks: []mark{{off: 0, line: 1}}}
	vb := newValueBudget(limits.Current(), nil)
	got, _, ok := decodeParallel(out, vb)
	want, err := decodeDocs(out, out.Text, 0, vb.pass(), nil)
	if err == nil {
		checkDocLines(t, text, want)
	}
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("decoded in parts, but one pass fails: %v\n%q", err, text)
	}
	assert.Assert(t, is.DeepEqual(want, got), "parts differ from one pass\n\n%q", text)
	return true
}

// checkDocLines fails when the line of a decoded document is not the
// line go-yaml gives its root when it reads the text in one stream.
func checkDocLines(t *testing.T, text string, docs []Doc) {
	t.Helper()
	var lines []int
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var n yaml.Node
		if dec.Decode(&n) != nil {
			break
		}
		if len(n.Content) > 0 && (n.Content[0].Kind != yaml.ScalarNode || n.Content[0].Tag != "!!null") {
			lines = append(lines, n.Content[0].Line)
		}
	}
	got := make([]int, len(docs))
	for i, d := range docs {
		got[i] = d.Line
	}
	assert.Assert(t, is.DeepEqual(lines, got, cmpopts.EquateEmpty()), "the lines documents start at: -go-yaml +decoded\n%q", text)
}

// TestDecodeParallel: documents cut at their markers decode as in one
// pass (lines included); streams the cut could change are decoded in one
// pass.
func TestDecodeParallel(t *testing.T) {
	doc := func(name string) string { return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n" }
	for _, tc := range []struct {
		reason, text string
		parallel     bool
	}{
		{"plain documents", doc("a") + "---\n" + doc("b") + "--- \n" + doc("c"), true},
		{"empty documents and a marker with content", "---\n---\n" + doc("a") + "--- # c\n" + doc("b"), true},
		{"a block scalar ended by the marker", "apiVersion: v1\nkind: ConfigMap\ndata:\n  x: |\n    ---\n    a\n---\n" + doc("b"), true},
		{"CRLF line ends", strings.ReplaceAll(doc("a")+"---\n"+doc("b"), "\n", "\r\n"), true},
		{"bare CR line ends before the cut", strings.ReplaceAll(doc("a"), "\n", "\r") + "\n---\n" + doc("b"), true},
		{"mixed line ends, NEL, LS and PS", "apiVersion: v1\r\r\nkind: A\u0085x: \"a\u2028b\"\u2029y: 1\n---\n" + doc("b") + "--- \r" + doc("c"), true},
		{"a marker after a bare CR", doc("a") + "\r---\r" + doc("b"), true},
		{"an alias to the anchor of an earlier document", "apiVersion: v1\nkind: A\nx: &a {k: v}\n---\napiVersion: v1\nkind: B\ny: *a\n", false},
		{"a directive", doc("a") + "---\n%YAML 1.1\n---\n" + doc("b"), false},
		{"a document end marker", doc("a") + "...\n---\n" + doc("b"), false},
		{"a quoted scalar across the marker", "apiVersion: v1\nkind: A\nx: \"a\n---\nb\"\n", false},
		{"a flow mapping across the marker", "apiVersion: v1\nkind: A\nx: {a: 1,\n---\n}\n", false},
		{"a bad document", doc("a") + "---\nkind: [\n", false},
		{"---x is no marker", doc("a") + "---x: 1\n", false},
	} {
		if got := decodeBoth(t, tc.text); got != tc.parallel {
			t.Errorf("%s: decoded in parts %v, want %v", tc.reason, got, tc.parallel)
		}
	}
}

// FuzzDecodeParallel: whatever the text, when it decodes in parts it
// decodes the same in one pass, and each document's line is the line
// go-yaml gives its root (line breaks of every kind).
func FuzzDecodeParallel(f *testing.F) {
	f.Add("apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nx: |\n  a\n---\n")
	f.Add("apiVersion: v1\nkind: A\nx: &a [1]\n---\napiVersion: v1\nkind: B\ny: *a\n")
	f.Add("apiVersion: v1\nkind: A\nx: 'a\n---\nb'\n---\napiVersion: v1\nkind: B\n")
	f.Add("apiVersion: v1\rkind: A\r\n---\napiVersion: v1\nkind: B\n")
	f.Add("apiVersion: v1\r\nkind: A\u0085x: |\n  a\r  b\n---\rapiVersion: v1\u2028kind: B\n")
	f.Fuzz(func(t *testing.T, text string) {
		decodeBoth(t, text)
	})
}
