package tmpl

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeRefusesBadText(t *testing.T) {
	cases := []struct {
		reason, src, want string
		line              int
	}{
		{"a NUL byte", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: \"{{ printf \"%c\" 0 }}\"}\n", "NUL byte", 4},
		{"invalid UTF-8", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: \"{{ printf \"%c\" 255 | b64enc | b64dec }}\xff\"\n", "invalid UTF-8", 5},
		{"deep nesting", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\n", "nesting depth exceeds", 4},
		{"an alias bomb", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n", "alias *e (aliases expanded): YAML values exceeds the limit of 1000000 values (raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES) (rendered line 9, column 29)", 9},
		{"an alias fan-out through merge keys", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\na: &a {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n" + mergeLevels(7), "alias *a3 (aliases expanded): YAML values exceeds the limit of 1000000 values (raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES) (rendered line 56, column 12)", 56},
		{"an anchor that holds its own alias", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: &d {x: *d}\n", "alias *d is inside the value of its own anchor (rendered line 4, column 14)", 4},
		{"a control character, placed after bare CRs", "apiVersion: v1\rkind: ConfigMap\rmetadata: {name: a}\ndata: {x: \"{{ printf \"%c\" 27 }}\"}\n", "the rendered text holds the control character U+001B (rendered line 4, column 12)", 4},
		{"a byte order mark in the middle", "apiVersion: v1\nkind: ConfigMap\n\ufeffmetadata: {name: a}\n", "byte order mark (U+FEFF) after the start of the text (rendered line 3, column 1)", 3},
	}
	for _, tc := range cases {
		out, err := Render("templates/t.yaml", []byte(tc.src), nil)
		if err == nil {
			_, err = Decode(out)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.reason, err, tc.want)
			continue
		}
		if te, ok := err.(*Error); tc.line > 0 && (!ok || te.Line != tc.line) {
			t.Errorf("%s: want template line %d, got %v", tc.reason, tc.line, err)
		}
	}
}

// mergeLevels writes levels mappings below &a, each of ten keys whose
// values merge the level above.
func mergeLevels(levels int) string {
	var b strings.Builder
	prev := "a"
	for i := range levels {
		fmt.Fprintf(&b, "a%d: &a%d\n", i, i)
		for k := range 10 {
			fmt.Fprintf(&b, "  k%d: {<<: *%s}\n", k, prev)
		}
		prev = fmt.Sprintf("a%d", i)
	}
	return b.String()
}

// manyDocs renders n small documents.
func manyDocs(n int) []byte {
	return []byte(fmt.Sprintf("{{ range $i := until %d }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{{ $i }}\ndata:\n  k: v\n{{ end }}\n", n))
}

func TestDecodeManyDocuments(t *testing.T) {
	out, err := Render("templates/many.yaml", manyDocs(20000), nil)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := Decode(out)
	if err != nil || len(docs) != 20000 {
		t.Fatalf("got %d documents, %v", len(docs), err)
	}
	if docs[19999].Line != 3 {
		t.Errorf("the last document starts at template line %d, want 3", docs[19999].Line)
	}
}

// BenchmarkDecodeDocuments: decoding is linear in the number of documents.
func BenchmarkDecodeDocuments(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		out, err := Render("templates/many.yaml", manyDocs(n), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				if _, err := Decode(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
