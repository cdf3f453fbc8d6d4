package tmpl

import (
	"errors"
	"strings"
	"testing"
)

func TestYAMLErrorLineIsTemplateLine(t *testing.T) {
	src := `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Name }}
data:
{{- range $i, $v := .Items }}
  k{{ $i }}: "{{ $v }}"
{{- end }}
  bad: [unclosed
`
	out, err := Render("templates/cm.yaml", []byte(src), map[string]any{"Name": "x", "Items": []string{"a", "b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Decode(out)
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("want *Error, got %v", err)
	}
	t.Log(err)
	if te.Line != 9 {
		t.Errorf("line = %d, want 9 (the template line of the flow sequence)", te.Line)
	}
}

func TestExecErrorNamesLine(t *testing.T) {
	_, err := Render("templates/a.yaml", []byte("a: 1\nb: {{ .Params.NOPE }}\n"), map[string]any{"Params": map[string]any{}})
	var te *Error
	if !errors.As(err, &te) || te.Line != 2 || !strings.Contains(te.Msg, "NOPE") {
		t.Fatalf("got %#v", err)
	}
	t.Log(err)
}

func TestDenied(t *testing.T) {
	for _, fn := range []string{"env", "now", "randAlpha", "genCA", "uuidv4", "date", "expandenv"} {
		_, err := Parse("t", []byte("{{ "+fn+" }}"))
		if err == nil {
			t.Errorf("%s: want parse error", fn)
		}
	}
}

// TestResourceLimits: templates come from other teams; what they make a
// render allocate is bounded.
func TestResourceLimits(t *testing.T) {
	for name, src := range map[string]string{
		"until":     `{{ range until 100000000 }}x{{ end }}`,
		"untilStep": `{{ range untilStep 0 100000000 1 }}x{{ end }}`,
		"repeat":    `{{ repeat 100000000 "abcdefgh" }}`,
		"output":    `{{ range until 100000 }}{{ repeat 1000 "x" }}{{ end }}`,
	} {
		if _, err := Render("t", []byte(src), nil); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if out, err := Render("t", []byte(`{{ range until 3 }}{{ . }}{{ end }}`), nil); err != nil || string(out.Text) != "012" {
		t.Errorf("until 3: %v", err)
	}
}
