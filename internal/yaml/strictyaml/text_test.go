package strictyaml

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// offsetOf is the byte offset of a 1-based line and column (in
// characters) of data, lines counted by LineStarts: where go-yaml's
// position of a node lands in the text.
func offsetOf(data []byte, line, col int) int {
	starts := LineStarts(data)
	if line < 1 || line > len(starts) {
		return -1
	}
	off := starts[line-1]
	if line == 1 && bytes.HasPrefix(data, []byte("\uFEFF")) {
		off += 3 // go-yaml skips a leading byte order mark
	}
	for ; col > 1 && off < len(data); col-- {
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off
}

// checkNodePositions fails when a node go-yaml made from data does not
// sit where its line and column say, lines counted by LineStarts: a key or
// a plain scalar's text starts there, a quoted one's quote, an alias's *.
func checkNodePositions(t *testing.T, data []byte, n *yaml.Node) {
	t.Helper()
	if n == nil {
		return
	}
	var want string
	switch {
	case n.Style&yaml.TaggedStyle != 0 || n.Anchor != "":
		// placed at its tag or anchor
	case n.Kind == yaml.AliasNode:
		want = "*" + n.Value
	case n.Kind == yaml.ScalarNode && n.Style == yaml.DoubleQuotedStyle:
		want = `"`
	case n.Kind == yaml.ScalarNode && n.Style == yaml.SingleQuotedStyle:
		want = `'`
	case n.Kind == yaml.ScalarNode && n.Style == 0 && n.Tag != "!!null" && n.Value != "":
		r, _ := utf8.DecodeRuneInString(n.Value) // a plain scalar folds its line breaks
		want = string(r)
	}
	if want != "" {
		off := offsetOf(data, n.Line, n.Column)
		props := off >= 0 && off < len(data) && (data[off] == '!' || data[off] == '&') // a tag or an anchor first
		if off < 0 || !props && !bytes.HasPrefix(data[off:], []byte(want)) {
			t.Fatalf("go-yaml places %q at line %d, column %d; counted by LineStarts that is offset %d, which holds %q\ntext: %q",
				want, n.Line, n.Column, off, head(data, off), data)
		}
	}
	for _, c := range n.Content {
		checkNodePositions(t, data, c)
	}
}

func head(data []byte, off int) string {
	if off < 0 || off > len(data) {
		return ""
	}
	return string(data[off:min(len(data), off+12)])
}

// lineTexts are YAML texts with every kind of line break go-yaml knows.
var lineTexts = []string{
	"a: 1\rb: 2\n",
	"a: 1\r\nb: 2\r\n",
	"a: 1\r\r\nb: 2\n",
	"a: 1\n\rb: 2\n",
	"a: 1\u0085b: 2\n",
	"a: 1\u2028b: 2\u2029c: 3\n",
	"a: \"x\u2028y\"\rb: 'p\rq'\nc: 3\n",
	"a: |\n  x\r  y\nb: 2\n",
	"# c\u2028\nb: 2\r---\rc: [x,\ry]\n",
	"\ufeffa: 1\r\nb: [p, \"q\"]\n",
	"k:\r  - x\r  - {y: z}\r\n  - &a w\r  - *a\n",
}

// TestLineStartsAgreesWithGoYAML: the lines kudo-render counts in text
// are go-yaml's for CR, CRLF, mixed endings and the YAML 1.1 breaks.
func TestLineStartsAgreesWithGoYAML(t *testing.T) {
	for _, text := range lineTexts {
		dec := yaml.NewDecoder(strings.NewReader(text))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); err != nil {
				break
			}
			checkNodePositions(t, []byte(text), &n)
		}
	}
	for _, tc := range []struct {
		text   string
		starts []int
	}{
		{"", []int{0}},
		{"a", []int{0}},
		{"a\n", []int{0, 2}},
		{"a\rb", []int{0, 2}},
		{"a\r\nb", []int{0, 3}},
		{"a\r\r\nb", []int{0, 2, 4}},
		{"a\n\rb", []int{0, 2, 3}},
		{"a\u0085b\u2028c\u2029d", []int{0, 3, 7, 11}},
		{"\xc2\xe2\x80", []int{0}}, // the first bytes of NEL and LS alone
	} {
		assert.Check(t, is.DeepEqual(tc.starts, LineStarts([]byte(tc.text))), "LineStarts(%q)", tc.text)
		if got := Breaks([]byte(tc.text)); got != len(tc.starts)-1 {
			t.Errorf("Breaks(%q) = %d, want %d", tc.text, got, len(tc.starts)-1)
		}
		// NextLine steps from line start to line start, then to the end.
		var next []int
		for i := 0; i < len(tc.text); {
			i = NextLine([]byte(tc.text), i)
			next = append(next, i)
		}
		want := tc.starts[1:]
		if len(tc.text) > 0 && tc.starts[len(tc.starts)-1] != len(tc.text) {
			want = append(want[:len(want):len(want)], len(tc.text))
		}
		assert.Check(t, is.DeepEqual(want, next, cmpopts.EquateEmpty()), "NextLine over %q", tc.text)
	}
}

