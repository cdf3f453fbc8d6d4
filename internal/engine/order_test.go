package engine_test

import (
	stdcmp "cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func newObj(apiVersion, kind, namespace, name string) *object.Object {
	md := map[string]any{"name": name}
	if namespace != "" {
		md["namespace"] = namespace
	}
	return object.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
}

func TestSort(t *testing.T) {
	type key struct {
		Wave int
		Kind string
		NS   string
		Name string
	}
	item := func(wave int, apiVersion, kind, ns, name string) engine.Item {
		return engine.Item{Obj: newObj(apiVersion, kind, ns, name), Wave: wave}
	}
	keys := func(items []engine.Item) []key {
		var out []key
		for _, it := range items {
			out = append(out, key{Wave: it.Wave, Kind: it.Obj.Kind(), NS: it.Obj.Namespace(), Name: it.Obj.Name()})
		}
		return out
	}
	cases := map[string]struct {
		reason string
		items  []engine.Item
		want   []key
	}{
		"WaveFirst": {
			reason: "Objects are ordered by wave before anything else.",
			items: []engine.Item{
				item(2, "v1", "Namespace", "", "a"),
				item(0, "apps/v1", "Deployment", "ns", "z"),
				item(-1, "scheduling.k8s.io/v1", "PriorityClass", "", "p"),
			},
			want: []key{{-1, "PriorityClass", "", "p"}, {0, "Deployment", "ns", "z"}, {2, "Namespace", "", "a"}},
		},
		"KustomizeLegacyKindOrder": {
			reason: "Within a wave kinds follow kustomize's legacy order: Namespace, ServiceAccount, Role, RoleBinding, ConfigMap, Secret, Service, PVC, Deployment, StatefulSet, CronJob, PDB, then other kinds (Job), then webhooks.",
			items: []engine.Item{
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
			items: []engine.Item{
				item(0, "v1", "Pod", "ns", "p"),
				item(0, "monitoring.coreos.com/v1", "ServiceMonitor", "ns", "sm"),
				item(0, "batch/v1", "Job", "ns", "j"),
			},
			want: []key{{0, "Job", "ns", "j"}, {0, "ServiceMonitor", "ns", "sm"}, {0, "Pod", "ns", "p"}},
		},
		"NamespaceThenName": {
			reason: "The same kind sorts by namespace, then name.",
			items: []engine.Item{
				item(0, "v1", "ConfigMap", "b", "a"),
				item(0, "v1", "ConfigMap", "a", "z"),
				item(0, "v1", "ConfigMap", "a", "b"),
			},
			want: []key{{0, "ConfigMap", "a", "b"}, {0, "ConfigMap", "a", "z"}, {0, "ConfigMap", "b", "a"}},
		},
		"Stable": {
			reason: "Equal objects keep their order.",
			items: []engine.Item{
				{Obj: newObj("v1", "ConfigMap", "a", "x"), Wave: 0, Hook: true},
				{Obj: newObj("v1", "ConfigMap", "a", "x"), Wave: 0},
			},
			want: []key{{0, "ConfigMap", "a", "x"}, {0, "ConfigMap", "a", "x"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			items := append([]engine.Item{}, tc.items...)
			engine.Sort(items)
			assert.Check(t, is.DeepEqual(tc.want, keys(items)), "%s\nSort(...)", tc.reason)
			if name == "Stable" && !items[0].Hook {
				t.Errorf("\n%s\nSort(...): equal items were swapped", tc.reason)
			}
		})
	}
}

// TestSortAsComparison: Sort orders as a stable sort comparing wave, then
// kustomize's Gvk order, then namespace and name, on items of many kinds
// (custom ones too), waves and names, with duplicates.
func TestSortAsComparison(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4)) // fixed: the same items every run
	kinds := [][2]string{{"v1", "ConfigMap"}, {"v1", "Namespace"}, {"apps/v1", "Deployment"}, {"example.com/v1", "Widget"},
		{"example.com/v2", "Widget"}, {"other.io/v1", "Widget"}, {"v1", "Service"}, {"rbac.authorization.k8s.io/v1", "Role"},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition"}, {"batch/v1", "Job"}, {"", "Odd"}, {"v1", ""}}
	items := make([]engine.Item, 2000)
	for i := range items {
		k := kinds[r.IntN(len(kinds))]
		items[i] = engine.Item{Obj: newObj(k[0], k[1], fmt.Sprint("ns", r.IntN(3)), fmt.Sprint("n", r.IntN(20))), Wave: r.IntN(3), Task: fmt.Sprint(i)}
	}
	want := slices.Clone(items)
	gvk := func(o *object.Object) resid.Gvk { return resid.NewGvk(o.Group(), o.Version(), o.Kind()) }
	slices.SortStableFunc(want, func(a, b engine.Item) int {
		if c := stdcmp.Compare(a.Wave, b.Wave); c != 0 {
			return c
		}
		if ga, gb := gvk(a.Obj), gvk(b.Obj); !ga.Equals(gb) {
			if ga.IsLessThan(gb) {
				return -1
			}
			if gb.IsLessThan(ga) {
				return 1
			}
		}
		return stdcmp.Or(stdcmp.Compare(a.Obj.Namespace(), b.Obj.Namespace()), stdcmp.Compare(a.Obj.Name(), b.Obj.Name()))
	})
	engine.Sort(items)
	for i := range items {
		if items[i].Task != want[i].Task {
			t.Fatalf("item %d is %s %s/%s (item %s), want item %s", i, items[i].Obj.Kind(), items[i].Obj.Namespace(), items[i].Obj.Name(), items[i].Task, want[i].Task)
		}
	}
}
