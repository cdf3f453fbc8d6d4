package kubetest_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// TestServer: the server is the release of the k8s.io/* modules.
func TestServer(t *testing.T) {
	srv := kubetest.Start(t)
	t.Logf("kube-apiserver %s at %s, started in %v", srv.Version, srv.URL, srv.StartTime.Round(time.Millisecond))
	if srv.Version != kubetest.KubeVersion() {
		t.Errorf("server version %s, want %s (the k8s.io/* modules' release): run internal/test/kubetest/install.sh", srv.Version, kubetest.KubeVersion())
	}
}

// TestServedKinds: what a fresh server serves; go test -v -run
// TestServedKinds lists it.
func TestServedKinds(t *testing.T) {
	srv := kubetest.Start(t)
	kinds := srv.DefaultKinds()
	var list []string
	for _, gvk := range kinds {
		list = append(list, gvk.GroupVersion().String()+" "+gvk.Kind)
	}
	t.Logf("%d kinds served by default:\n%s", len(list), strings.Join(list, "\n"))
	has := func(gv, kind string) bool { return slices.Contains(list, gv+" "+kind) }
	for _, k := range [][2]string{
		{"v1", "ConfigMap"}, {"v1", "Namespace"}, {"apps/v1", "StatefulSet"}, {"batch/v1", "CronJob"},
		{"policy/v1", "PodDisruptionBudget"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition"}, {"networking.k8s.io/v1", "Ingress"},
	} {
		if !has(k[0], k[1]) {
			t.Errorf("%s %s is not served", k[0], k[1])
		}
	}
	for _, k := range [][2]string{
		{"policy/v1beta1", "PodDisruptionBudget"}, {"extensions/v1beta1", "Ingress"}, {"batch/v1beta1", "CronJob"},
		{"apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"}, {"v1", "PodSecurityPolicy"},
	} {
		if has(k[0], k[1]) {
			t.Errorf("%s %s is served", k[0], k[1])
		}
	}
	served, err := srv.ServedKinds(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, gvk := range kinds {
		if !slices.Contains(served, gvk) {
			t.Errorf("%v was served at start and is no more", gvk)
		}
	}
}

func obj(apiVersion, kind, ns, name string, fields map[string]any) map[string]any {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md}
	for k, v := range fields {
		o[k] = v
	}
	return o
}

func deployment(ns, name string, selector, podLabels map[string]any) map[string]any {
	return obj("apps/v1", "Deployment", ns, name, map[string]any{"spec": map[string]any{
		"selector": map[string]any{"matchLabels": selector},
		"template": map[string]any{
			"metadata": map[string]any{"labels": podLabels},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "app", "image": "busybox:1.36"}}},
		},
	}})
}

