package render_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render"
)

// TestTemplatesCannotChangeParams: Sprig's set/unset/merge mutate maps.
// Vars hands every template the Renderer's own params map, so one
// template can change what every later template, task and plan sees, and
// the output then depends on which plans are rendered together.
func TestTemplatesCannotChangeParams(t *testing.T) {
	b := patchBundle(map[string]string{
		"a.yaml": "{{ $_ := set .Params \"REPLICAS\" \"99\" }}apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
	})
	vals := params.Values{"REPLICAS": "3"}
	r := render.New(b, vals, render.Instance{Name: "shop", Namespace: "p"}, render.Options{})
	if _, err := r.Task(render.Step{Task: "a"}, &bundle.Task{Name: "a", Resources: []string{"a.yaml"}}); err != nil {
		t.Fatal(err)
	}
	got, err := r.Task(render.Step{Task: "b"}, &bundle.Task{Name: "b", Resources: []string{"deployment.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep := got[0].Obj.MapAt("spec")["replicas"]; rep != int64(3) {
		t.Errorf("task b: want replicas 3 as given, got %v", rep)
	}
	if vals["REPLICAS"] != "3" {
		t.Errorf("the caller's values changed: REPLICAS = %v", vals["REPLICAS"])
	}
}
