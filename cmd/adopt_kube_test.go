package cmd

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
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
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/enhance"
	"github.com/kudo-render/kudo-render/internal/kubetest"
	"github.com/kudo-render/kudo-render/internal/testcorpus"
	"github.com/kudo-render/kudo-render/kube/versions"
	"github.com/kudo-render/kudo-render/object"
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// kudoCRDs are kudo.dev/v1beta1 Operator, OperatorVersion and Instance,
// with open schemas: what adopt reads of them is checked by its code, not
// by KUDO's schemas.
func kudoCRDs() []map[string]any {
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

// kudoCluster is the test API server with KUDO's CRDs, garbage collection
// and a kubeconfig for the CLI.
type kudoCluster struct {
	t          *testing.T
	dyn        dynamic.Interface
	mapper     meta.RESTMapper
	kubeconfig string
}

func newKUDOCluster(t *testing.T) *kudoCluster {
	srv := kubetest.Start(t)
	kc := &kudoCluster{t: t}
	var err error
	if kc.dyn, err = dynamic.NewForConfig(srv.Config); err != nil {
		t.Fatal(err)
	}
	crds := kc.dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	for _, crd := range kudoCRDs() {
		_, err := crds.Create(t.Context(), &unstructured.Unstructured{Object: crd}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	disc, err := discovery.NewDiscoveryClientForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	kc.waitFor("KUDO's CRDs to be served", func() bool {
		_, err := disc.ServerResourcesForGroupVersion("kudo.dev/v1beta1")
		return err == nil
	})
	kubetest.StartWithGC(t) // after the CRDs: its collector watches Instances
	kc.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	kc.kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: %q, certificate-authority-data: %q}}]
users: [{name: admin, user: {token: %q}}]
contexts: [{name: test, context: {cluster: test, user: admin}}]
current-context: test
`, srv.Config.Host, b64(srv.Config.CAData), srv.Config.BearerToken)
	if err := os.WriteFile(kc.kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return kc
}

func (kc *kudoCluster) waitFor(what string, ok func() bool) {
	kc.t.Helper()
	for deadline := time.Now().Add(90 * time.Second); !ok(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			kc.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// ri is the client of an object's resource.
func (kc *kudoCluster) ri(obj map[string]any) dynamic.ResourceInterface {
	kc.t.Helper()
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	m, err := kc.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		kc.t.Fatalf("%s: %v", gvk, err)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return kc.dyn.Resource(m.Resource).Namespace(u.GetNamespace())
	}
	return kc.dyn.Resource(m.Resource)
}

func (kc *kudoCluster) get(obj map[string]any) *unstructured.Unstructured {
	kc.t.Helper()
	u, err := kc.ri(obj).Get(kc.t.Context(), (&unstructured.Unstructured{Object: obj}).GetName(), metav1.GetOptions{})
	if err != nil {
		kc.t.Fatal(err)
	}
	return u
}

func (kc *kudoCluster) create(obj map[string]any, manager string) *unstructured.Unstructured {
	kc.t.Helper()
	u, err := kc.ri(obj).Create(kc.t.Context(), &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{FieldManager: manager})
	if err != nil {
		kc.t.Fatalf("creating %s %s: %v", obj["kind"], (&unstructured.Unstructured{Object: obj}).GetName(), err)
	}
	return u
}

// installAsKUDO puts an instance in place as KUDO's CLI and controller
// left it: the Operator, OperatorVersion and Instance (with KUDO's
// finalizer) from kubectl kudo, and each object with a controller
// ownerReference to the Instance and kudo.dev/last-applied-configuration,
// created under KUDO's field manager "manager".
func (kc *kudoCluster) installAsKUDO(ns string, kudoObjs, objs []map[string]any) *unstructured.Unstructured {
	kc.t.Helper()
	_, err := kc.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(kc.t.Context(),
		&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		kc.t.Fatal(err)
	}
	var inst *unstructured.Unstructured
	for _, o := range kudoObjs {
		u := &unstructured.Unstructured{Object: o}
		u.SetNamespace(ns)
		if u.GetKind() == "Instance" {
			u.SetFinalizers([]string{"kudo.dev.instance.cleanup"})
		}
		created := kc.create(u.Object, "kubectl-kudo")
		if u.GetKind() == "Instance" && inst == nil {
			inst = created
		}
	}
	for _, o := range objs {
		kc.createAsKUDO(o, ns, inst)
	}
	return inst
}

// createAsKUDO creates one object as KUDO's controller did, owned by the
// Instance of its kudo.dev/instance label (else inst).
func (kc *kudoCluster) createAsKUDO(o map[string]any, ns string, inst *unstructured.Unstructured) *unstructured.Unstructured {
	kc.t.Helper()
	u := &unstructured.Unstructured{Object: o}
	u.SetNamespace(ns)
	owner := inst
	if name := u.GetLabels()["kudo.dev/instance"]; name != "" && name != inst.GetName() {
		owner = kc.get(map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "metadata": map[string]any{"name": name, "namespace": ns}})
	}
	u.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "kudo.dev/v1beta1", Kind: "Instance", Name: owner.GetName(), UID: owner.GetUID(), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}})
	unstructured.RemoveNestedField(u.Object, "status")
	unstructured.RemoveNestedField(u.Object, "metadata", "creationTimestamp")
	last, err := json.Marshal(u.Object)
	if err != nil {
		kc.t.Fatal(err)
	}
	ann := u.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	ann["kudo.dev/last-applied-configuration"] = string(last)
	u.SetAnnotations(ann)
	return kc.create(u.Object, "manager")
}

func ptr[T any](v T) *T { return &v }

// referenceObjects are the objects KUDO's own engine rendered for a corpus
// package (kudo-reference/<op>.deploy.yaml), minus those a later step of
// the plan deletes, with kudo.dev/dependencies-hash as KUDO's controller
// computed it once the ConfigMaps of earlier steps were applied (the
// reference has all-zero digests: nothing was applied).
func referenceObjects(t *testing.T, op string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "kudo-reference", op+".deploy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type doc struct {
		action string
		obj    *object.Object
	}
	var docs []doc
	action := regexp.MustCompile(`(?m)^# action=(\w+)`)
	for _, d := range strings.Split(string(data), "\n---\n") {
		m := action.FindStringSubmatch(d)
		if m == nil {
			continue
		}
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(d), &obj); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc{m[1], object.New(obj)})
	}
	deleted := map[string]bool{}
	for _, d := range docs {
		if d.action == "delete" {
			deleted[d.obj.Key()] = true
		}
	}
	var objs []*object.Object
	for _, d := range docs {
		if d.action == "apply" && !deleted[d.obj.Key()] {
			objs = append(objs, d.obj)
		}
	}
	if err := enhance.DependenciesHash(objs); err != nil {
		t.Fatal(err)
	}
	// The API versions KUDO applied (policy/v1beta1...) are served by a
	// current cluster in their successors, converted by the API server.
	for _, o := range objs {
		if _, err := versions.Convert(o, versions.Default); err != nil {
			t.Fatal(err)
		}
	}
	var out []map[string]any
	for _, o := range objs {
		out = append(out, o.Map)
	}
	return out
}

