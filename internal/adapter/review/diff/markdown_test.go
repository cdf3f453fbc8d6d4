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

// TestControlCharactersNeverRaw: names, keys and values with a carriage
// return, ESC (an OSC 8 link), NEL or bidirectional controls reach
// neither the terminal nor the comment raw: a carriage return would end
// the HTML block or the fence in CommonMark and inject a heading or a
// link; each is shown as an escape, so the reviewer still sees that the
// value changed and how.
func TestControlCharactersNeverRaw(t *testing.T) {
	evil := "x\r\r### Approved by security\r\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \u0085\u202eevil"
	obj := func(v string) string {
		key := strings.ReplaceAll(evil, "\u0085", "") // a NEL in a key does not survive YAML
		return fmt.Sprintf("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: %q, annotations: {%q: %q}}\ndata: {v: %q, w: %q}\n", "w"+key, "k"+key, v, v, "multi\nline\n"+v)
	}
	from := []engine.Item{item(t, obj("old"+evil), 0, false)}
	to := []engine.Item{item(t, obj("new"+evil), 1, false), item(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: added}\ndata: {v: "+fmt.Sprintf("%q", evil)+"}\n", 0, false)}
	r, err := Compare(from, to, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for format, out := range outputs(t, r) {
		if format == "json" {
			continue // JSON escapes them itself
		}
		for _, c := range []string{"\r", "\x1b]", "\u0085", "\u202e"} {
			if strings.Contains(out, c) {
				t.Errorf("%s output holds %q raw:\n%q", format, c, out)
			}
		}
		if !strings.Contains(out, `\r### Approved`) || !strings.Contains(out, `\x1b]8;;https://evil.example`) {
			t.Errorf("%s output does not show the escapes:\n%s", format, out)
		}
	}
	md := r.Markdown("", 0)
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "#") && l != "### kudo-render diff" {
			t.Errorf("a heading was injected: %q", l)
		}
	}
}
