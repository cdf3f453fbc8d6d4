package gitops_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kudo-render/kudo-render/gitops"
	"github.com/kudo-render/kudo-render/object"
)

func newObj(apiVersion, kind, namespace, name string) *object.Object {
	md := map[string]any{"name": name}
	if namespace != "" {
		md["namespace"] = namespace
	}
	return object.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
}

func annotations(o *object.Object) map[string]any { return o.MapAt("metadata", "annotations") }

func TestAnnotate(t *testing.T) {
	withAnn := func(ann map[string]any) *object.Object {
		o := newObj("v1", "ConfigMap", "ns", "cm")
		o.Map["metadata"].(map[string]any)["annotations"] = ann
		return o
	}
	cases := map[string]struct {
		reason string
		item   gitops.Item
		target gitops.Target
		want   map[string]any
	}{
		"ArgoWave": {
			reason: "With argocd every object carries its sync wave.",
			item:   gitops.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 3},
			target: gitops.ArgoCD,
			want:   map[string]any{gitops.AnnSyncWave: "3"},
		},
		"ArgoNegativeWave": {
			reason: "Negative waves (common/) are written as such.",
			item:   gitops.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: -1},
			target: gitops.ArgoCD,
			want:   map[string]any{gitops.AnnSyncWave: "-1"},
		},
		"ArgoHook": {
			reason: "An object applied then deleted is a Sync hook deleted when it succeeds.",
			item:   gitops.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 1, Hook: true},
			target: gitops.ArgoCD,
			want: map[string]any{
				gitops.AnnSyncWave: "1", gitops.AnnHook: "Sync", gitops.AnnHookDeletePolicy: "HookSucceeded",
			},
		},
		"ArgoServerSideApply": {
			reason: "ServerSideApply asks Argo CD to apply server-side.",
			item:   gitops.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 0, ServerSideApply: true},
			target: gitops.ArgoCD,
			want:   map[string]any{gitops.AnnSyncWave: "0", gitops.AnnSyncOptions: "ServerSideApply=true"},
		},
		"ArgoKeepsOtherAnnotations": {
			reason: "The object's other annotations stay.",
			item:   gitops.Item{Obj: withAnn(map[string]any{"note": "keep"}), Wave: 2},
			target: gitops.ArgoCD,
			want:   map[string]any{"note": "keep", gitops.AnnSyncWave: "2"},
		},
		"Plain": {
			reason: "The plain target writes no Argo CD annotations, even for hooks and server-side apply.",
			item:   gitops.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 4, Hook: true, ServerSideApply: true},
			target: gitops.Plain,
			want:   nil,
		},
		"FluxHook": {
			reason: "With flux a run-once object is marked so that Flux recreates it; no Argo CD annotations.",
			item:   gitops.Item{Obj: newObj("batch/v1", "Job", "ns", "init"), Wave: 1, Hook: true, ServerSideApply: true},
			target: gitops.Flux,
			want:   map[string]any{gitops.AnnFluxForce: "enabled"},
		},
		"FluxNotHook": {
			reason: "With flux other objects get no annotations.",
			item:   gitops.Item{Obj: newObj("v1", "ConfigMap", "ns", "cm"), Wave: 3, ServerSideApply: true},
			target: gitops.Flux,
			want:   nil,
		},
		"PlainKeepsAnnotations": {
			reason: "The plain target leaves existing annotations alone.",
			item:   gitops.Item{Obj: withAnn(map[string]any{"note": "keep"}), Wave: 2, Hook: true},
			target: gitops.Plain,
			want:   map[string]any{"note": "keep"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			gitops.Annotate([]gitops.Item{tc.item}, tc.target)
			if diff := cmp.Diff(tc.want, annotations(tc.item.Obj)); diff != "" {
				t.Errorf("\n%s\nAnnotate(...): -want annotations, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestAnnotateKeepsSyncOptions: sync-options is a comma-separated list;
// a template that sets Prune=false or Replace=true must not lose it when
// the object is also applied server-side.
func TestAnnotateKeepsSyncOptions(t *testing.T) {
	o := newObj("v1", "ConfigMap", "ns", "cm")
	o.Map["metadata"].(map[string]any)["annotations"] = map[string]any{gitops.AnnSyncOptions: "Prune=false"}
	gitops.Annotate([]gitops.Item{{Obj: o, ServerSideApply: true}}, gitops.ArgoCD)
	got, _ := annotations(o)[gitops.AnnSyncOptions].(string)
	if !strings.Contains(got, "Prune=false") || !strings.Contains(got, "ServerSideApply=true") {
		t.Errorf("Annotate(...): want both Prune=false and ServerSideApply=true in sync-options, got %q", got)
	}
}

func TestSort(t *testing.T) {
	type key struct {
		Wave int
		Kind string
		NS   string
		Name string
	}
	item := func(wave int, apiVersion, kind, ns, name string) gitops.Item {
		return gitops.Item{Obj: newObj(apiVersion, kind, ns, name), Wave: wave}
	}
	keys := func(items []gitops.Item) []key {
		var out []key
		for _, it := range items {
			out = append(out, key{Wave: it.Wave, Kind: it.Obj.Kind(), NS: it.Obj.Namespace(), Name: it.Obj.Name()})
		}
		return out
	}
	cases := map[string]struct {
		reason string
		items  []gitops.Item
		want   []key
	}{
		"WaveFirst": {
			reason: "Objects are ordered by wave before anything else.",
			items: []gitops.Item{
				item(2, "v1", "Namespace", "", "a"),
				item(0, "apps/v1", "Deployment", "ns", "z"),
				item(-1, "scheduling.k8s.io/v1", "PriorityClass", "", "p"),
			},
			want: []key{{-1, "PriorityClass", "", "p"}, {0, "Deployment", "ns", "z"}, {2, "Namespace", "", "a"}},
		},
		"KustomizeLegacyKindOrder": {
			reason: "Within a wave kinds follow kustomize's legacy order: Namespace, ServiceAccount, Role, RoleBinding, ConfigMap, Secret, Service, PVC, Deployment, StatefulSet, CronJob, PDB, then other kinds (Job), then webhooks.",
			items: []gitops.Item{
				item(0, "admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "", "v"),
				item(0, "batch/v1", "Job", "ns", "j"),
				item(0, "policy/v1", "PodDisruptionBudget", "ns", "pdb"),
				item(0, "batch/v1", "CronJob", "ns", "cj"),
				item(0, "apps/v1", "StatefulSet", "ns", "sts"),
				item(0, "apps/v1", "Deployment", "ns", "d"),
				item(0, "v1", "PersistentVolumeClaim", "ns", "pvc"),
				item(0, "v1", "Service", "ns", "svc"),
				item(0, "v1", "Secret", "ns", "s"),
				item(0, "v1", "ConfigMap", "ns", "cm"),
				item(0, "rbac.authorization.k8s.io/v1", "RoleBinding", "ns", "rb"),
				item(0, "rbac.authorization.k8s.io/v1", "Role", "ns", "r"),
				item(0, "v1", "ServiceAccount", "ns", "sa"),
				item(0, "apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "crd"),
				item(0, "v1", "Namespace", "", "ns"),
			},
			want: []key{
				{0, "Namespace", "", "ns"},
				{0, "CustomResourceDefinition", "", "crd"},
				{0, "ServiceAccount", "ns", "sa"},
				{0, "Role", "ns", "r"},
				{0, "RoleBinding", "ns", "rb"},
				{0, "ConfigMap", "ns", "cm"},
				{0, "Secret", "ns", "s"},
				{0, "Service", "ns", "svc"},
				{0, "PersistentVolumeClaim", "ns", "pvc"},
				{0, "Deployment", "ns", "d"},
				{0, "StatefulSet", "ns", "sts"},
				{0, "CronJob", "ns", "cj"},
				{0, "PodDisruptionBudget", "ns", "pdb"},
				{0, "Job", "ns", "j"},
				{0, "ValidatingWebhookConfiguration", "", "v"},
			},
		},
		"UnlistedKindsByGroupVersionKind": {
			reason: "Kinds kustomize does not list sort among themselves by group, version and kind (the core group last).",
			items: []gitops.Item{
				item(0, "v1", "Pod", "ns", "p"),
				item(0, "monitoring.coreos.com/v1", "ServiceMonitor", "ns", "sm"),
				item(0, "batch/v1", "Job", "ns", "j"),
			},
			want: []key{{0, "Job", "ns", "j"}, {0, "ServiceMonitor", "ns", "sm"}, {0, "Pod", "ns", "p"}},
		},
		"NamespaceThenName": {
			reason: "The same kind sorts by namespace, then name.",
			items: []gitops.Item{
				item(0, "v1", "ConfigMap", "b", "a"),
				item(0, "v1", "ConfigMap", "a", "z"),
				item(0, "v1", "ConfigMap", "a", "b"),
			},
			want: []key{{0, "ConfigMap", "a", "b"}, {0, "ConfigMap", "a", "z"}, {0, "ConfigMap", "b", "a"}},
		},
		"Stable": {
			reason: "Equal objects keep their order.",
			items: []gitops.Item{
				{Obj: newObj("v1", "ConfigMap", "a", "x"), Wave: 0, Hook: true},
				{Obj: newObj("v1", "ConfigMap", "a", "x"), Wave: 0},
			},
			want: []key{{0, "ConfigMap", "a", "x"}, {0, "ConfigMap", "a", "x"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			items := append([]gitops.Item{}, tc.items...)
			gitops.Sort(items)
			if diff := cmp.Diff(tc.want, keys(items)); diff != "" {
				t.Errorf("\n%s\nSort(...): -want, +got:\n%s", tc.reason, diff)
			}
			if name == "Stable" && !items[0].Hook {
				t.Errorf("\n%s\nSort(...): equal items were swapped", tc.reason)
			}
		})
	}
}

func TestParseTarget(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   gitops.Target
		err    bool
	}{
		"Empty":  {reason: "Empty means argocd.", in: "", want: gitops.ArgoCD},
		"ArgoCD": {reason: "argocd is known.", in: "argocd", want: gitops.ArgoCD},
		"Plain":  {reason: "plain is known.", in: "plain", want: gitops.Plain},
		"Case":   {reason: "Targets are case-sensitive.", in: "ArgoCD", err: true},
		"Flux":   {reason: "flux is known.", in: "flux", want: gitops.Flux},
		"Helm":   {reason: "Other tools are not targets.", in: "helm", err: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := gitops.ParseTarget(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("\n%s\nParseTarget(%q): want error %t, got %v", tc.reason, tc.in, tc.err, err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "unknown target") || !strings.Contains(err.Error(), "want argocd") || !strings.Contains(err.Error(), tc.in) {
					t.Errorf("\n%s\nParseTarget(%q): error should name the value and the choices, got %v", tc.reason, tc.in, err)
				}
				return
			}
			if got != tc.want {
				t.Errorf("\n%s\nParseTarget(%q): want %q, got %q", tc.reason, tc.in, tc.want, got)
			}
		})
	}
}
