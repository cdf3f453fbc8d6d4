// The adopt tests run against the real API server; adopt runs nothing
// concurrently, so they are left out of the race detector's run (make
// race), which would only double their time.

//go:build !race

package cmd

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

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

// hasLine reports whether an adopt report lists key with status.
func hasLine(report, status, key string) bool {
	return regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(status) + `\s+` + regexp.QuoteMeta(key) + `\b`).MatchString(report)
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

// adoptAndRemoveKUDO runs check (want exit 0), apply and apply again,
// then deletes the Instances and KUDO's CRDs and syncs as Argo CD: every
// object of live keeps its uid and generation.
func adoptAndRemoveKUDO(t *testing.T, kc *kudotest.Cluster, config, ns string, live []map[string]any, insts map[string]*unstructured.Unstructured) {
	t.Helper()
	before := kc.Snapshot(live)
	stdout, stderr, code := cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig)
	t.Logf("adopt check:\n%s%s", stdout, stderr)
	if code != 0 || !strings.Contains(stdout, "; adoptable") {
		t.Fatalf("adopt check of an untouched install: exit %d, want 0", code)
	}
	stdout, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig)
	t.Logf("adopt apply:\n%s%s", stdout, stderr)
	if code != 0 {
		t.Fatalf("adopt apply: exit %d", code)
	}
	rendered := map[string]bool{}
	for _, o := range renderedObjects(t, config) {
		rendered[o["kind"].(string)+"/"+(&unstructured.Unstructured{Object: o}).GetName()] = true
	}
	for _, o := range live {
		u := kc.Get(o)
		if len(u.GetOwnerReferences()) != 0 {
			t.Errorf("%s %s: ownerReferences left: %v", u.GetKind(), u.GetName(), u.GetOwnerReferences())
		}
		m := kudotest.Managers(u)
		switch {
		case !rendered[u.GetKind()+"/"+u.GetName()]:
			if !slices.Equal(m, []string{"manager/Update"}) {
				t.Errorf("%s %s: not rendered, yet its field managers changed: %v", u.GetKind(), u.GetName(), m)
			}
		case slices.Contains(m, "manager/Update") || !slices.Contains(m, "argocd-controller/Apply"):
			t.Errorf("%s %s: field managers %v, want KUDO's handed to argocd-controller", u.GetKind(), u.GetName(), m)
		}
	}
	for _, in := range insts {
		if f := kc.Get(in.Object).GetFinalizers(); len(f) != 0 {
			t.Errorf("Instance %s: finalizers left: %v", in.GetName(), f)
		}
	}
	if stdout, _, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig); code != 0 || !strings.Contains(stdout, "nothing to do") {
		t.Errorf("adopt apply again: exit %d, want nothing to do:\n%s", code, stdout)
	}
	if stdout, _, code = cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig); code != 0 {
		t.Errorf("adopt check after adoption: exit %d\n%s", code, stdout)
	}
	names := slices.Sorted(maps.Keys(insts))
	var ordered []*unstructured.Unstructured
	for _, n := range names {
		ordered = append(ordered, insts[n])
	}
	t.Logf("garbage collection after deleting the Instances: %v", kc.RemoveKUDO(ns, ordered...))
	if d := before.Diff(kc.Snapshot(live)); d != "" {
		t.Errorf("after deleting the Instances and KUDO's CRDs:\n%s", d)
	}
	kc.SyncAsArgoCD(renderedObjects(t, config))
	if d := before.Diff(kc.Snapshot(live)); d != "" {
		t.Errorf("after Argo CD's server-side apply (generations and pod templates must not change):\n%s", d)
	}
}

// refNamespace is the namespace of the corpus reference's instance inst.
const refNamespace = "ns1"

