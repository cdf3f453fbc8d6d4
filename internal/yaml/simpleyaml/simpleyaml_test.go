package simpleyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goYAMLRoots are the root nodes go-yaml parses from text, of the
// documents with content.
func goYAMLRoots(text []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var roots []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return roots, nil
		}
		if err != nil {
			return nil, err
		}
		if len(n.Content) == 0 || n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null" {
			continue
		}
		roots = append(roots, n.Content[0])
	}
}

// sameNodes says where two node trees differ ("" when they do not).
func sameNodes(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style || a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: kind %v tag %s value %q style %v at %d:%d (%d children), go-yaml: kind %v tag %s value %q style %v at %d:%d (%d children)",
			path, a.Kind, a.Tag, a.Value, a.Style, a.Line, a.Column, len(a.Content), b.Kind, b.Tag, b.Value, b.Style, b.Line, b.Column, len(b.Content))
	}
	for i := range a.Content {
		if d := sameNodes(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkSimple: when Parse accepts text, go-yaml parses it without
// error into the same nodes.
func checkSimple(t *testing.T, text []byte) bool {
	t.Helper()
	got, ok := Parse(text)
	if !ok {
		return false
	}
	want, err := goYAMLRoots(text)
	if err != nil {
		t.Fatalf("accepted what go-yaml refuses (%v):\n%s", err, text)
	}
	if len(got) != len(want) {
		t.Fatalf("%d documents, go-yaml %d:\n%s", len(got), len(want), text)
	}
	for i := range got {
		if d := sameNodes(got[i], want[i], fmt.Sprint("doc ", i)); d != "" {
			t.Fatalf("%s\n%s", d, text)
		}
	}
	return true
}

type simpleCase struct {
	reason string
	text   string
	accept bool
}

func TestParse(t *testing.T) {
	cases := []simpleCase{
		{"a manifest", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app.kubernetes.io/name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        args:\n          - --port=80\n        ports:\n        - containerPort: 80\n          protocol: TCP\n", true},
		{"a manifest with quoted arguments", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app.kubernetes.io/name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        args:\n          - run\n          - \"--port\"\n        ports:\n        - containerPort: 80\n          protocol: TCP\n", true},
		{"documents, empty ones and blank lines", "\n---\na: 1\n\n---\n---\n\nb:\n  c: ~\n  d:\n  e: 'x y'\n\n", true},
		{"typed scalars", "a: true\nb: 0x1F\nc: 1_000\nd: 1.5e3\ne: .inf\nf: null\ng: 2001-12-14\nh: yes\ni: -1\nj: +.5\nk: 012\n", true},
		{"a document that is not a mapping", "- a\n- b\n", false},
		{"comments", "# head\na: 1 # one\n  # deeper\nb: # two\n  c: 'x # y' # three\n# between\n  d:\n  - e # four\n  - f: \"g\\\" #\"   # five\n\n# foot\n", true},
		{"comments around block scalars", "a: |\n  # text\n  x # text\n# after\nb: |+\n  y\n\n# after\n\nc: |-\n    z\n  # less indented\nd: 1\n", true},
		{"a document of comments", "# only\n", false},
		{"a comment after a dash", "- # c\n  a: 1\n", false},
		{"a comment right after a quote", "a: \"x\"# c\n", false},
		{"a comment after a block indicator", "a: | # c\n  x\n", true},
		{"flow style", "a: {b: 1}\n", false},
		{"flow collections of manifests", "a: {}\nb: { }\nc: []\nd: [\"\"]\ne: [ \"/bin/sh\", \"-c\" ]\nf: ['x', y-1, 2, true, null]\ng:\n- [a,b]\n- {} # c\n", true},
		{"flow collections refused", "a: [a, ]\n", false},
		{"a nested flow sequence", "a: [[a]]\n", false},
		{"a flow mapping with content", "a: {b}\n", false},
		{"text after a flow sequence", "a: [a] b\n", false},
		{"a flow sequence over two lines", "a: [a,\n  b]\n", false},
		{"non-ASCII in a flow sequence", "a: [\"é\", b]\n", false},
		{"a sequence item after quoted keys", "\"a\": 1\n'b c': 2\n\"d\\\"e\":\n  'f''g': x\n- \"h\": i\n", false},
		{"quoted keys in a mapping", "\"a\": 1\n'b c': 2\n\"d\\\"e\":\n  'f''g': x\nh:\n- \"i\": j\n  'k': l\n", true},
		{"a quoted key without a blank after its colon", "\"a\":b\n", false},
		{"a non-ASCII quoted key", "\"é\": x\n", false},
		{"a literal block scalar", "a: |\n  x\n", true},
		{"literal block scalars: chomping, blank lines, deeper lines, comments inside", "a: |\n  #!/bin/sh\n\n    indented: {x} # y\n  end\n\n\nb: |-\n  s\n\nc: |+\n  k\n\n\nd:\n  e: |\n    f\n  g: 1\n", true},
		{"a keep block scalar before a document end", "a: |+\n  k\n\n---\nb: 1\n", true},
		{"a literal block scalar at the end without a line break", "a: |\n  x", false},
		{"a folded block scalar", "a: >\n  x\n", false},
		{"an indentation indicator", "a: |2\n  x\n", false},
		{"a blank first line in a block scalar", "a: |\n\n  x\n", false},
		{"lines of blanks inside a block scalar", "a: |\n  x\n     \n\n \n  y\n    \n  z\nb: 1\n", true},
		{"a line of blanks deeper than a block scalar after it", "a: |\n  x\n     \nb: 1\n", false},
		{"tabs", "a: |\n  x\n  \ty\t\n# c\td\nb: 1 # \t\n", true},
		{"a tab first in a block scalar", "a: |\n  \tx\n", false},
		{"a tab in a quoted scalar", "a: \"\t\"\n", false},
		{"a tab in a plain scalar", "a: b\tc\n", false},
		{"a tab before a value", "a:\tb\n", false},
		{"a tab indenting a key", "a:\n\tb: 1\n", false},
		{"an empty block scalar", "a: |\nb: 1\n", false},
		{"a continuation line", "a: b\n  c\n", false},
		{"a tab", "a:\tb\n", false},
		{"an anchor", "a: &x 1\n", false},
		{"a mapping value inside a value", "a: b: c\n", false},
		{"an item after a value", "a: 1\n- b\n", false},
		{"less indented than the root", "  a: 1\nb: 2\n", false},
		{"a document end", "a: 1\n...\n", false},
		{"escapes of ASCII characters", "a: \"x\\ty\\n\\\"z\\\\ \\' \\0\\e\"\n", true},
		{"a slash escape, which go-yaml does not know", "a: \"x\\/y\"\n", false},
		{"a Unicode escape", "a: \"\\u00e9\"\n", false},
		{"an escaped closing quote", "a: \"x\\\"\n", false},
		{"a quote inside double quotes", "a: \"x\"y\"\n", false},
		{"punctuation inside quotes", "a: \"x, y: #z <b> & {c} [d] 'e' %f @g `h` |i >j *k !l ?m\"\nb: 'x \"y\" # z \\ w'\n", true},
		{"a quote doubled inside single quotes", "a: 'it''s'\n", true},
		{"a lone quote inside single quotes", "a: 'it's'\n", false},
		{"an unterminated quote", "a: \"x\n", false},
		{"a lone quote", "a: \"\n", false},
		{"punctuation in a plain scalar", "a: x, [y] {z} ?w !v &u *t %s |r >q `p @o 'n' \"m\" \\l =k\nb: <a.b@c.d>\n", true},
		{"a merge key as a value", "a: <<\n", false},
		{"flags", "args:\n- -c\n- --web.listen-address=0.0.0.0:9096\nb: -x -y\nc: ::1\nd: ?q\ne: -.5\nf: -1\ng: --\n", true},
		{"a dash alone in a sequence item", "a:\n- - \n", false},
		{"a comment after a plain scalar", "a: x #y\n", true},
		{"a hash inside a plain scalar", "a: x#y\n", false},
		{"trailing blanks", "a: 1   \nb:  \n  c: 'x'  \nd: |\n  x  \n  y\ne:\n- z \n", true},
		{"non-ASCII text", "a: café ü\nb: \"日本 x\"\nc: 'ñ'\nd: |\n  the broker’s\n", true},
		{"non-ASCII first", "a: é\n- b\n", false},
		{"a non-ASCII scalar", "a: é\nb: \u00a0x\n", true},
		{"a non-ASCII key", "é: a\n", false},
		{"a character beyond U+FFFF", "a: \"x😀\"\n", false},
		{"a line separator", "a: x\u2028y\n", false},
		{"NEL", "a: x\u0085y\n", false},
		{"a byte order mark", "a: x\ufeffy\n", false},
		{"invalid UTF-8", "a: x\xffy\n", false},
	}
	deep := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%sk:\n", strings.Repeat(" ", i))
		}
		return b.String()
	}
	cases = append(cases, simpleCase{"nested 1,000 deep", deep(maxSimpleDepth), true},
		simpleCase{"nested deeper than maxSimpleDepth", deep(maxSimpleDepth + 1), false})
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			if got := checkSimple(t, []byte(c.text)); got != c.accept {
				t.Errorf("accepted: %v, want %v", got, c.accept)
			}
		})
	}
}

