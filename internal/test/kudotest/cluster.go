package kudotest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// CRDs are kudo.dev/v1beta1 Operator, OperatorVersion and Instance, with
// open schemas.
func CRDs() []map[string]any {
	var out []map[string]any
	for _, kind := range []string{"Operator", "OperatorVersion", "Instance"} {
		plural := strings.ToLower(kind) + "s"
		out = append(out, map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": plural + ".kudo.dev"},
			"spec": map[string]any{
				"group": "kudo.dev", "scope": "Namespaced",
				"names": map[string]any{"kind": kind, "plural": plural, "singular": strings.ToLower(kind), "listKind": kind + "List"},
				"versions": []any{map[string]any{
					"name": "v1beta1", "served": true, "storage": true,
					"subresources": map[string]any{"status": map[string]any{}},
					"schema":       map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
				}},
			},
		})
	}
	return out
}

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Cluster is the test process's API server with KUDO's CRDs, garbage
// collection, and a kubeconfig file for the CLI.
type Cluster struct {
	T          testing.TB
	Dynamic    dynamic.Interface
	Kubeconfig string
	mapper     meta.RESTMapper
}

// Setup starts (or reuses) the API server, applies KUDO's CRDs, then
// starts garbage collection, which then watches Instances.
func Setup(t testing.TB) *Cluster {
	t.Helper()
	srv := kubetest.Start(t)
	c := &Cluster{T: t}
	var err error
	if c.Dynamic, err = dynamic.NewForConfig(srv.Config); err != nil {
		t.Fatal(err)
	}
	crds := c.Dynamic.Resource(crdGVR)
	c.WaitFor("KUDO's CRDs of an earlier test to be deleted", func() bool {
		u, err := crds.Get(t.Context(), "instances.kudo.dev", metav1.GetOptions{})
		return apierrors.IsNotFound(err) || err == nil && u.GetDeletionTimestamp() == nil
	})
	created := false
	for _, crd := range CRDs() {
		_, err := crds.Create(t.Context(), &unstructured.Unstructured{Object: crd}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
		created = created || err == nil
	}
	disc, err := discovery.NewDiscoveryClientForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	c.WaitFor("KUDO's CRDs to be served", func() bool {
		if _, err := disc.ServerResourcesForGroupVersion("kudo.dev/v1beta1"); err != nil {
			return false
		}
		for _, r := range []string{"operators", "operatorversions", "instances"} {
			_, err := c.Dynamic.Resource(schema.GroupVersionResource{Group: "kudo.dev", Version: "v1beta1", Resource: r}).List(t.Context(), metav1.ListOptions{Limit: 1})
			if err != nil {
				return false
			}
		}
		return true
	})
	if created { // the collector may have watched KUDO's CRDs of an earlier test
		kubetest.RestartGC(t)
	} else {
		kubetest.StartWithGC(t)
	}
	c.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	c.Kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: %q, certificate-authority-data: %q}}]
