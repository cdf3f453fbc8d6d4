package diff

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/engine"
)

// TestMarkdownLimit: a report too large for one comment stays under the
// limit, keeps its summary and says how many objects it left out.
func TestMarkdownLimit(t *testing.T) {
	var to []engine.Item
	for i := range 400 {
		to = append(to, item(t, fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%03d}\ndata: {v: %q}\n", i, strings.Repeat("é", 300)), 0, false))
	}
	r, err := Compare(nil, to, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := r.Markdown("", 0)
	if n := utf8.RuneCountInString(md); n > CommentLimit {
		t.Fatalf("%d characters, over %d", n, CommentLimit)
	}
	if !strings.Contains(md, "400 to add, 0 to change, 0 to remove") {
		t.Error("the summary is missing")
	}
	shown := strings.Count(md, "<details>")
	if !strings.Contains(md, fmt.Sprintf("**Truncated:** %d more changed objects", 400-shown)) {
		t.Errorf("no truncation marker for %d objects left out", 400-shown)
	}
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") {
		t.Error("a section is cut in the middle")
	}
}

// TestMarkdownOneHugeObject: a single object larger than the limit is cut
// inside its section, which stays well-formed.
func TestMarkdownOneHugeObject(t *testing.T) {
	body := strings.Repeat("line\\n", 30000)
	r, err := Compare(nil, []engine.Item{item(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata: {v: \""+body+"\"}\n", 0, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := r.Markdown("", 0)
	if n := utf8.RuneCountInString(md); n > CommentLimit {
		t.Fatalf("%d characters", n)
	}
	if !strings.Contains(md, "(cut: too long for a comment)") || !strings.Contains(md, "</details>") {
		t.Errorf("the section is not cut cleanly:\n%s", md[len(md)-500:])
	}
}

// TestMarkdownFence: content with backticks cannot close the code block.
func TestMarkdownFence(t *testing.T) {
	r, err := Compare(nil, []engine.Item{item(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {v: \"```` and ```\"}\n", 0, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if md := r.Markdown("", 0); !strings.Contains(md, "`````diff\n") {
		t.Errorf("fence not longer than the content's backticks:\n%s", md)
	}
}