// installReference lays the deploy plan of corpus package op out as KUDO
// left it (kudotest.Reference: instance inst in refNamespace, with the
// OperatorVersion kubectl kudo install made; the caller defers
// kc.Cleanup(refNamespace, live)), and imports it from the cluster with
// the import flags given. It returns the live objects, the Instances and
// the imported config.
func installReference(t *testing.T, op string, importFlags ...string) (*kudotest.Cluster, []map[string]any, map[string]*unstructured.Unstructured, string) {
	t.Helper()
	kc := kudotest.Setup(t)
	corpus := testcorpus.Dir(t)
	pkg := filepath.Join(corpus, "kudo-operators", op)
	live := kudotest.Reference(t, filepath.Join(corpus, "kudo-reference", op+".deploy.yaml"), pkg)
	export := kudotest.PackageObjects(t, pkg, refNamespace)
	ov := export[1]["metadata"].(map[string]any)["name"].(string)
	export = append(export, kudotest.InstanceObject(0, kudotest.Instance{Name: "inst"}, refNamespace, op, ov))
	insts := kc.Install(refNamespace, export, live)
	gitops := filepath.Join(t.TempDir(), "gitops")
	args := append([]string{"import", "--kubeconfig", kc.Kubeconfig, "--namespace", refNamespace, "--output-dir", gitops}, importFlags...)
	if _, stderr, code := cli(args...); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, stderr)
	}
	return kc, live, insts, filepath.Join(gitops, refNamespace, "inst", "kudo-render.yaml")
}

// TestAdoptKUDOReference moves installs of corpus packages, laid out as
// KUDO's controller leaves them after the deploy plan (the objects KUDO's
// own engine rendered, in the corpus reference: instance inst in ns1), to
// Argo CD: import from the cluster (the package rebuilt from the
// OperatorVersion), check, adopt, delete the Instance and KUDO's CRDs
// with the garbage collector running, sync as Argo CD does.
func TestAdoptKUDOReference(t *testing.T) {
	for _, op := range []string{"zookeeper", "kafka", "cowsay", "redis", "mysql", "elastic", "first-operator", "confluent-rest-proxy"} {
		t.Run(op, func(t *testing.T) {
			kc, live, insts, config := installReference(t, op) // the package rebuilt from the OperatorVersion
			defer kc.Cleanup(refNamespace, live)
			adoptAndRemoveKUDO(t, kc, config, refNamespace, live, insts)
		})
	}
}

