package tmpl

import (
	"strings"
	"testing"
)

// TestDidYouMean: an undefined `.Params.X` and an unknown function name
// are refused with the template line and the closest defined name.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		reason, src, want string
	}{
		{"a misspelt parameter is suggested from the package's parameters",
			"a: 1\nr: {{ .Params.replica }}\n",
			`templates/t.yaml:2: at <.Params.replica>: map has no entry for key "replica"; did you mean "replicas"?`},
		{"a parameter far from every name gets no suggestion",
			"r: {{ .Params.zzzzzzzz }}\n",
			`templates/t.yaml:1: at <.Params.zzzzzzzz>: map has no entry for key "zzzzzzzz"`},
		{"a misspelt function is suggested from Sprig's and KUDO's",
			"a: 1\nb: 2\nr: {{ .Params.replicas | upperr }}\n",
			`templates/t.yaml:3: function "upperr" not defined; did you mean "upper"?`},
		{"KUDO's toYaml is among the suggestions",
			"r: {{ toYml .Params }}\n",
			`templates/t.yaml:1: function "toYml" not defined; did you mean "toYaml"?`},
		{"a Sprig function withheld is said to be withheld, not misspelt",
			"r: {{ now }}\n",
			`templates/t.yaml:1: function "now" not defined; Sprig's "now" is not among the functions kudo-render offers`},
	} {
		t.Run(c.reason, func(t *testing.T) {
			data := map[string]any{"Params": map[string]any{"replicas": "1", "image": "x"}}
			_, err := Render("templates/t.yaml", []byte(c.src), data)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
			if strings.Contains(c.want, "did you mean") && !strings.Contains(err.Error(), "did you mean") {
				t.Fatal("no suggestion")
			}
		})
	}
}

// TestYAMLErrorAtTheMistake (issue 26.7): a bad indentation or a tab in
// the rendered YAML is reported at the template line of the mistake.
func TestYAMLErrorAtTheMistake(t *testing.T) {
	for _, c := range []struct {
		reason, src, want string
	}{
		{"a key indented wrongly at the end of a long mapping",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"1\"\n  b: \"2\"\n  c: {{ .Params.replicas | quote }}\n  d: \"4\"\n   e: 5\n",
			`templates/t.yaml:10: invalid YAML after rendering: did not find expected key (rendered line 10: "   e: 5")`},
		{"a list item indented less than its siblings",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"1\"\n  b:\n    - 1\n    - 2\n    - 3\n   - 4\n",
			`templates/t.yaml:11: invalid YAML after rendering: did not find expected key (rendered line 11: "   - 4")`},
	} {
		t.Run(c.reason, func(t *testing.T) {
			out, err := Render("templates/t.yaml", []byte(c.src), map[string]any{"Params": map[string]any{"replicas": "1"}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(out)
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