// TestApply: what the server accepts, refuses and what cannot be sent,
// in the objects' order, and nothing but namespaces and CRDs is created.
func TestApply(t *testing.T) {
	srv := kubetest.Start(t)
	ns := "kubetest-apply"
	app := map[string]any{"app": "web"}
	crd := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "widgets.kubetest.kudo-render.dev", map[string]any{"spec": map[string]any{
		"group": "kubetest.kudo-render.dev",
		"names": map[string]any{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
		"scope": "Namespaced",
		"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": map[string]any{
			"type": "object",
			"properties": map[string]any{"spec": map[string]any{
				"type": "object", "properties": map[string]any{"size": map[string]any{"type": "integer"}},
			}},
		}}}},
	}})
	cases := []struct {
		obj  map[string]any
		want string // "" accepted, "skip: ..." skipped, else a part of the refusal
	}{
		{obj("v1", "ConfigMap", ns, "ok", map[string]any{"data": map[string]any{"a": "b"}}), ""},
		{obj("v1", "ConfigMap", ns, "typo", map[string]any{"dta": map[string]any{"a": "b"}}), `.dta: field not declared in schema`},
		{obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "kubetest-reader", map[string]any{"rules": []any{
			map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"get"}},
		}}), ""},
		{deployment(ns, "web", app, app), ""},
		{deployment(ns, "mismatch", app, map[string]any{"app": "other"}), "`selector` does not match template `labels`"},
		{obj("policy/v1beta1", "PodDisruptionBudget", ns, "old", map[string]any{"spec": map[string]any{"minAvailable": 1}}), "does not serve PodDisruptionBudget.policy in version policy/v1beta1"},
		{obj("v1", "Pod", ns, "pod", map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox:1.36"}}}}), ""},
		{obj("v1", "ConfigMap", ns, "", nil), "no metadata.name"},
		{obj("monitoring.coreos.com/v1", "ServiceMonitor", ns, "metrics", nil), "skip: no CustomResourceDefinition among the objects defines ServiceMonitor.monitoring.coreos.com"},
		{obj("kubetest.kudo-render.dev/v1", "Widget", ns, "w", map[string]any{"spec": map[string]any{"size": 3}}), ""},
		{obj("kubetest.kudo-render.dev/v1", "Widget", ns, "typo", map[string]any{"spec": map[string]any{"colour": "red"}}), `.spec.colour: field not declared in schema`},
		{obj("kubetest.kudo-render.dev/v1", "Widget", ns, "wrong", map[string]any{"spec": map[string]any{"size": "big"}}), `.spec.size: expected numeric (int or float), got string`},
		{obj("kubetest.kudo-render.dev/v2", "Widget", ns, "v2", nil), "does not serve Widget.kubetest.kudo-render.dev in version kubetest.kudo-render.dev/v2"},
		{crd, ""}, // applied first, whatever its place
	}
	var objs []map[string]any
	for _, c := range cases {
		objs = append(objs, c.obj)
	}
	t0 := time.Now()
	results, err := srv.Apply(t.Context(), objs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d objects applied in %v", len(objs), time.Since(t0).Round(time.Millisecond))
	if len(results) != len(cases) {
		t.Fatalf("%d results for %d objects", len(results), len(cases))
	}
	for i, c := range cases {
		r := results[i]
		t.Log(r)
		md := c.obj["metadata"].(map[string]any)
		if r.Kind != c.obj["kind"] || r.Name != md["name"] {
			t.Errorf("result %d is for %s, want %s %s", i, r.ID(), c.obj["kind"], md["name"])
		}
		switch skip, isSkip := strings.CutPrefix(c.want, "skip: "); {
		case c.want == "":
			if !r.Accepted() {
				t.Errorf("%s: want accepted", r)
			}
		case isSkip:
			if !strings.Contains(r.Skipped, skip) || r.Err != nil {
				t.Errorf("%s: want skipped, %q", r, skip)
			}
		default:
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.want) {
				t.Errorf("%s: want refused with %q", r, c.want)
			}
		}
	}

	// A dry run: the namespace, its ServiceAccount and the CRD exist, the
	// objects do not.
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	get := func(gvr schema.GroupVersionResource, ns, name string) error {
		ri := dyn.Resource(gvr)
		if ns != "" {
			_, err := ri.Namespace(ns).Get(t.Context(), name, metav1.GetOptions{})
			return err
		}
		_, err := ri.Get(t.Context(), name, metav1.GetOptions{})
		return err
	}
	for _, e := range []struct {
		gvr      schema.GroupVersionResource
		ns, name string
		exists   bool
	}{
		{schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, "", ns, true},
		{schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}, ns, "default", true},
		{schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, "", "widgets.kubetest.kudo-render.dev", true},
		{schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, ns, "ok", false},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, ns, "web", false},
		{schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}, "", "kubetest-reader", false},
		{schema.GroupVersionResource{Group: "kubetest.kudo-render.dev", Version: "v1", Resource: "widgets"}, ns, "w", false},
	} {
		err := get(e.gvr, e.ns, e.name)
		if e.exists && err != nil {
			t.Errorf("%s %s/%s: %v", e.gvr.Resource, e.ns, e.name, err)
		}
		if !e.exists && !apierrors.IsNotFound(err) {
			t.Errorf("%s %s/%s exists after a dry run (%v)", e.gvr.Resource, e.ns, e.name, err)
		}
	}
}

// TestApplyYAML: documents of a stream, empty ones ignored.
func TestApplyYAML(t *testing.T) {
	srv := kubetest.Start(t)
	results, err := srv.ApplyYAML(t.Context(), []byte(`---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: kubetest-yaml}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
# nothing
---
apiVersion: v1
kind: Service
metadata: {name: bad, namespace: kubetest-yaml}
spec:
  ports: [{port: 80, protocol: SCTPX}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || !results[0].Accepted() || results[1].Err == nil || !strings.Contains(results[1].Err.Error(), `Unsupported value: "SCTPX"`) {
		t.Errorf("results: %v", results)
	}
	if _, err := srv.ApplyYAML(t.Context(), []byte("a: [")); err == nil {
		t.Error("a broken stream applied")
	}
}
