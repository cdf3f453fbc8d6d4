package tmpl

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// bigNumber guards the fuzzer against templates that loop or allocate for
// minutes ({{ range 100000000 }}, until, repeat): they are valid, just slow.
var bigNumber = regexp.MustCompile(`[0-9]{4,}|[0-9][eE][0-9]|0[xXoObB]`)

// FuzzRender: Render and Decode never panic, whatever the template, and
// every *Error they return has a line that is not negative.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Name }}\ndata:\n  replicas: {{ .Params.REPLICAS | quote }}\n",
		"{{- range $i, $v := .Params.LIST }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{{ $i }}\ndata:\n  v: {{ $v }}\n{{- end }}\n",
		"{{ if eq .Params.ENABLED \"true\" }}\napiVersion: v1\nkind: Service\n{{ else }}\n# disabled\n{{ end }}\n",
		"{{- define \"labels\" }}\napp: {{ .Name }}\n{{- end }}\napiVersion: v1\nkind: X\nmetadata:\n  labels:\n{{- template \"labels\" . }}\n",
		"apiVersion: v1\nkind: X\nspec:\n{{ toYaml .Params.MAP | indent 2 }}\n",
		"apiVersion: v1\nkind: X\nbad: [unclosed\n",
		"apiVersion: v1\nkind: X\nm:\n  <<: {a: 1}\n  b: &x 2\n  c: *x\n",
		"- a\n- b\n",
		"{{ .Params.NOPE }}",
		"{{ now }}",
		"{{ fail \"boom\" }}",
		"{{ .Name | b64enc | sha256sum }}\n",
		"---\n---\n",
		"apiVersion: v1\nkind: X\ndata: {{ .Params | toJson }}\n",
		"a: {{ \"x\\ny: 1\" }}\n",
		"{{ with (dict \"k\" (upper .Name)).k }}{{ . }}{{ else with default \"d\" \"\" }}{{ lower . }}{{ end }}\n",
		"{{ define \"x\" }}{{ title . }}{{ end }}{{ range $i, $v := list 1 (add 1 1) }}{{ template \"x\" (print $v) }}{{ end }}\n",
	} {
		f.Add(seed)
	}
	data := map[string]any{
		"Name": "inst", "Namespace": "ns", "OperatorName": "op",
		"Params": map[string]any{
			"REPLICAS": "3", "ENABLED": "true",
			"LIST": []any{"a", "b"}, "MAP": map[string]any{"k": "v", "n": map[string]any{"x": int64(1)}},
		},
		"Pipes": map[string]string{"key": "inst.deploy.main.gen.task.key"},
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || bigNumber.MatchString(src) {
			t.Skip()
		}
		out, err := Render("templates/fuzz.yaml", []byte(src), data)
		if err != nil {
			if strings.Contains(err.Error(), "is not a defined function") {
				t.Fatalf("a function the parser accepted is missing when executing (see walk): %v", err)
			}
			checkError(t, err)
			return
		}
		for l := 0; l <= len(out.Text)+1; l += 1 + l/8 {
			if sl := out.SourceLine(l); sl < 0 {
				t.Fatalf("SourceLine(%d) = %d", l, sl)
			}
		}
		docs, err := Decode(out)
		if err != nil {
			checkError(t, err)
			return
		}
		for _, d := range docs {
			if d.Map == nil || d.Line < 0 {
				t.Fatalf("bad document %#v", d)
			}
		}
	})
}

func checkError(t *testing.T, err error) {
	t.Helper()
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("want *tmpl.Error, got %T %v", err, err)
	}
	if te.Line < 0 {
		t.Fatalf("negative line: %#v", te)
	}
	if te.Template != "templates/fuzz.yaml" {
		t.Fatalf("wrong template name: %#v", te)
	}
	_ = te.Error()
}