users: [{name: admin, user: {token: %q}}]
contexts: [{name: test, context: {cluster: test, user: admin}}]
current-context: test
`, srv.Config.Host, base64.StdEncoding.EncodeToString(srv.Config.CAData), srv.Config.BearerToken)
	if err := os.WriteFile(c.Kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// WaitFor polls ok for up to 90 seconds.
func (c *Cluster) WaitFor(what string, ok func() bool) {
	c.T.Helper()
	for deadline := time.Now().Add(90 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.T.Fatalf("timed out waiting for %s", what)
		}
	}
}

// Resource is the client of an object's resource.
func (c *Cluster) Resource(obj map[string]any) dynamic.ResourceInterface {
	c.T.Helper()
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		c.T.Fatalf("%s: %v", gvk, err)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.Dynamic.Resource(m.Resource).Namespace(u.GetNamespace())
	}
	return c.Dynamic.Resource(m.Resource)
}

// Get returns the live version of obj.
func (c *Cluster) Get(obj map[string]any) *unstructured.Unstructured {
	c.T.Helper()
	u, err := c.Resource(obj).Get(c.T.Context(), (&unstructured.Unstructured{Object: obj}).GetName(), metav1.GetOptions{})
	if err != nil {
		c.T.Fatalf("reading %s %s %s: %v", obj["apiVersion"], obj["kind"], (&unstructured.Unstructured{Object: obj}).GetName(), err)
	}
	return u
}

// Create creates obj under the field manager.
func (c *Cluster) Create(obj map[string]any, manager string) *unstructured.Unstructured {
	c.T.Helper()
	u, err := c.Resource(obj).Create(c.T.Context(), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{FieldManager: manager})
	if err != nil {
		c.T.Fatalf("creating %s %s: %v", obj["kind"], (&unstructured.Unstructured{Object: obj}).GetName(), err)
	}
	return u
}

// Namespace creates ns unless it exists.
func (c *Cluster) Namespace(ns string) {
	c.T.Helper()
	_, err := c.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(c.T.Context(),
		&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		c.T.Fatal(err)
	}
}

// DeleteNamespace deletes ns and waits until it is gone, first removing
// KUDO's finalizer from Instances left there (by a test that failed half
// way), which would hold the namespace forever.
func (c *Cluster) DeleteNamespace(ns string) {
	c.T.Helper()
	insts := c.Dynamic.Resource(schema.GroupVersionResource{Group: "kudo.dev", Version: "v1beta1", Resource: "instances"}).Namespace(ns)
	if list, err := insts.List(c.T.Context(), metav1.ListOptions{}); err == nil {
		for _, in := range list.Items {
			_, _ = insts.Patch(c.T.Context(), in.GetName(), types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		}
	}
	ri := c.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"})
	if err := ri.Delete(c.T.Context(), ns, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		c.T.Fatal(err)
	}
	c.WaitFor("namespace "+ns+" to be deleted", func() bool {
		_, err := ri.Get(c.T.Context(), ns, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
}

// Cleanup removes what a test of ns left: the objects objs, at once, when
// the test passed (the namespace controller takes 5 seconds to delete a
// namespace), else the whole namespace.
func (c *Cluster) Cleanup(ns string, objs []map[string]any) {
	c.T.Helper()
	if c.T.Failed() {
		c.DeleteNamespace(ns)
		return
	}
	for _, o := range objs {
		name := (&unstructured.Unstructured{Object: o}).GetName()
		ri := c.Resource(o)
		if err := ri.Delete(c.T.Context(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			c.T.Fatal(err)
		}
		c.WaitFor(fmt.Sprintf("%s %s to be deleted", o["kind"], name), func() bool {
			_, err := ri.Get(c.T.Context(), name, metav1.GetOptions{})
			return apierrors.IsNotFound(err)
		})
	}
}

// Install puts an install in place as KUDO left it: kudoObjs (Operator,
// OperatorVersion and Instances, as Export writes them) as kubectl kudo
// created them, the Instances with KUDO's finalizer and their parents'
// real uids, then objs as KUDO's controller applied them (CreateAsKUDO).
// It returns the Instances by name.
func (c *Cluster) Install(ns string, kudoObjs, objs []map[string]any) map[string]*unstructured.Unstructured {
	c.T.Helper()
	c.Namespace(ns)
	insts := map[string]*unstructured.Unstructured{}
	for _, o := range slices.Clone(kudoObjs) {
		u := (&unstructured.Unstructured{Object: o}).DeepCopy()
		for _, f := range []string{"resourceVersion", "uid", "creationTimestamp"} {
			unstructured.RemoveNestedField(u.Object, "metadata", f)
		}
		status, hasStatus := u.Object["status"]
		unstructured.RemoveNestedField(u.Object, "status")
		u.SetNamespace(ns)
		refs := u.GetOwnerReferences()
		for i := range refs {
			if p := insts[refs[i].Name]; p != nil && refs[i].Kind == "Instance" {
				refs[i].UID = p.GetUID()
			}
		}
		u.SetOwnerReferences(refs)
		if u.GetKind() == "Instance" {
			u.SetFinalizers([]string{"kudo.dev.instance.cleanup"})
		}
		created := c.Create(u.Object, "kubectl-kudo")
		if hasStatus && u.GetKind() == "Instance" { // the controller's plan status
			created.Object["status"] = status
			var err error
			if created, err = c.Resource(created.Object).UpdateStatus(c.T.Context(), created, metav1.UpdateOptions{FieldManager: "manager"}); err != nil {
				c.T.Fatal(err)
			}
		}
		if u.GetKind() == "Instance" {
			insts[u.GetName()] = created
		}
	}
	for _, o := range objs {
		c.CreateAsKUDO(o, ns, insts)
	}
	return insts
}

// CreateAsKUDO creates one object as KUDO's controller did: owned by the
// Instance of its kudo.dev/instance label (a controller ownerReference),
// with kudo.dev/last-applied-configuration, under KUDO's field manager.
func (c *Cluster) CreateAsKUDO(o map[string]any, ns string, insts map[string]*unstructured.Unstructured) *unstructured.Unstructured {
	c.T.Helper()
	u := (&unstructured.Unstructured{Object: o}).DeepCopy()
	u.SetNamespace(ns)
	owner := insts[u.GetLabels()["kudo.dev/instance"]]
	if owner == nil {
		c.T.Fatalf("%s %s: no Instance %q", u.GetKind(), u.GetName(), u.GetLabels()["kudo.dev/instance"])
	}
	u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "kudo.dev/v1beta1", Kind: "Instance", Name: owner.GetName(), UID: owner.GetUID(), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}})
	unstructured.RemoveNestedField(u.Object, "status")
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	last, err := json.Marshal(u.Object)
	if err != nil {
		c.T.Fatal(err)
	}
	ann := u.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann["kudo.dev/last-applied-configuration"] = string(last)
	u.SetAnnotations(ann)
	return c.Create(u.Object, "manager")
}

func ptr[T any](v T) *T { return &v }

// Snapshot is the uid and generation of each live object.
type Snapshot map[string]string

// Snapshot reads the uid and generation of objs; for a Deployment, whose
// generation also counts changes of its annotations (the API server copies
// them to its ReplicaSets), the digest of its pod template instead: pods
// restart when that changes.
func (c *Cluster) Snapshot(objs []map[string]any) Snapshot {
	c.T.Helper()
	s := Snapshot{}
	for _, o := range objs {
		u := c.Get(o)
		v := fmt.Sprintf("uid %s generation %d", u.GetUID(), u.GetGeneration())
		if u.GetKind() == "Deployment" {
			tmpl, _ := json.Marshal(u.Object["spec"].(map[string]any)["template"])
			v = fmt.Sprintf("uid %s pod template sha256:%x", u.GetUID(), sha256.Sum256(tmpl))
		}
		s[u.GetKind()+" "+u.GetNamespace()+"/"+u.GetName()] = v
	}
	return s
}

// Diff lists what differs from s in t ("" when nothing does).
func (s Snapshot) Diff(t Snapshot) string {
	var out []string
	for k, v := range s {
		if t[k] != v {
			out = append(out, fmt.Sprintf("%s: %s, then %q", k, v, t[k]))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// SyncAsArgoCD applies objs by server-side apply under Argo CD's field
// manager, forced, as Argo CD's ServerSideApply=true does.
func (c *Cluster) SyncAsArgoCD(objs []map[string]any) {
	c.T.Helper()
	for _, o := range objs {
		body, _ := json.Marshal(o)
		name := (&unstructured.Unstructured{Object: o}).GetName()
		if _, err := c.Resource(o).Patch(c.T.Context(), name, types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "argocd-controller", Force: ptr(true)}); err != nil {
			c.T.Fatalf("server-side apply of %s %s: %v", o["kind"], name, err)
		}
	}
}

// Controller puts KUDO's controller StatefulSet in kudo-system with
// replicas (or scales it).
func (c *Cluster) Controller(replicas int64) {
	c.T.Helper()
	sts := map[string]any{
		"apiVersion": "apps/v1", "kind": "StatefulSet",
		"metadata": map[string]any{"name": "kudo-controller-manager", "namespace": "kudo-system"},
		"spec": map[string]any{
			"replicas": replicas, "serviceName": "kudo-controller-manager-service",
			"selector": map[string]any{"matchLabels": map[string]any{"app": "kudo-manager"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "kudo-manager"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "manager", "image": "kudobuilder/controller:v0.19.0"}}},
			},
		},
	}
	c.Namespace("kudo-system")
	body, _ := json.Marshal(sts)
	if _, err := c.Resource(sts).Patch(c.T.Context(), "kudo-controller-manager", types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "kubectl-kudo", Force: ptr(true)}); err != nil {
		c.T.Fatal(err)
	}
}

// Webhook is KUDO's instance admission webhook, failing closed.
func Webhook() map[string]any {
	return map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
		"metadata": map[string]any{"name": "kudo-manager-instance-admission-webhook-config"},
		"webhooks": []any{map[string]any{
			"name": "instance-admission.kudo.dev", "admissionReviewVersions": []any{"v1"}, "sideEffects": "None", "failurePolicy": "Fail",
			"clientConfig": map[string]any{"service": map[string]any{"name": "kudo-controller-manager-service", "namespace": "kudo-system", "path": "/admit-kudo-dev-v1beta1-instance"}},
			"rules":        []any{map[string]any{"apiGroups": []any{"kudo.dev"}, "apiVersions": []any{"v1beta1"}, "operations": []any{"CREATE", "UPDATE"}, "resources": []any{"instances"}}},
		}},
	}
}

// RemoveKUDO deletes the Instances and KUDO's CRDs, as someone removing
// KUDO does, and returns once the garbage collector has acted on the
// Instance named first: a ConfigMap it owns, created now, is collected.
func (c *Cluster) RemoveKUDO(ns string, insts ...*unstructured.Unstructured) time.Duration {
	c.T.Helper()
	ctx := c.T.Context()
	sentinel := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{
		"name": "gc-sentinel", "namespace": ns,
		"ownerReferences": []any{map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "name": insts[0].GetName(), "uid": string(insts[0].GetUID())}},
	}}
	c.Create(sentinel, "test")
	for _, in := range insts {
		if err := c.Resource(in.Object).Delete(ctx, in.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			c.T.Fatal(err)
		}
	}
	crds := c.Dynamic.Resource(crdGVR)
	for _, crd := range CRDs() {
		if err := crds.Delete(ctx, crd["metadata"].(map[string]any)["name"].(string), metav1.DeleteOptions{}); err != nil {
			c.T.Fatal(err)
		}
	}
	t0 := time.Now()
	c.WaitFor("the garbage collector to delete what the Instance still owned", func() bool {
		_, err := c.Resource(sentinel).Get(ctx, "gc-sentinel", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
	c.WaitFor("KUDO's CRDs to be deleted", func() bool {
		_, err := crds.Get(ctx, "instances.kudo.dev", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
	return time.Since(t0)
}

// Managers are the field managers of the main resource of u, as
// manager/Operation, sorted.
func Managers(u *unstructured.Unstructured) []string {
	var out []string
	for _, mf := range u.GetManagedFields() {
		if mf.Subresource == "" {
			out = append(out, mf.Manager+"/"+string(mf.Operation))
		}
	}
	slices.Sort(out)
	return out
}
