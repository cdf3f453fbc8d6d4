package engine_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
)

// web is a small KEP-0009 framework: a ConfigMap, then a Job that a
// cleanup step deletes (so it runs once).
var web = fstest.MapFS{
	"framework.yaml": {Data: []byte(`name: web
version: "1.0"
tasks:
  config: {resources: [cm.yaml]}
  migrate: {resources: [job.yaml]}
plans:
  deploy:
    steps:
      - {name: config, tasks: [config]}
      - {name: migrate, tasks: [migrate]}
      - {name: cleanup, tasks: [migrate], delete: true}
`)},
	"params.yaml":        {Data: []byte("replicas: {default: \"2\"}\n")},
	"templates/cm.yaml":  {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\ndata: {replicas: \"{{ .Params.replicas }}\"}\n")},
	"templates/job.yaml": {Data: []byte("apiVersion: batch/v1\nkind: Job\nmetadata: {name: \"{{ .Name }}-migrate\"}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: migrate, image: \"web:1.0\"}]\n")},
}

func ExampleRenderWith() {
	b, err := bundle.Load(web, "web")
	if err != nil {
		fmt.Println(err)
		return
	}
	items, err := engine.RenderWith(engine.Options{}, engine.Request{
		Bundle:   b,
		Instance: render.Instance{Name: "shop", Namespace: "prod"},
		Params:   map[string]any{"replicas": "3"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range items {
		fmt.Printf("wave %d hook=%t %s/%s step %s ssa=%t\n", it.Wave, it.Hook, it.Obj.Kind(), it.Obj.Name(), it.Meta.Step, it.ServerSideApply)
	}
	// Output:
	// wave 0 hook=false ConfigMap/shop step config ssa=true
	// wave 1 hook=true Job/shop-migrate step migrate ssa=true
}