// FuzzParse: whatever Parse accepts, go-yaml parses to the
// same nodes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "a:\n- b\n- c: d\n  e: f\ng: h\n", "---\na:\n  b:\n    - 1\n    - x: y\n", "a: 'b'\nc: \"d\"\n",
		"a:\n\n  b: 1\n", "k:\n  - - x\n", "a: b:c\n", "a: -b\n", "a: (x)\n", "- a: 1\n", "a:\n-\n", "a:  b\n",
		"a: \"#, {[\"\n", "a: '\\ \" #'\n", "a: \"x\\ny\\t\\\"z\\\\\\'\\0\\e\"\n", "a: \"\\/\"\n", "a: 'it''s'\n", "a: \"x\\\"\n",
		"a: \"\\u00e9\\x41\"\n", "email: a.b@c.com\n", "email: <a@b.c>\n", "a: x, [y] {z} ?w !v &u *t %s |r >q `p\n", "a: <<\n", "a: b 'c' \"d\"\n", "- -c\n- --x=y\n", "# c\na: 1 # d\n  # e\nb:\n- x # f\n- 'y' # g\n", "a: |+\n  x\n\n  # c\n\n# d\n\nb: 1\n", "a: [ \"x\", y, 'z' ]\nb: {}\n\"c\": []\n", "- [a, b]\n- {}\n", "'a': [1, -x, .5, ~]\n", "\"é\": x\n", "- 'ü': [a]\n", "a: b   \nc: |\n  d  \n", "a: |\n  x\n    \n \n  y\n", "a: |+\n  x\n   \n", "a: |\n\tx\n", "a: |\n  x\n \t\n  y\n", "a:\t\n", "a: '\t'\n", "a: ::1\nb: ?x\nc: -\n", "a: -x: y\n", "- -- x\n", "a: caf\u00e9\nb: \"\u65e5\"\nc: |\n  \u2019\n", "a: x\u2028y\n", "a: '\U0001F600'\n", "- \"x: y\"\n", "a: |\n  x\n\n   y\nb: |+\n  z\n\n", "a: |-\n  x\n",
		// line breaks other than LF: go-yaml counts each as a line
		"a: 1\rb: 2\n", "a: 1\r\nb: 2\r\n", "a: 1\r\r\nb: 2\n", "a: |\n  x\r  y\n", "a: 1\u0085b: 2\n", "a: 'x\u2029y'\n", "a: 1\n\ufeffb: 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		checkSimple(t, text)
	})
}

