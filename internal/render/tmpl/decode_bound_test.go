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
		{"an alias bomb", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n", "YAML values exceeds", 0},
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
