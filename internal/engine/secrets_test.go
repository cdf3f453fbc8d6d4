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
