package tmpl

import (
	"strings"
	"testing"
	"text/template"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestFunctionsInEveryPosition: a parsed template keeps only the functions
// it calls (Parse finds them with walk), so a call in any place
// text/template allows one must be found, or executing it fails with "not
// a defined function". Each case renders as it does with text/template
// given every function.
func TestFunctionsInEveryPosition(t *testing.T) {
	cases := []struct {
		reason string
		src    string
	}{
		{"an action", `{{ upper "a" }}`},
		{"a later command of a pipeline", `{{ "a" | upper | quote }}`},
		{"an argument in parentheses", `{{ printf "%s-%s" (upper "a") (lower (trim " B ")) }}`},
		{"a field of a call's result", `{{ (dict "k" (title "v")).k }}`},
		{"a variable declaration", `{{ $x := repeat 2 "ab" }}{{ $x }}`},
		{"an if condition and else if", `{{ if hasPrefix "x" (lower "Y") }}a{{ else if contains "b" (upper "ab") }}{{ snakecase "B" }}{{ else }}{{ camelcase "c_d" }}{{ end }}`},
		{"a range over a list builder", `{{ range $i, $v := list 1 (add 1 1) }}{{ mul $i $v }}{{ else }}{{ nospace " " }}{{ end }}`},
		{"a with and else with", `{{ with empty "" | not }}{{ . }}{{ else with default "d" "" }}{{ upper . }}{{ end }}`},
		{"a template call's argument and a defined template", `{{ define "x" }}{{ title . }}{{ end }}{{ template "x" (lower "A B") }}`},
		{"builtins not in the function map", `{{ and 1 (or 0 2) }} {{ len (splitList "," "a,b") }} {{ index (list 1 2) 1 }}`},
		{"a list builder inside a range", `{{ range until 2 }}{{ join "," (list . (sub 5 .)) }};{{ end }}`},
		{"sorted keys of a dict", `{{ keys (dict "b" 1 "a" 2) | sortAlpha | toJson }}`},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			got, err := Render("templates/t.yaml", []byte(c.src), nil)
			if err != nil {
				t.Fatalf("cannot render: %v", err)
			}
			ref, err := template.New("t").Funcs(FuncMap()).Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := ref.Execute(&want, nil); err != nil {
				t.Fatal(err)
			}
			assert.Check(t, is.DeepEqual(want.String(), string(got.Text)), "-text/template with every function +Render")
		})
	}
}

// TestUndefinedFunctionMessage: the parser still checks every name
// against all functions, with text/template's own message.
func TestUndefinedFunctionMessage(t *testing.T) {
	_, err := Parse("templates/t.yaml", []byte("a: 1\nb: {{ nope 1 }}\n"))
	if err == nil || !strings.Contains(err.Error(), `templates/t.yaml:2`) || !strings.Contains(err.Error(), `function "nope" not defined`) {
		t.Fatalf("got %v, want line 2 and function \"nope\" not defined", err)
	}
}