// exportObjects are the Operator, OperatorVersion and Instance of
// examples/migrate/kudo-export.yaml, the Instance renamed and given
// params.
func exportObjects(t *testing.T, instance string, params map[string]any) []map[string]any {
	t.Helper()
	data, err := os.ReadFile("../examples/migrate/kudo-export.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, it := range list.Items {
		u := &unstructured.Unstructured{Object: it}
		for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "ownerReferences"} {
			unstructured.RemoveNestedField(it, "metadata", f)
		}
		unstructured.RemoveNestedField(it, "status")
		if u.GetKind() == "Instance" {
			u.SetName(instance)
			it["spec"].(map[string]any)["parameters"] = params
		}
		out = append(out, it)
	}
	return out
}

// cli runs kudo-render and returns stdout, stderr and the exit status.
func cli(args ...string) (string, string, int) {
	stdout, stderr, err := run(args...)
	if err == nil {
		return stdout, stderr, 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			stderr += "error: " + ee.Err.Error() + "\n"
		}
		return stdout, stderr, ee.Code
	}
	return stdout, stderr + "error: " + err.Error() + "\n", 1
}

// snapshot is the uid and generation of each live object.
type snapshot map[string]string

func (kc *kudoCluster) snapshot(objs []map[string]any) snapshot {
	kc.t.Helper()
	s := snapshot{}
	for _, o := range objs {
		u := kc.get(o)
		s[u.GetKind()+"/"+u.GetName()] = fmt.Sprintf("%s gen %d", u.GetUID(), u.GetGeneration())
	}
	return s
}