// TestParseGenerated: documents in the style templates render
// (nested mappings, sequences indented or not, scalars of every type) are
// accepted and parse to go-yaml's nodes.
func TestParseGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2)) // fixed: the same documents every run
	scalars := []string{"x", "web-1", "nginx:1.27", "1", "-1", "+2", "0x1F", "0o17", "012", "1_000", "1.5", "-.5", "1e3", ".inf", "-.Inf", ".nan",
		"true", "False", "yes", "no", "on", "Off", "y", "N", "null", "~", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "a b  c", "(x)", "/path/to",
		`"quoted"`, `"yes"`, `"1"`, `''`, `'single: x'`, `"a: b"`, "v1", "apps/v1", `"x, y: #z <b> & {c} [d]"`, `'a "b" \ c'`, `" "`,
		`"line\none\ttab \"q\" \\"`, `'it''s'`, "me@example.com", "<me@example.com>", "x, y", "a=b", "50%", "k8s.io/x[0]",
		"{}", "[]", `[""]`, `[ "/bin/sh", "-c" ]`, "[a, b-2, 3]", `['x', "y"]`}
	keys := []string{"a", "name", "app.kubernetes.io/name", "1", "true", "null", "x", "k_2", "x.y", "z"}
	var gen func(b *strings.Builder, indent, depth int)
	gen = func(b *strings.Builder, indent, depth int) {
		pad := strings.Repeat(" ", indent)
		for i := range 1 + r.IntN(4) {
			key := keys[r.IntN(len(keys))] + fmt.Sprint(i)
			if r.IntN(5) == 0 {
				b.WriteString("\n")
			}
			switch c := r.IntN(6); {
			case c < 3 || depth > 3:
				fmt.Fprintf(b, "%s%s: %s\n", pad, key, scalars[r.IntN(len(scalars))])
			case c == 3:
				fmt.Fprintf(b, "%s%s:\n", pad, key)
				gen(b, indent+1+r.IntN(3), depth+1)
			case c == 4:
				fmt.Fprintf(b, "%s%s:\n", pad, key)
				seqIndent := indent + r.IntN(2)*2
				for range 1 + r.IntN(3) {
					if r.IntN(2) == 0 {
						fmt.Fprintf(b, "%s- %s\n", strings.Repeat(" ", seqIndent), scalars[r.IntN(len(scalars))])
						continue
					}
					var item strings.Builder
					gen(&item, seqIndent+2, depth+1)
					text := item.String()
					text = strings.TrimLeft(text, "\n")
					b.WriteString(strings.Repeat(" ", seqIndent) + "- " + text[seqIndent+2:])
				}
			case c == 5 && r.IntN(2) == 0:
				fmt.Fprintf(b, "%s%s: |%s\n", pad, key, []string{"", "-", "+"}[r.IntN(3)])
				inner := strings.Repeat(" ", indent+1+r.IntN(3))
				fmt.Fprintf(b, "%sfirst: line\n", inner)
				for range r.IntN(4) {
					switch r.IntN(4) {
					case 0:
						b.WriteString("\n")
					case 1:
						fmt.Fprintf(b, "%s  deeper # %s\n", inner, scalars[r.IntN(len(scalars))])
					default:
						fmt.Fprintf(b, "%s%s: {x} [y]\n", inner, scalars[r.IntN(len(scalars))])
					}
				}
				fmt.Fprintf(b, "%send\n", inner)
			default:
				fmt.Fprintf(b, "%s%s:\n", pad, key)
			}
		}
	}
	for i := range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteString("---\n")
			gen(&b, 0, 0)
		}
		if !checkSimple(t, []byte(b.String())) {
			t.Fatalf("document %d refused:\n%s", i, b.String())
		}
	}
}