// FuzzLines: wherever go-yaml places a node, the lines and columns
// kudo-render counts find its text.
func FuzzLines(f *testing.F) {
	for _, text := range lineTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 || CheckText([]byte(text)) != nil {
			return // kudo-render refuses it before go-yaml reads it (UTF-16 too)
		}
		dec := yaml.NewDecoder(strings.NewReader(text))
		for range 10 {
			var n yaml.Node
			if err := safeDecode(dec, &n); err != nil {
				return
			}
			checkNodePositions(t, []byte(text), &n)
		}
	})
}

func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errPanic
		}
	}()
	return dec.Decode(n)
}

var errPanic = &TextError{What: "a go-yaml panic"}

// TestCheckText: every character YAML may not hold is found at its line
// and column, lines counted as go-yaml counts them.
func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		reason, text string
		want         *TextError // nil: clean
	}{
		{"clean text with tabs, CRLF and non-ASCII", "a:\t\"é€\"\r\nb: |\n  x\ty\n", nil},
		{"a leading byte order mark", "\ufeffa: 1\n", nil},
		{"NEL, LS and PS are line breaks", "a: 1\u0085b: 2\u2028c: 3\u2029", nil},
		{"a NUL byte", "a: 1\nb: x\x00y\n", &TextError{Offset: 9, Line: 2, Column: 5, What: "a NUL byte"}},
		{"a NUL byte after bare CRs", "a: 1\rb: 2\rc: \x00\n", &TextError{Offset: 13, Line: 3, Column: 4, What: "a NUL byte"}},
		{"a NUL byte after CRLF and mixed breaks", "a: 1\r\n\rc: \x00\n", &TextError{Offset: 10, Line: 3, Column: 4, What: "a NUL byte"}},
		{"a control character", "a: \x1b[31m\n", &TextError{Offset: 3, Line: 1, Column: 4, What: "the control character U+001B"}},
		{"DEL", "a: \x7f\n", &TextError{Offset: 3, Line: 1, Column: 4, What: "the control character U+007F"}},
		{"a C1 control character", "a: \u0090\n", &TextError{Offset: 3, Line: 1, Column: 4, What: "the control character U+0090"}},
		{"invalid UTF-8, columns in characters", "a: é\xff\n", &TextError{Offset: 5, Line: 1, Column: 5, What: "invalid UTF-8 (byte 0xFF)"}},
		{"UTF-16", "\xff\xfea\x00", &TextError{Offset: 0, Line: 1, Column: 1, What: "invalid UTF-8 (byte 0xFF)"}},
		{"a byte order mark in the middle", "a: 1\n\ufeffb: 2\n", &TextError{Offset: 5, Line: 2, Column: 1, What: "a byte order mark (U+FEFF) after the start of the text"}},
		{"a non-character", "a: \uffff\n", &TextError{Offset: 3, Line: 1, Column: 4, What: "the non-character U+FFFF"}},
		{"a leading byte order mark is not a column", "\ufeffa: \x00", &TextError{Offset: 6, Line: 1, Column: 4, What: "a NUL byte"}},
	} {
		got := CheckText([]byte(tc.text))
		assert.Check(t, is.DeepEqual(tc.want, got), "%s: CheckText(%q)", tc.reason, tc.text)
	}
}

// FuzzCheckText: text CheckText passes is never refused by go-yaml's
// reader, and what it finds is at the line and column it gives.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: \x00\n", "a\rb: \x01", "\ufeffa: \ufeff", "a: \xc2\x80\r\n", "é\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		data := []byte(text)
		te := CheckText(data)
		if te == nil {
			var n yaml.Node
			err := yaml.Unmarshal(data, &n)
			if err != nil && (strings.Contains(err.Error(), "control characters") || strings.Contains(err.Error(), "UTF-8") || strings.Contains(err.Error(), "invalid Unicode")) {
				t.Fatalf("CheckText passes %q, go-yaml refuses it: %v", text, err)
			}
			return
		}
		if off := offsetOf(data, te.Line, te.Column); off != te.Offset {
			t.Fatalf("CheckText(%q) = %+v: line %d, column %d is offset %d", text, te, te.Line, te.Column, off)
		}
	})
}

// TestEntryPointsPlaceBadCharacters: Parse, Stream and Unmarshal refuse
// a control character at file:line:column (go-yaml says "control
// characters are not allowed" with no place), lines counted as go-yaml
// counts them.
func TestEntryPointsPlaceBadCharacters(t *testing.T) {
	text := []byte("apiVersion: kudo.dev/v1beta1\r\nname: x\rtasks: [a\x00]\n")
	want := "operator.yaml:3:10: holds a NUL byte (YAML text is UTF-8 of printable characters, tabs and line breaks)"
	var p Problems
	if n := Parse("operator.yaml", text, &p); n != nil || len(p.List) != 1 || p.List[0].Error() != want {
		t.Errorf("Parse: %v, want %s", p.List, want)
	}
	for _, err := range Stream("operator.yaml", text) {
		if err == nil || err.Error() != want {
			t.Errorf("Stream: %v, want %s", err, want)
		}
	}
	var v any
	if err := Unmarshal("operator.yaml", text, &v); err == nil || err.Error() != want {
		t.Errorf("Unmarshal: %v, want %s", err, want)
	}
}