// renderedObjects renders a config as the CLI does, without the hooks
// (run by the GitOps tool at each sync, not kept).
func renderedObjects(t *testing.T, config string) []map[string]any {
	t.Helper()
	stdout, stderr, code := cli("render", config)
	if code != 0 {
		t.Fatalf("render %s: exit %d\n%s", config, code, stderr)
	}
	var out []map[string]any
	for _, d := range strings.Split(stdout, "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(d), &obj); err != nil {
			t.Fatal(err)
		}
		if obj == nil {
			continue
		}
		if _, hook := (&unstructured.Unstructured{Object: obj}).GetAnnotations()["argocd.argoproj.io/hook"]; !hook {
			out = append(out, obj)
		}
	}
	return out
}

// syncAsArgoCD applies the objects by server-side apply under Argo CD's
// field manager, forced, as Argo CD's ServerSideApply=true does.
func (kc *kudoCluster) syncAsArgoCD(objs []map[string]any) {
	kc.t.Helper()
	for _, o := range objs {
		body, _ := json.Marshal(o)
		name := (&unstructured.Unstructured{Object: o}).GetName()
		if _, err := kc.ri(o).Patch(kc.t.Context(), name, types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "argocd-controller", Force: ptr(true)}); err != nil {
			kc.t.Fatalf("server-side apply of %s %s: %v", o["kind"], name, err)
		}
	}
}

