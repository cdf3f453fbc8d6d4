package argocd_test

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func TestDecorateSyncOptions(t *testing.T) {
	job := map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": "init"}}
	cases := []struct {
		reason    string
		obj       map[string]any
		item      engine.Item
		template  string // the template's own sync options
		want      string
		recreates bool
	}{
		{reason: "a Job is recreated when its update is refused: Force=true needs client-side apply",
			obj: job, want: "Force=true,ServerSideApply=false", recreates: true},
		{reason: "also in a bundle applied server-side: the Job alone is applied client-side",
			obj: job, item: engine.Item{ServerSideApply: true}, want: "Force=true,ServerSideApply=false", recreates: true},
		{reason: "a hook is created anew at every sync: no Force",
			obj: job, item: engine.Item{Hook: true, ServerSideApply: true}, want: "ServerSideApply=true"},
		{reason: "a template's ServerSideApply=true wins: nothing recreates the Job",
			obj: job, template: "ServerSideApply=true", want: "ServerSideApply=true,Force=true"},
		{reason: "an immutable ConfigMap is recreated",
			obj:  map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "immutable": true},
			want: "Force=true,ServerSideApply=false", recreates: true},
		{reason: "a mutable one is updated in place",
			obj: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}, item: engine.Item{ServerSideApply: true}, want: "ServerSideApply=true"},
		{reason: "a StatefulSet is never recreated",
			obj: map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": map[string]any{"name": "s"}}, want: ""},
		{reason: "Replace=true with Force=true recreates at every sync",
			obj: map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": map[string]any{"name": "s"}}, template: "Replace=true,Force=true", want: "Replace=true,Force=true", recreates: true},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			it := c.item
			it.Obj = object.New(object.New(c.obj).DeepCopy().Map)
			if c.template != "" {
				object.SetStrings(it.Obj.Map, map[string]string{argocd.AnnSyncOptions: c.template}, "metadata", "annotations")
			}
			argocd.Decorate([]engine.Item{it})
			assert.Equal(t, it.Obj.String("metadata", "annotations", argocd.AnnSyncOptions), c.want)
			assert.Equal(t, argocd.Recreates(it.Obj) != "", c.recreates)
		})
	}
}
