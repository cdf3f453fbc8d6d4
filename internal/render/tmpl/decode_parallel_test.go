package tmpl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// decodeBoth decodes text in parts (every document marker a cut) and in
// one pass; when the parts decode, the result must be the one pass's.
func decodeBoth(t *testing.T, text string) (parallel bool) {
	t.Helper()
	defer func(m, p int) { minParallelText, partBytes = m, p }(minParallelText, partBytes)
	minParallelText, partBytes = 0, 1
	out := &Output{Name: "t.yaml", Text: []byte(text)}
	lim := limits.Current()
	got, ok := decodeParallel(out, lim)
	b := &valueBudget{left: lim.YAMLValues, max: lim.YAMLValues, depth: lim.YAMLDepth}
	want, err := decodeDocs(out, out.Text, 0, b, nil)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("decoded in parts, but one pass fails: %v\n%s", err, text)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("parts differ from one pass (-one +parts):\n%s\n%s", diff, text)
	}
	return true
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
// decodes the same in one pass.
func FuzzDecodeParallel(f *testing.F) {
	f.Add("apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nx: |\n  a\n---\n")
	f.Add("apiVersion: v1\nkind: A\nx: &a [1]\n---\napiVersion: v1\nkind: B\ny: *a\n")
	f.Add("apiVersion: v1\nkind: A\nx: 'a\n---\nb'\n---\napiVersion: v1\nkind: B\n")
	f.Fuzz(func(t *testing.T, text string) {
		decodeBoth(t, text)
	})
}
