package engine_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/plan"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// renderCorpus renders the deploy plan of a corpus package for instance
// "inst" in namespace "ns1", as the reference was produced.
func renderCorpus(t testing.TB, dir string, params map[string]any) []*object.Object {
	return engine.Objects(renderCorpusItems(t, dir, params))
}

func renderCorpusItems(t testing.TB, dir string, params map[string]any) []engine.Item {
	return renderCorpusFor(t, dir, params, kubeversion.Default)
}

// renderCorpusEra renders a corpus package for the Kubernetes version its
// operator.yaml names (kubernetesVersion), as KUDO's engine did: no API
// version is converted.
func renderCorpusEra(t testing.TB, dir string) []*object.Object {
	t.Helper()
	b, err := bundle.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := kubeversion.Parse(b.KubernetesVersion)
	if err != nil {
		t.Fatalf("operator.yaml kubernetesVersion: %v", err)
	}
	return engine.Objects(renderCorpusFor(t, dir, nil, v))
}

func renderCorpusFor(t testing.TB, dir string, params map[string]any, v kubeversion.Version) []engine.Item {
	t.Helper()
	b, err := bundle.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	items, err := engine.RenderWith(engine.Options{KubeVersion: v}, engine.Request{
		Bundle: b, Instance: render.Instance{Name: "inst", Namespace: "ns1"}, Params: params,
	})
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func find(objs []*object.Object, kind, name string) *object.Object {
	for _, o := range objs {
		if o.Kind() == kind && o.Name() == name {
			return o
		}
	}
	return nil
}

func TestCorpusRendersDeploy(t *testing.T) {
	for name, dir := range testcorpus.Operators(t) {
		t.Run(name, func(t *testing.T) {
			objs := renderCorpus(t, dir, nil)
			if len(objs) == 0 {
				t.Fatal("no objects")
			}
			for _, o := range objs {
				if o.Kind() == "Pod" {
					t.Errorf("a bare Pod %q in the output: pipe pods must become Jobs", o.Name())
				}
				if o.String("metadata", "labels", "heritage") != "kudo" {
					t.Errorf("%s %s: no heritage label", o.Kind(), o.Name())
				}
			}
		})
	}
}

// TestZookeeperAcceptance is the acceptance check for zookeeper
// with default parameters.
func TestZookeeperAcceptance(t *testing.T) {
	dir := testcorpus.Operators(t)["zookeeper"]
	items := renderCorpusItems(t, dir, nil)
	objs := engine.Objects(items)
	want := []struct{ kind, name string }{
		{"Service", "inst-hs"}, {"Service", "inst-cs"}, {"PodDisruptionBudget", "inst-pdb"},
		{"ConfigMap", "inst-bootstrap"}, {"ConfigMap", "inst-healthcheck"},
		{"StatefulSet", "inst-zookeeper"}, {"Job", "inst-validation"},
	}
	if len(objs) != len(want) {
		t.Errorf("got %d objects, want %d", len(objs), len(want))
	}
	for _, w := range want {
		o := find(objs, w.kind, w.name)
		if o == nil {
			t.Errorf("missing %s %s", w.kind, w.name)
			continue
		}
		if ns := o.Namespace(); ns != "ns1" {
			t.Errorf("%s %s in namespace %q, want ns1", w.kind, w.name, ns)
		}
	}
	if sts := find(objs, "StatefulSet", "inst-zookeeper"); sts != nil {
		if r := object.Get(sts.Map, "spec", "replicas"); r != int64(3) {
			t.Errorf("replicas = %v (%T), want 3", r, r)
		}
	}
	for _, it := range items {
		if it.Obj.Kind() != "Job" || it.Obj.Name() != "inst-validation" {
			continue
		}
		if !it.Hook {
			t.Errorf("validation Job does not run once (a later step deletes it)")
		}
		if it.Wave != 1 {
			t.Errorf("validation Job wave = %d, want 1 (after the parallel zookeeper phase)", it.Wave)
		}
	}
}

// TestKafkaToggle: ENABLE_CRUISE_CONTROL decides whether the three
// cruise-control objects (from a plan that is not rendered) are present.
func TestKafkaToggle(t *testing.T) {
	dir := testcorpus.Operators(t)["kafka"]
	cruise := func(objs []*object.Object) []string {
		var out []string
		for _, o := range objs {
			if o.String("metadata", "annotations", "kudo.dev/plan") == "cruise-control" {
				out = append(out, o.Kind()+"/"+o.Name())
			}
		}
		slices.Sort(out)
		return out
	}
	on := cruise(renderCorpus(t, dir, map[string]any{"ENABLE_CRUISE_CONTROL": "true"}))
	assert.Check(t, is.DeepEqual([]string{"ConfigMap/inst-cruisecontrol-props", "Deployment/inst-cruise-control", "Service/inst-cruise-control-svc"}, on), "cruise-control objects with true")
	if off := cruise(renderCorpus(t, dir, map[string]any{"ENABLE_CRUISE_CONTROL": "false"})); len(off) != 0 {
		t.Errorf("with false, got %v", off)
	}

	b, err := bundle.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = engine.Render(engine.Request{
		Bundle: b, Instance: render.Instance{Name: "inst", Namespace: "ns1"},
		Params: map[string]any{"ENABLE_CRUISE_CONTROL": "maybe"},
	})
	var pe *plan.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want a *plan.Error, got %v", err)
	}
	for _, s := range []string{`"cruise-deployment"`, `"ENABLE_CRUISE_CONTROL"`, `"maybe"`} {
		if !strings.Contains(pe.Msg, s) {
			t.Errorf("message %q does not name %s", pe.Msg, s)
		}
	}
}

