package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render"
)

// TestDoublingPatch: a JSON 6902 patch whose copy operations double the
// object at every step is stopped by --max-template-bytes, naming the
// patch, before it runs out of memory.
func TestDoublingPatch(t *testing.T) {
	var ops strings.Builder
	for i := range 18 { // 2^18 copies of spec: 40 MB
		fmt.Fprintf(&ops, "- {op: copy, from: /spec, path: /spec/k%d}\n", i)
	}
	b := patchBundle(map[string]string{"double.yaml": ops.String()})
	task := &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, Patches: []bundle.Patch{{Path: "double.yaml", Target: &bundle.PatchTarget{Kind: "Deployment"}}}}
	r := render.New(b, params.Values{"REPLICAS": "1"}, render.Instance{Name: "web", Namespace: "ns"}, render.Options{})
	_, err := r.Task(render.Step{Plan: "deploy", Phase: "p", Step: "s", Task: "app"}, task)
	if err == nil || !strings.Contains(err.Error(), "patch templates/double.yaml: the values its copy operations add: template output exceeds the limit of 16777216 bytes (raise it with --max-template-bytes") {
		t.Fatalf("got %v", err)
	}
}

// TestPatchesCharged: the objects a patch reads and returns are charged
// to the render's budget, so patch after patch cannot grow a render past
// it.
func TestPatchesCharged(t *testing.T) {
	b := patchBundle(map[string]string{"json.yaml": "- op: replace\n  path: /spec/replicas\n  value: 5\n"})
	task := &bundle.Task{Name: "app", Resources: []string{"deployment.yaml"}, Patches: []bundle.Patch{{Path: "json.yaml", Target: &bundle.PatchTarget{Kind: "Deployment"}}}}
	budget := limits.NewBudget(limits.Limits{})
	r := render.New(b, params.Values{"REPLICAS": "1"}, render.Instance{Name: "web", Namespace: "ns"}, render.Options{Budget: budget})
	if _, err := r.Task(render.Step{Plan: "deploy", Phase: "p", Step: "s", Task: "app"}, task); err != nil {
		t.Fatal(err)
	}
	// the template's text and values, the patch's text, the patched object
	// marshalled and its values again
	if v := budget.Spent(limits.RenderValues); v < 2*12 {
		t.Errorf("spent %d values, want the template's and the patched object's", v)
	}
	if n := budget.Spent(limits.RenderBytes); n < int64(2*len(deploymentTmpl)) {
		t.Errorf("spent %d bytes, want the template's, the patch's and the marshalled object's", n)
	}
	if o := budget.Spent(limits.RenderObjects); o != 1 {
		t.Errorf("spent %d objects, want 1", o)
	}
}
