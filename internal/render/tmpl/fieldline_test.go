package tmpl_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/render/tmpl"
)

func TestDuplicateKey(t *testing.T) {
	cases := []struct {
		reason, src, want string
	}{
		{reason: "a key written twice", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
			want: `t.yaml:5: duplicate key "name": first at line 4`},
		{reason: "in a flow mapping, after an action", src: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: {{ \"1\" | quote }}, x: \"2\"}\n",
			want: `duplicate key "x"`},
		{reason: "a merge key does not count", src: "apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: a}\ndata:\n  <<: {x: \"1\"}\n  x: \"2\"\n"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			out, err := tmpl.Render("t.yaml", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = tmpl.Decode(out)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestFieldLine(t *testing.T) {
	src := `{{ if true }}
apiVersion: v1
kind: Service
metadata:
  name: a
{{ end }}
---
apiVersion: v1
kind: Service
metadata:
  name: b
spec:
  ports:
  - name: x
    port: {{ 3888 | quote }}
  - name: y
    port: 1
`
	out, err := tmpl.Render("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc  int
		path string
		want int
	}{
		{0, "", 2},
		{0, "metadata.name", 5},
		{1, "spec.ports[0].port", 15},
		{1, "/spec/ports/1/port", 17},
		{1, "spec.ports[1].targetPort", 16}, // not written: its parent item
		{1, "metadata.labels[app]", 10},
		{2, "kind", 0},
	}
	for _, c := range cases {
		if got := out.FieldLine(c.doc)(c.path); got != c.want {
			t.Errorf("doc %d %q: line %d, want %d", c.doc, c.path, got, c.want)
		}
	}
}