func managers(u *unstructured.Unstructured) []string {
	var out []string
	for _, mf := range u.GetManagedFields() {
		if mf.Subresource == "" {
			out = append(out, mf.Manager+"/"+string(mf.Operation))
		}
	}
	slices.Sort(out)
	return out
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// TestAdoptZooKeeper moves the ZooKeeper that KUDO's own engine rendered
// (the corpus reference, instance inst in ns1), laid out as KUDO's
// controller leaves it, to Argo CD: import, check, the refusals, adopt,
// delete the Instance and KUDO's CRDs with the garbage collector running,
// then sync as Argo CD does. Every object keeps its uid and generation.
func TestAdoptZooKeeper(t *testing.T) {
	kc := newKUDOCluster(t)
	ctx := t.Context()
	const ns = "ns1"
	live := referenceObjects(t, "zookeeper")
	inst := kc.installAsKUDO(ns, exportObjects(t, "inst", map[string]any{}), live)
	before := kc.snapshot(live)

	gitops := filepath.Join(t.TempDir(), "gitops")
	if _, stderr, code := cli("import", "--kubeconfig", kc.kubeconfig, "--namespace", ns, "--operators", filepath.Join(testcorpus.Dir(t), "kudo-operators"), "-o", gitops); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, stderr)
	}
	config := filepath.Join(gitops, ns, "inst", "kudo-render.yaml")
	stdout, stderr, code := cli("adopt", "check", config, "--kubeconfig", kc.kubeconfig)
	t.Logf("adopt check:\n%s%s", stdout, stderr)
	if code != 0 || !hasLine(stdout, "unchanged", "StatefulSet.apps ns1/inst-zookeeper") || !strings.Contains(stdout, "; adoptable") {
		t.Fatalf("adopt check of an untouched install: exit %d, want 0 with the StatefulSet unchanged", code)
	}

	// A ConfigMap changed by hand: the first sync would revert it.
	cm := kc.get(live[0])
	orig := cm.DeepCopy()
	data, _, _ := unstructured.NestedStringMap(cm.Object, "data")
	keys := slices.Sorted(maps.Keys(data))
	if cm.GetKind() != "ConfigMap" || len(keys) == 0 {
		t.Fatalf("want a ConfigMap with data first, got %s %s", cm.GetKind(), cm.GetName())
	}
	unstructured.SetNestedField(cm.Object, "echo changed by hand", "data", keys[0])
	if _, err := kc.ri(cm.Object).Update(ctx, cm, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = cli("adopt", "check", config, "--kubeconfig", kc.kubeconfig)
	if code != 1 || !hasLine(stdout, "changed", "ConfigMap ns1/"+cm.GetName()) || !strings.Contains(stdout, "changed by kubectl-edit at ") {
		t.Errorf("adopt check after a hand change: exit %d, want 1 naming the ConfigMap and kubectl-edit:\n%s", code, stdout)
	}
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig)
	if code != 1 || !strings.Contains(stderr, "nothing was changed: the GitOps tool's first sync would change 1 objects (ConfigMap ns1/"+cm.GetName()+": changed)") {
		t.Errorf("adopt apply after a hand change: exit %d, want a refusal:\n%s", code, stderr)
	}
	kc.requireOwned(live, inst)
	cur := kc.get(live[0])
	orig.SetResourceVersion(cur.GetResourceVersion())
	if _, err := kc.ri(cm.Object).Update(ctx, orig, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}

	// KUDO's webhook and controller are still there: refused.
	hook := kc.create(map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
		"metadata": map[string]any{"name": "kudo-manager-instance-admission-webhook-config"},
		"webhooks": []any{map[string]any{
			"name": "instance-admission.kudo.dev", "admissionReviewVersions": []any{"v1"}, "sideEffects": "None", "failurePolicy": "Fail",
			"clientConfig": map[string]any{"service": map[string]any{"name": "kudo-controller-manager-service", "namespace": "kudo-system", "path": "/admit-kudo-dev-v1beta1-instance"}},
			"rules":        []any{map[string]any{"apiGroups": []any{"kudo.dev"}, "apiVersions": []any{"v1beta1"}, "operations": []any{"CREATE", "UPDATE"}, "resources": []any{"instances"}}},
		}},
	}, "kubectl-kudo")
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig)
	if code != 1 || !strings.Contains(stderr, `admission webhook mutatingwebhookconfiguration "kudo-manager-instance-admission-webhook-config" intercepts kudo.dev objects`) {
		t.Errorf("adopt apply with KUDO's webhook: exit %d, want a refusal naming it:\n%s", code, stderr)
	}
	if err := kc.ri(hook.Object).Delete(ctx, hook.GetName(), metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	kc.installController(1)
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig)
	if code != 1 || !strings.Contains(stderr, "kubectl -n kudo-system scale statefulset kudo-controller-manager --replicas=0") {
		t.Errorf("adopt apply with KUDO's controller running: exit %d, want a refusal:\n%s", code, stderr)
	}
	kc.requireOwned(live, inst)
	kc.installController(0)

	stdout, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "would patch StatefulSet.apps ns1/inst-zookeeper: ownerReference to Instance inst removed") {
		t.Errorf("adopt apply --dry-run: exit %d\n%s%s", code, stdout, stderr)
	}
	kc.requireOwned(live, inst)

	stdout, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig)
	t.Logf("adopt apply:\n%s%s", stdout, stderr)
	if code != 0 {
		t.Fatalf("adopt apply: exit %d", code)
	}
	for _, o := range live {
		u := kc.get(o)
		if len(u.GetOwnerReferences()) != 0 {
			t.Errorf("%s %s: ownerReferences left: %v", u.GetKind(), u.GetName(), u.GetOwnerReferences())
		}
		if m := managers(u); slices.Contains(m, "manager/Update") || !slices.Contains(m, "argocd-controller/Apply") {
			t.Errorf("%s %s: field managers %v, want KUDO's handed to argocd-controller", u.GetKind(), u.GetName(), m)
		}
	}
	if f := kc.get(inst.Object).GetFinalizers(); len(f) != 0 {
		t.Errorf("Instance finalizers left: %v", f)
	}
	if stdout, _, code = cli("adopt", "apply", config, "--kubeconfig", kc.kubeconfig); code != 0 || !strings.Contains(stdout, "nothing to do") {
		t.Errorf("adopt apply again: exit %d, want nothing to do:\n%s", code, stdout)
	}
	if stdout, _, code = cli("adopt", "check", config, "--kubeconfig", kc.kubeconfig); code != 0 {
		t.Errorf("adopt check after adoption: exit %d\n%s", code, stdout)
	}

	kc.removeKUDO(ns, inst)
	if after := kc.snapshot(live); !equalSnapshots(before, after) {
		t.Errorf("after deleting the Instance and KUDO's CRDs:\nbefore %v\nafter  %v", before, after)
	}
	kc.syncAsArgoCD(renderedObjects(t, config))
	if after := kc.snapshot(live); !equalSnapshots(before, after) {
		t.Errorf("after Argo CD's server-side apply (generation must not change):\nbefore %v\nafter  %v", before, after)
	}
}

