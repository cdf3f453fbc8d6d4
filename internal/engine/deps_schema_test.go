package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
)

// TestDependencyParametersGoThroughTheSchema: a dependency's
// params.schema.json applies to the values its parent's parameter file
// gives, exactly as when the dependency is rendered on its own.
func TestDependencyParametersGoThroughTheSchema(t *testing.T) {
	dep, err := bundle.Load(fstest.MapFS{
		"framework.yaml":     {Data: []byte("name: db\nversion: \"1\"\ntasks:\n  app: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n")},
		"params.yaml":        {Data: []byte("REPLICAS: {default: \"1\", type: integer}\n")},
		"params.schema.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"REPLICAS": {"type": "integer", "maximum": 5}}}`)},
		"templates/cm.yaml":  {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\ndata: {r: \"{{ .Params.REPLICAS }}\"}\n")},
	}, "db")
	if err != nil {
		t.Fatal(err)
	}
	parent := func(replicas string) *bundle.Bundle {
		b, err := bundle.Load(fstest.MapFS{
			"operator.yaml": {Data: []byte(`apiVersion: kudo.dev/v1beta1
name: app
operatorVersion: 0.1.0
tasks:
  - {name: db, kind: KudoOperator, spec: {package: ./db, parameterFile: db-params.yaml}}
plans:
  deploy:
    strategy: serial
    phases: [{name: main, strategy: serial, steps: [{name: db, tasks: [db]}]}]
`)},
			"params.yaml":              {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters: []\n")},
			"templates/db-params.yaml": {Data: []byte("REPLICAS: \"" + replicas + "\"\n")},
		}, "app")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	resolve := func(*bundle.Task) (*bundle.Bundle, engine.DependencyResolver, error) { return dep, nil, nil }
	req := func(replicas string) engine.Request {
		return engine.Request{Bundle: parent(replicas), Instance: render.Instance{Name: "x", Namespace: "ns"}, Dependencies: resolve}
	}
	if _, err := engine.Render(req("3")); err != nil {
		t.Fatalf("within the schema: %v", err)
	}
	_, err = engine.Render(req("9"))
	if err == nil || !strings.Contains(err.Error(), "REPLICAS: maximum: got 9, want 5") {
		t.Errorf("a value the dependency's schema refuses: got %v", err)
	}
}