// TestAdoptRefusals: what adopt apply refuses changes nothing, with a
// message that says what to do.
func TestAdoptRefusals(t *testing.T) {
	const ns = refNamespace
	kc, live, insts, config := installReference(t, "zookeeper", "--operators", filepath.Join(testcorpus.Dir(t), "kudo-operators"))
	defer kc.Cleanup(ns, live)
	untouched := kc.Snapshot(live)
	requireOwned := func(why string) {
		t.Helper()
		for _, o := range live {
			u := kc.Get(o)
			if refs := u.GetOwnerReferences(); len(refs) != 1 || refs[0].UID != insts["inst"].GetUID() || slices.Contains(kudotest.Managers(u), "argocd-controller/Apply") {
				t.Errorf("%s: %s %s was changed: ownerReferences %v, managers %v", why, u.GetKind(), u.GetName(), refs, kudotest.Managers(u))
			}
		}
		if f := kc.Get(insts["inst"].Object).GetFinalizers(); len(f) != 1 {
			t.Errorf("%s: the Instance's finalizer was removed", why)
		}
	}

	// A ConfigMap changed by hand: the first sync would put KUDO's value back.
	cm := kc.Get(live[0])
	orig := cm.DeepCopy()
	data, _, _ := unstructured.NestedStringMap(cm.Object, "data")
	keys := slices.Sorted(maps.Keys(data))
	if cm.GetKind() != "ConfigMap" || len(keys) == 0 {
		t.Fatalf("want a ConfigMap with data first, got %s %s", cm.GetKind(), cm.GetName())
	}
	unstructured.SetNestedField(cm.Object, "echo changed by hand", "data", keys[0])
	if _, err := kc.Resource(cm.Object).Update(t.Context(), cm, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig)
	if code != 1 || !hasLine(stdout, "changed", "ConfigMap ns1/"+cm.GetName()) || !strings.Contains(stdout, "changed by kubectl-edit at ") {
		t.Errorf("adopt check after a hand change: exit %d, want 1 naming the ConfigMap and kubectl-edit:\n%s", code, stdout)
	}
	_, stderr, code := cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig)
	if code != 1 || !strings.Contains(stderr, "nothing was changed: the GitOps tool's first sync would change 1 objects (ConfigMap ns1/"+cm.GetName()+": changed)") {
		t.Errorf("adopt apply after a hand change: exit %d, want a refusal:\n%s", code, stderr)
	}
	requireOwned("a hand change")
	orig.SetResourceVersion(kc.Get(live[0]).GetResourceVersion())
	if _, err := kc.Resource(cm.Object).Update(t.Context(), orig, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}

	// KUDO's webhook, then KUDO's controller, are still there.
	hook := kc.Create(kudotest.Webhook(), "kubectl-kudo")
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig)
	if code != 1 || !strings.Contains(stderr, `admission webhook mutatingwebhookconfiguration "kudo-manager-instance-admission-webhook-config" intercepts kudo.dev objects`) {
		t.Errorf("adopt apply with KUDO's webhook: exit %d, want a refusal naming it:\n%s", code, stderr)
	}
	requireOwned("KUDO's webhook")
	if err := kc.Resource(hook.Object).Delete(t.Context(), hook.GetName(), metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	kc.Controller(1)
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig)
	if code != 1 || !strings.Contains(stderr, "kubectl -n kudo-system scale statefulset kudo-controller-manager --replicas=0") {
		t.Errorf("adopt apply with KUDO's controller running: exit %d, want a refusal:\n%s", code, stderr)
	}
	requireOwned("KUDO's controller")
	kc.Controller(0)

	// --dry-run prints the patches and changes nothing.
	stdout, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "would patch StatefulSet.apps ns1/inst-zookeeper: ownerReference to Instance inst removed") ||
		!strings.Contains(stdout, `"op":"test","path":"/metadata/ownerReferences/0/uid","value":"`+string(insts["inst"].GetUID())+`"`) {
		t.Errorf("adopt apply --dry-run: exit %d\n%s%s", code, stdout, stderr)
	}
	requireOwned("--dry-run")

	// An Instance that is not on the cluster, a cluster that cannot be reached.
	_, stderr, code = cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig, "--namespace", "elsewhere")
	if code != 2 || !strings.Contains(stderr, "there is no KUDO Instance elsewhere/inst on https://127.0.0.1:") {
		t.Errorf("adopt check of a missing Instance: exit %d, want 2:\n%s", code, stderr)
	}
	unreachable := filepath.Join(t.TempDir(), "unreachable")
	if err := os.WriteFile(unreachable, []byte("apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = cli("adopt", "check", config, "--kubeconfig", unreachable)
	if code != 2 || stdout != "" || !strings.Contains(stderr, "cannot read Instance ns1/inst on https://127.0.0.1:1") {
		t.Errorf("adopt check of a cluster that cannot be reached: exit %d, want 2 naming it, nothing on stdout:\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = cli("adopt", "apply", config, "--kubeconfig", filepath.Join(t.TempDir(), "missing"))
	if code != 1 || !strings.Contains(stderr, "cannot connect to the cluster") {
		t.Errorf("adopt apply with no kubeconfig: exit %d:\n%s", code, stderr)
	}
	if d := untouched.Diff(kc.Snapshot(live)); d != "" {
		t.Errorf("the refusals changed objects:\n%s", d)
	}
	if _, stderr, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig); code != 0 {
		t.Fatalf("adopt apply: exit %d\n%s", code, stderr)
	}
	kc.RemoveKUDO(ns, insts["inst"])
}

// asKUDOApplied is a rendered object as KUDO's controller had applied it:
// without kudo-render's and Argo CD's annotations.
func asKUDOApplied(o map[string]any) map[string]any {
	u := (&unstructured.Unstructured{Object: o}).DeepCopy()
	ann := u.GetAnnotations()
	for k := range ann {
		if strings.HasPrefix(k, "kudorender.dev/") || strings.HasPrefix(k, "argocd.argoproj.io/") {
			delete(ann, k)
		}
	}
	ann["kudo.dev/last-plan-execution-uid"] = "5c1f1d6e-0000-4000-8000-000000000001"
	u.SetAnnotations(ann)
	return u.Object
}

// TestAdoptDependency moves an instance with non-default parameters of
// several types and a KudoOperator dependency (a child Instance owned by
// the parent, its objects owned by the child): import keeps the child in
// the parent's render, adopt detaches the objects of both Instances and
// removes both finalizers, and deleting the parent (which collects the
// child Instance) deletes no object.
func TestAdoptDependency(t *testing.T) {
	kc := kudotest.Setup(t)
	const ns = "web"
	ops := "../internal/adapter/migrate/testdata/operators"
	export := slices.Concat(
		kudotest.PackageObjects(t, filepath.Join(ops, "shop"), ns),
		[]map[string]any{kudotest.InstanceObject(0, kudotest.Instance{Name: "shop", Params: map[string]string{
			"REPLICAS": "3", "DEBUG": "true", "RATIO": "0.75", "HOSTS": "- a.example.com\n- b.example.com\n", "LABELS": "team: shop\n", "PASSWORD": "s3cret",
		}}, ns, "shop", "shop-5.1.0-0.2.0")},
		kudotest.PackageObjects(t, filepath.Join(ops, "cache", "1.2.0"), ns),
		[]map[string]any{kudotest.InstanceObject(1, kudotest.Instance{Name: "shop-cache", Params: map[string]string{"SIZE": "128Mi"}, Parent: "shop"}, ns, "cache", "cache-1.2.0")},
	)
	insts := kc.Install(ns, export, nil)
	if refs := insts["shop-cache"].GetOwnerReferences(); len(refs) != 1 || refs[0].UID != insts["shop"].GetUID() {
		t.Fatalf("the dependency Instance is not owned by its parent: %v", refs)
	}
	gitops := filepath.Join(t.TempDir(), "gitops")
	if _, stderr, code := cli("import", "--kubeconfig", kc.Kubeconfig, "--namespace", ns, "--output-dir", gitops); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(gitops, ns, "shop-cache")); !os.IsNotExist(err) {
		t.Errorf("the dependency got a folder of its own")
	}
	config := filepath.Join(gitops, ns, "shop", "kudo-render.yaml")
	var live []map[string]any
	owners := map[string]bool{}
	for _, o := range renderedObjects(t, config) {
		u := &unstructured.Unstructured{Object: asKUDOApplied(o)}
		owners[u.GetLabels()["kudo.dev/instance"]] = true
		kc.CreateAsKUDO(u.Object, ns, insts)
		live = append(live, u.Object)
	}
	defer kc.Cleanup(ns, live)
	if !owners["shop"] || !owners["shop-cache"] {
		t.Fatalf("want objects of both Instances, got those of %v", owners)
	}
	adoptAndRemoveKUDO(t, kc, config, ns, live, map[string]*unstructured.Unstructured{"shop": insts["shop"]})
}

// TestAdoptCheckStatuses: a config whose render differs from the live
// install in a pod template restarts pods, in an immutable field cannot be
// applied, and Flux's field manager is used for target flux.
func TestAdoptCheckStatuses(t *testing.T) {
	const ns = refNamespace
	kc, live, insts, config := installReference(t, "zookeeper", "--target", "flux")
	defer kc.Cleanup(ns, live)
	cases := []struct {
		reason, param, status, field string
	}{
		{"more memory changes the pod template", "MEMORY=2Gi", "restarts pods", `spec.template.spec.containers`},
		{"a bigger disk changes volumeClaimTemplates, which the API server refuses", "DISK_SIZE=10Gi", "cannot apply", "cannot apply    StatefulSet.apps ns1/inst-zookeeper: spec.volumeClaimTemplates: field is immutable\n"},
	}
	for _, c := range cases {
		stdout, stderr, code := cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig, "-p", c.param)
		if code != 1 || !hasLine(stdout, c.status, "StatefulSet.apps ns1/inst-zookeeper") || !strings.Contains(stdout, c.field) {
			t.Errorf("%s: adopt check -p %s: exit %d, want 1 with the StatefulSet %s (%s):\n%s%s", c.reason, c.param, code, c.status, c.field, stdout, stderr)
		}
	}
	stdout, _, code := cli("adopt", "check", config, "--kubeconfig", kc.Kubeconfig, "-o", "json")
	var rep struct {
		Adoptable bool
		Objects   []struct{ Status string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 || !rep.Adoptable || len(rep.Objects) != 7 {
		t.Errorf("adopt check -o json: exit %d, %v, %+v", code, err, rep)
	}
	stdout, _, code = cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig, "--dry-run")
	if code != 0 || !strings.Contains(stdout, "handed to kustomize-controller") {
		t.Errorf("adopt apply --dry-run of a flux config: exit %d, want Flux's field manager:\n%s", code, stdout)
	}
	if _, stderr, code := cli("adopt", "apply", config, "--kubeconfig", kc.Kubeconfig); code != 0 {
		t.Fatalf("adopt apply: exit %d\n%s", code, stderr)
	}
	for _, o := range live {
		if m := kudotest.Managers(kc.Get(o)); !slices.Contains(m, "kustomize-controller/Apply") {
			t.Errorf("%s: managers %v, want kustomize-controller's", o["kind"], m)
		}
	}
	kc.RemoveKUDO(ns, insts["inst"])
}