func equalSnapshots(a, b snapshot) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// requireOwned fails unless every object is still owned by inst.
func (kc *kudoCluster) requireOwned(objs []map[string]any, inst *unstructured.Unstructured) {
	kc.t.Helper()
	for _, o := range objs {
		u := kc.get(o)
		refs := u.GetOwnerReferences()
		if len(refs) != 1 || refs[0].UID != inst.GetUID() {
			kc.t.Errorf("%s %s: want still owned by the Instance, ownerReferences %v", u.GetKind(), u.GetName(), refs)
		}
	}
}

// installController puts KUDO's controller StatefulSet in kudo-system
// with replicas (or scales it).
func (kc *kudoCluster) installController(replicas int64) {
	kc.t.Helper()
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
	kc.installAsKUDO("kudo-system", nil, nil)
	body, _ := json.Marshal(sts)
	if _, err := kc.ri(sts).Patch(kc.t.Context(), "kudo-controller-manager", types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "kubectl-kudo", Force: ptr(true)}); err != nil {
		kc.t.Fatal(err)
	}
}

// removeKUDO deletes the Instance and KUDO's CRDs as someone removing
// KUDO does, and waits until the garbage collector has acted: a ConfigMap
// still owned by the Instance (created after the adoption) is collected.
func (kc *kudoCluster) removeKUDO(ns string, inst *unstructured.Unstructured) {
	kc.t.Helper()
	ctx := kc.t.Context()
	sentinel := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{
		"name": "gc-sentinel", "namespace": ns,
		"ownerReferences": []any{map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "name": inst.GetName(), "uid": string(inst.GetUID())}},
	}}
	kc.create(sentinel, "test")
	if err := kc.ri(inst.Object).Delete(ctx, inst.GetName(), metav1.DeleteOptions{}); err != nil {
		kc.t.Fatal(err)
	}
	crds := kc.dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	for _, crd := range kudoCRDs() {
		if err := crds.Delete(ctx, crd["metadata"].(map[string]any)["name"].(string), metav1.DeleteOptions{}); err != nil {
			kc.t.Fatal(err)
		}
	}
	t0 := time.Now()
	kc.waitFor("the garbage collector to delete what the Instance still owned", func() bool {
		_, err := kc.ri(sentinel).Get(ctx, "gc-sentinel", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
	kc.waitFor("KUDO's CRDs to be deleted", func() bool {
		_, err := crds.Get(ctx, "instances.kudo.dev", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	})
	kc.t.Logf("garbage collection after deleting the Instance: %v", time.Since(t0).Round(time.Millisecond))
}

// hasLine reports whether the report lists key with status.
func hasLine(report, status, key string) bool {
	return regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(status) + `\s+` + regexp.QuoteMeta(key) + `\b`).MatchString(report)
}
