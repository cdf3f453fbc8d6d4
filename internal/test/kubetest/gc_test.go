package kubetest_test

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

var (
	namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// TestGarbageCollection: deleting an owner (background propagation)
// deletes its dependent; a dependent whose ownerReference was removed
// first stays, as when an install is moved off its operator.
func TestGarbageCollection(t *testing.T) {
	srv := kubetest.StartWithGC(t)
	t.Logf("kube-controller-manager started in %v (kube-apiserver and etcd in %v)", srv.GCStartTime().Round(time.Millisecond), srv.StartTime.Round(time.Millisecond))
	ctx := t.Context()
	dyn, ns := gcNamespace(t, srv)
	cms := dyn.Resource(configMaps).Namespace(ns)

	owner := createConfigMap(t, cms, "owner", nil)
	ref := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "name": owner.GetName(), "uid": string(owner.GetUID()),
		"controller": true, "blockOwnerDeletion": true,
	}
	createConfigMap(t, cms, "dependent", ref)
	createConfigMap(t, cms, "released", ref)
	if _, err := cms.Patch(ctx, "released", types.MergePatchType, []byte(`{"metadata":{"ownerReferences":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}

	t0 := time.Now()
	if err := cms.Delete(ctx, "owner", metav1.DeleteOptions{PropagationPolicy: new(metav1.DeletePropagationBackground)}); err != nil {
		t.Fatal(err)
	}
	waitCollected(t, cms, "dependent", t0)

	for t1 := time.Now(); time.Since(t1) < 5*time.Second; time.Sleep(100 * time.Millisecond) {
		cm, err := cms.Get(ctx, "released", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("the ConfigMap whose ownerReference was removed, %v after its former owner was deleted: %v", time.Since(t0).Round(time.Millisecond), err)
		}
		if refs := cm.GetOwnerReferences(); len(refs) != 0 {
			t.Fatalf("the released ConfigMap has ownerReferences %v", refs)
		}
	}
}

// TestGarbageCollectionCustomOwner: the owner is a custom resource, of a
// CustomResourceDefinition applied after kube-controller-manager started
// (by TestGarbageCollection, when run before): StartWithGC restarts it, so
// that the dependent is collected at once, not after the garbage
// collector's next discovery (30 s).
func TestGarbageCollectionCustomOwner(t *testing.T) {
	srv := kubetest.Start(t)
	crd := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "gadgets.gc.kubetest.kudo-render.dev", map[string]any{"spec": map[string]any{
		"group": "gc.kubetest.kudo-render.dev",
		"names": map[string]any{"kind": "Gadget", "plural": "gadgets", "singular": "gadget", "listKind": "GadgetList"},
		"scope": "Namespaced",
		"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{
			"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
		}}},
	}})
	results, err := srv.Apply(t.Context(), []map[string]any{crd})
	if err != nil {
		t.Fatal(err)
	}
	kubetest.RequireAccepted(t, results)
	t0 := time.Now()
	kubetest.StartWithGC(t)
	t.Logf("StartWithGC took %v (kube-controller-manager's start %v)", time.Since(t0).Round(time.Millisecond), srv.GCStartTime().Round(time.Millisecond))

	ctx := t.Context()
	dyn, ns := gcNamespace(t, srv)
	gadgets := dyn.Resource(schema.GroupVersionResource{Group: "gc.kubetest.kudo-render.dev", Version: "v1", Resource: "gadgets"}).Namespace(ns)
	owner, err := gadgets.Create(ctx, &unstructured.Unstructured{Object: obj("gc.kubetest.kudo-render.dev/v1", "Gadget", "", "owner", nil)}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cms := dyn.Resource(configMaps).Namespace(ns)
	createConfigMap(t, cms, "dependent", map[string]any{
		"apiVersion": "gc.kubetest.kudo-render.dev/v1", "kind": "Gadget", "name": "owner", "uid": string(owner.GetUID()),
		"controller": true, "blockOwnerDeletion": true,
	})
	t0 = time.Now()
	if err := gadgets.Delete(ctx, "owner", metav1.DeleteOptions{PropagationPolicy: new(metav1.DeletePropagationBackground)}); err != nil {
		t.Fatal(err)
	}
	waitCollected(t, cms, "dependent", t0)
}

// gcNamespace creates a namespace of its own for a test, deleted at its
// end.
func gcNamespace(t *testing.T, srv *kubetest.Server) (*dynamic.DynamicClient, string) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	ns, err := dyn.Resource(namespaces).Create(t.Context(), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"generateName": "kubetest-gc-"},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dyn.Resource(namespaces).Delete(context.Background(), ns.GetName(), metav1.DeleteOptions{}) })
	return dyn, ns.GetName()
}

// waitCollected waits (a minute at most) until the garbage collector has
// deleted a ConfigMap whose owner was deleted at t0.
func waitCollected(t *testing.T, cms dynamic.ResourceInterface, name string, t0 time.Time) {
	t.Helper()
	for {
		_, err := cms.Get(t.Context(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(t0) > time.Minute {
			t.Fatalf("ConfigMap %s is still there %v after its owner was deleted", name, time.Since(t0).Round(time.Millisecond))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("ConfigMap %s was collected %v after its owner was deleted", name, time.Since(t0).Round(time.Millisecond))
}

func createConfigMap(t *testing.T, cms dynamic.ResourceInterface, name string, ownerRef map[string]any) *unstructured.Unstructured {
	t.Helper()
	md := map[string]any{"name": name}
	if ownerRef != nil {
		md["ownerReferences"] = []any{ownerRef}
	}
	cm, err := cms.Create(t.Context(), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": md, "data": map[string]any{"a": "b"},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cm
}
