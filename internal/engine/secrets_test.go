package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// secretPkg is a framework whose Secret's password a reference copies
// into a ConfigMap's label (the API server refuses such a label) and into
// a ConfigMap's data through another ConfigMap.
func secretPkg(label string) fstest.MapFS {
	return fstest.MapFS{
		"framework.yaml": {Data: []byte("name: s\nversion: \"1\"\ntasks:\n  all: {resources: [s.yaml]}\nplans:\n  deploy:\n    steps:\n      - {name: all, tasks: [all]}\n")},
		"params.yaml":    {Data: []byte("password: {default: \"hunter2 hunter2!\"}\n")},
		"templates/s.yaml": {Data: []byte(`apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {password: {{ .Params.password | quote }}, user: orders}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: first}
data:
  pw: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}'}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: second
  labels: {x: ` + label + `}
data:
  pw: {getValueFrom: {kind: ConfigMap, name: first, path: '{.data.pw}'}}
`)},
	}
}

// TestErrorsHideSecrets: an error or a warning of a render (here the API
// server's refusal of a label copied out of a Secret through a ConfigMap,
// and the warnings about copying) never quotes a Secret's value; the
// diagnostics that adapters turn into results are masked too.
func TestErrorsHideSecrets(t *testing.T) {
	b, err := bundle.Load(secretPkg("{getValueFrom: {kind: ConfigMap, name: first, path: '{.data.pw}'}}"), "s")
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	var copied []string
	opts := engine.Options{
		Warn:       func(m string) { warnings = append(warnings, m) },
		SecretCopy: func(o *object.Object, field string, _ any) { copied = append(copied, o.Name()+" "+field) },
	}
	_, err = engine.RenderWith(opts, engine.Request{Bundle: b, Instance: render.Instance{Name: "orders", Namespace: "shop"}})
	if err == nil {
		t.Fatal("want the label refused")
	}
	texts := append([]string{err.Error()}, warnings...)
	for _, d := range diag.From(err) {
		texts = append(texts, d.Error())
	}
	for _, s := range texts {
		if strings.Contains(s, "hunter2") {
			t.Errorf("a Secret's value is printed: %s", s)
		}
	}
	if !strings.Contains(err.Error(), "metadata.labels") || !strings.Contains(err.Error(), "ConfigMap shop/second") {
		t.Errorf("the error no longer says where: %s", err)
	}
	if len(warnings) != 3 || len(copied) != 3 {
		t.Errorf("want three copies reported and warned, got %v and %v", copied, warnings)
	}
}

// TestSecretParamsHidden: the value of a secret parameter (by its name,
// marked writeOnly, or read by a Secret's template) is hidden in errors
// raised before any Secret is rendered: a template's fail, a line of
// invalid YAML after rendering, the parameter's own refusal, and a
// dependency's; the message still says where.
func TestSecretParamsHidden(t *testing.T) {
	const pw = "s3cr3t: p@ss#1"
	pkg := func(param, template, schema string) *bundle.Bundle {
		t.Helper()
		fs := fstest.MapFS{
			"framework.yaml":   {Data: []byte("name: s\nversion: \"1\"\ntasks:\n  all: {resources: [t.yaml]}\nplans:\n  deploy:\n    steps:\n      - {name: all, tasks: [all]}\n")},
			"params.yaml":      {Data: []byte(param + ": {default: \"x\"}\n")},
			"templates/t.yaml": {Data: []byte(template)},
		}
		if schema != "" {
			fs["params.schema.json"] = &fstest.MapFile{Data: []byte(schema)}
		}
		b, err := bundle.Load(fs, "s")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
	cases := []struct {
		reason string
		b      *bundle.Bundle
		where  string
	}{
		{"a template's fail names the password", pkg("dbPassword", `{{ fail (printf "%s is too short" .Params.dbPassword) }}`, ""), "templates/t.yaml:1"},
		{"the rendered line of invalid YAML holds it", pkg("ADMIN_PASSWORD", cm+"data:\n  pw: {{ .Params.ADMIN_PASSWORD }}\n", ""), "invalid YAML after rendering"},
		{"a writeOnly parameter refused by its pattern", pkg("pin", cm, `{"properties": {"pin": {"type": "string", "writeOnly": true, "pattern": "^[0-9]+$"}}}`), "pin"},
		{"a parameter a Secret's template reads, in a fail elsewhere in it", pkg("key", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: {{ .Params.key | quote }}}\n---\n{{ fail .Params.key }}", ""), "templates/t.yaml"},
	}
	for _, tc := range cases {
		var param string
		for _, p := range tc.b.Params {
			param = p.Name
		}
		_, err := engine.RenderWith(engine.Options{}, engine.Request{Bundle: tc.b, Instance: render.Instance{Name: "i", Namespace: "ns"}, Params: map[string]any{param: pw}})
		if err == nil {
			t.Fatalf("%s: no error", tc.reason)
		}
		texts := []string{err.Error()}
		for _, d := range diag.From(err) {
			texts = append(texts, d.Error())
		}
		for _, s := range texts {
			if strings.Contains(s, "s3cr3t") || strings.Contains(s, "p@ss") {
				t.Errorf("%s: the value is printed: %s", tc.reason, s)
			}
		}
		if !strings.Contains(err.Error(), tc.where) || !strings.Contains(err.Error(), "(secret value hidden)") {
			t.Errorf("%s: %s", tc.reason, err)
		}
	}
}