// TestKafkaPipe: the deploy plan's Pipe task becomes a Job publishing the
// two Secrets under KUDO's artifact names, which the StatefulSet mounts when
// TLS with auto-generated certificates is on.
func TestKafkaPipe(t *testing.T) {
	objs := renderCorpus(t, testcorpus.Operators(t)["kafka"], map[string]any{
		"TRANSPORT_ENCRYPTION_ENABLED": "true", "USE_AUTO_TLS_CERTIFICATE": "true",
	})
	job := find(objs, "Job", "inst-generate-tls-certificates-pipe")
	if job == nil {
		t.Fatal("no pipe Job")
	}
	data, _ := job.Marshal()
	for _, name := range []string{
		"inst.deploy.deploykafka.generatetlscertificates.generatetlscertificates.certificate",
		"inst.deploy.deploykafka.generatetlscertificates.generatetlscertificates.privatekey",
	} {
		if !strings.Contains(string(data), name) {
			t.Errorf("the Job does not publish %s", name)
		}
		sts, _ := find(objs, "StatefulSet", "inst-kafka").Marshal()
		if !strings.Contains(string(sts), "secretName: "+name) {
			t.Errorf("the StatefulSet does not mount %s", name)
		}
	}
	for _, k := range []string{"ServiceAccount", "Role", "RoleBinding"} {
		if find(objs, k, "inst-pipe-publisher") == nil {
			t.Errorf("no %s for the pipe Job", k)
		}
	}
}

func loadReference(t *testing.T, op string) []kudotest.RefObject {
	t.Helper()
	refs, err := kudotest.ReadReference(filepath.Join(testcorpus.Dir(t), "kudo-reference", op+".deploy.yaml"))
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		t.Skipf("no reference for %s: %v", op, err)
	}
	if err != nil {
		t.Fatalf("reference %s: %v", op, err)
	}
	return refs
}

// TestCompatibilityWithKUDO compares the deploy plan of every corpus
// package with what KUDO's own engine renders, minus the differences the
// reference lists as by design, and modulo the defaults and quantity
// spellings that KUDO's conversion to typed objects introduced.
func TestCompatibilityWithKUDO(t *testing.T) {
	for op, dir := range testcorpus.Operators(t) {
		t.Run(op, func(t *testing.T) {
			ref := loadReference(t, op)
			ours := map[string]map[string]any{}
			for _, o := range renderCorpusEra(t, dir) {
				m, err := roundTrip(o.Map)
				if err != nil {
					t.Fatal(err)
				}
				ours[o.Kind()+"/"+o.Name()] = normalise(m)
			}
			seen := map[string]bool{}
			for _, r := range ref {
				kind, _ := r.Obj["kind"].(string)
				name, _ := object.Get(r.Obj, "metadata", "name").(string)
				key := kind + "/" + name
				switch r.Action {
				case "pipe-pod":
					continue // becomes a Job by design
				case "delete":
					if seen[key] {
						continue // applied earlier, deleted later: a hook, compared above
					}
					if _, ok := ours[key]; ok {
						t.Errorf("%s: only deleted by the plan, must be absent", key)
					}
					continue
				}
				seen[key] = true
				got, ok := ours[key]
				if !ok {
					t.Errorf("%s (template %s): missing", key, r.Template)
					continue
				}
				assert.Check(t, is.DeepEqual(normalise(r.Obj), got, quantities), "%s (template %s) differs from KUDO-render)", key, r.Template)
			}
			for key := range ours {
				if !seen[key] && !strings.Contains(key, "pipe") {
					t.Errorf("%s: not in KUDO's output", key)
				}
			}
		})
	}
}

func roundTrip(m map[string]any) (map[string]any, error) {
	data, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, yaml.Unmarshal(data, &out)
}

// normalise drops what differs by design (owner references, plan UIDs,
// kudo-render's own annotations, the dependencies hash, creationTimestamp,
// status) and the zero values that typed conversion adds.
func normalise(m map[string]any) map[string]any {
	delete(m, "status")
	md, _ := m["metadata"].(map[string]any)
	delete(md, "ownerReferences")
	if ann, ok := md["annotations"].(map[string]any); ok {
		for k := range ann {
			if k == "kudo.dev/last-plan-execution-uid" || strings.HasPrefix(k, "kudorender.dev/") || strings.HasPrefix(k, "argocd.argoproj.io/") {
				delete(ann, k)
			}
		}
	}
	return dropZero(m).(map[string]any)
}

func dropZero(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			if k == "creationTimestamp" || k == "status" || k == "kudo.dev/dependencies-hash" {
				continue
			}
			x = dropZero(x)
			if isZero(x) {
				continue
			}
			out[k] = x
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = dropZero(x)
		}
		return out
	}
	return v
}

func isZero(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(t) == 0
	case float64:
		return t == 0
	case bool:
		return !t
	case string:
		return t == ""
	}
	return false
}

// quantities compares resource quantities by value ("1024Mi" == "1Gi",
// 0.1 == "100m").
var quantities = cmp.FilterValues(func(a, b any) bool {
	_, errA := quantity(a)
	_, errB := quantity(b)
	return errA == nil && errB == nil && (isString(a) || isString(b))
}, cmp.Comparer(func(a, b any) bool {
	qa, _ := quantity(a)
	qb, _ := quantity(b)
	return qa.Cmp(qb) == 0
}))

func isString(v any) bool { _, ok := v.(string); return ok }

func quantity(v any) (resource.Quantity, error) {
	switch t := v.(type) {
	case string:
		return resource.ParseQuantity(t)
	case float64:
		return resource.ParseQuantity(fmt.Sprint(t))
	}
	return resource.Quantity{}, errors.New("not a quantity")
}
