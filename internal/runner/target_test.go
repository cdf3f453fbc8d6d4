package runner_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func newObj(apiVersion, kind, namespace, name string) *object.Object {
	md := map[string]any{"name": name}
	if namespace != "" {
		md["namespace"] = namespace
	}
	return object.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
}

func annotations(o *object.Object) map[string]any { return o.MapAt("metadata", "annotations") }

// decorate applies the decorations of target, as a render does.
func decorate(items []engine.Item, target config.Target) {
	if d := runner.Decorator(target); d != nil {
		d(items)
	}
}

func TestAnnotate(t *testing.T) {
	withAnn := func(ann map[string]any) *object.Object {
		o := newObj("v1", "ConfigMap", "ns", "cm")
		o.Map["metadata"].(map[string]any)["annotations"] = ann
		return o
	}
	cases := map[string]struct {
		reason string
		item   engine.Item
		target config.Target
		want   map[string]any
	}{
		"ArgoWave": {
			reason: "With argocd every object carries its sync wave.",
			item:   engine.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 3},
			target: config.ArgoCD,
			want:   map[string]any{argocd.AnnSyncWave: "3"},
		},
		"ArgoNegativeWave": {
			reason: "Negative waves (common/) are written as such.",
			item:   engine.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: -1},
			target: config.ArgoCD,
			want:   map[string]any{argocd.AnnSyncWave: "-1"},
		},
		"ArgoHook": {
			reason: "An object applied then deleted is a Sync hook deleted when it succeeds.",
			item:   engine.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 1, Hook: true},
			target: config.ArgoCD,
			want: map[string]any{
				argocd.AnnSyncWave: "1", argocd.AnnHook: "Sync", argocd.AnnHookDeletePolicy: "HookSucceeded",
			},
		},
		"ArgoServerSideApply": {
			reason: "ServerSideApply asks Argo CD to apply server-side.",
			item:   engine.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 0, ServerSideApply: true},
			target: config.ArgoCD,
			want:   map[string]any{argocd.AnnSyncWave: "0", argocd.AnnSyncOptions: "ServerSideApply=true"},
		},
		"ArgoKeepsOtherAnnotations": {
			reason: "The object's other annotations stay.",
			item:   engine.Item{Obj: withAnn(map[string]any{"note": "keep"}), Wave: 2},
			target: config.ArgoCD,
			want:   map[string]any{"note": "keep", argocd.AnnSyncWave: "2"},
		},
		"Plain": {
			reason: "The plain target writes no Argo CD annotations, even for hooks and server-side apply.",
			item:   engine.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 4, Hook: true, ServerSideApply: true},
			target: config.Plain,
			want:   nil,
		},
		"FluxHook": {
			reason: "With flux a run-once object is marked so that Flux recreates it; no Argo CD annotations.",
			item:   engine.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 1, Hook: true, ServerSideApply: true},
			target: config.Flux,
			want:   map[string]any{flux.AnnForce: "enabled"},
		},
		"FluxNotHook": {
			reason: "With flux other objects get no annotations.",
			item:   engine.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 3, ServerSideApply: true},
			target: config.Flux,
			want:   nil,
		},
		"PlainKeepsAnnotations": {
			reason: "The plain target leaves existing annotations alone.",
			item:   engine.Item{Obj: withAnn(map[string]any{"note": "keep"}), Wave: 2, Hook: true},
			target: config.Plain,
			want:   map[string]any{"note": "keep"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			decorate([]engine.Item{tc.item}, tc.target)
			assert.Check(t, is.DeepEqual(tc.want, annotations(tc.item.Obj)), "%s\nAnnotate(...)", tc.reason)
		})
	}
}

// TestAnnotateKeepsSyncOptions: sync-options is a comma-separated list;
// a template that sets Prune=false or Replace=true must not lose it when
// the object is also applied server-side.
func TestAnnotateKeepsSyncOptions(t *testing.T) {
	o := newObj("v1", "ConfigMap", "ns", "cm")
	o.Map["metadata"].(map[string]any)["annotations"] = map[string]any{argocd.AnnSyncOptions: "Prune=false"}
	decorate([]engine.Item{{Obj: o, ServerSideApply: true}}, config.ArgoCD)
	got, _ := annotations(o)[argocd.AnnSyncOptions].(string)
	if !strings.Contains(got, "Prune=false") || !strings.Contains(got, "ServerSideApply=true") {
		t.Errorf("Annotate(...): want both Prune=false and ServerSideApply=true in sync-options, got %q", got)
	}
}

// TestFluxOptions: spec.flux reaches the Flux layout; the defaults are the
// layout's, and the namespace is created unless createNamespace: false.
func TestFluxOptions(t *testing.T) {
	off := false
	cases := map[string]struct {
		reason string
		spec   *config.FluxSpec
		want   flux.Options
	}{
		"Defaults": {reason: "No spec.flux: the layout's defaults.", want: flux.Options{Name: "zk", InstanceNamespace: "data"}},
		"Set": {reason: "Every field is passed on.", spec: &config.FluxSpec{Interval: "1h", RetryInterval: "30s", Timeout: "20m", CreateNamespace: &off},
			want: flux.Options{Name: "zk", InstanceNamespace: "data", Interval: "1h", RetryInterval: "30s", Timeout: "20m", LeaveNamespace: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &config.Config{}
			c.Metadata.Name, c.Metadata.Namespace, c.Spec.Flux = "zk", "data", tc.spec
			assert.Check(t, is.DeepEqual(tc.want, runner.FluxOptions(c)), "%s", tc.reason)
		})
	}
}
