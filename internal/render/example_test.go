package render_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render"
)

func ExampleRenderer_Task() {
	b, err := bundle.Load(fstest.MapFS{
		"framework.yaml":    {Data: []byte("name: web\nversion: \"1.0\"\ntasks:\n  app: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n")},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}-{{ .StepName }}\"}\ndata: {size: \"{{ .Params.size }}\"}\n")},
	}, "web")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := render.New(b, params.Values{"size": "small"}, render.Instance{Name: "shop", Namespace: "prod"}, render.Options{})
	objs, err := r.Task(render.Step{Plan: "deploy", Phase: "deploy", Step: "app", Task: "app"}, b.Task("app"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objs {
		fmt.Println(o.Template, o.Obj.Name(), o.Obj.Map["data"])
	}
	// Output: templates/cm.yaml shop-app map[size:small]
}