// TestPlainTag: plainTag's shortcut resolves as go-yaml does.
func TestPlainTag(t *testing.T) {
	for c := range 256 {
		if !plainByte[c] || c == ' ' {
			continue
		}
		for _, rest := range []string{"", "rue", "RUE", "alse", "ull", "ULL", "es", "o", "n", "ff", "1", ".5", "x", "2001-12-14", "0", "inf", "Inf"} {
			n := &yaml.Node{Kind: yaml.ScalarNode, Value: string(rune(c)) + rest}
			if got, want := plainTag(n), n.ShortTag(); got != want {
				t.Errorf("%q: %s, go-yaml %s", n.Value, got, want)
			}
		}
	}
}

// BenchmarkParse compares Each with go-yaml on rendered manifests and on
// shapes that cost a line-based parser most (blank lines, one large
// mapping, a long sequence of mappings).
func BenchmarkParse(b *testing.B) {
	inputs := []struct{ name, text string }{
		{"manifests", strings.Repeat("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app: y\ndata:\n  k: \"v, w\"\n  s: |\n    line one\n    line two\n", 2_000)},
		{"blank-lines", "a:\n" + strings.Repeat("\n", 100_000) + "  b: 1\n"},
		{"one-mapping", strings.Repeat("key: value\n", 50_000)},
		{"sequence-of-mappings", "a:\n" + strings.Repeat("- b: 1\n  c: 2\n", 25_000)},
	}
	for _, in := range inputs {
		text := []byte(in.text)
		b.Run(in.name+"/simpleyaml", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if !Each(text, false, func(*yaml.Node) bool { return true }) {
					b.Fatal("refused")
				}
			}
		})
		b.Run(in.name+"/go-yaml", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := goYAMLRoots(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
