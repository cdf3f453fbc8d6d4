package daytwo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/cmd"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// controllers run beside the garbage collector: a StatefulSet's claims
// are created, and claims are bound to volumes, as on a cluster.
var controllers = []string{"statefulset-controller", "persistentvolume-binder-controller"}

// tool is how a render reaches the cluster: Argo CD (client-side apply,
// its default; or the Application's ServerSideApply=true) or Flux.
type tool struct {
	name    string // in namespaces and instance names
	target  string // kudo-render's --target
	argoSSA bool
}

var tools = []tool{{"argo", "argocd", false}, {"ssa", "argocd", true}, {"flux", "flux", false}}

// day2Case is a package rendered on day one, then with other parameters.
type day2Case struct {
	name       string
	day1, day2 []string // render arguments: a package folder or config, -p KEY=VALUE
	changed    string   // what changed, in words
	// refused are the objects ("Kind name", {inst} the instance's name)
	// whose update the API server refuses and nothing recreates: the test
	// follows diff's advice.
	refused []string
}

func cases(t *testing.T) []day2Case {
	ops := testcorpus.Operators(t)
	op := func(name string, day1, day2 []string, changed string, refused ...string) day2Case {
		return day2Case{name: name, day1: append([]string{ops[strings.Split(name, "-disk")[0]]}, day1...), day2: append([]string{ops[strings.Split(name, "-disk")[0]]}, day2...), changed: changed, refused: refused}
	}
	ex := func(name, cfg string, day1, day2 []string, changed string, refused ...string) day2Case {
		cfg = filepath.Join("../../../examples", cfg)
		return day2Case{name: "ex-" + name, day1: append([]string{cfg}, day1...), day2: append([]string{cfg}, day2...), changed: changed, refused: refused}
	}
	p := func(kv ...string) []string {
		var out []string
		for _, s := range kv {
			out = append(out, "-p", s)
		}
		return out
	}
	// Packages the corpus may hold besides those above (kudobuilder/operators
	// has 13): their cases run when it does.
	var more []day2Case
	for _, c := range []struct {
		pkg, changed string
		day2         []string
		refused      []string
	}{
		{"cassandra", "NODE_COUNT 3→4, NODE_MEM_MIB 4096→6144", p("NODE_COUNT=4", "NODE_MEM_MIB=6144", "NODE_MEM_LIMIT_MIB=6144"), nil},
		{"confluent-schema-registry", "NODE_COUNT 1→2, MEMORY 256Mi→512Mi", p("NODE_COUNT=2", "MEMORY=512Mi"), nil},
		{"flink", "flink_taskmanager_replicas 2→3", p("flink_taskmanager_replicas=3"), nil},
		{"rabbitmq", "NODE_COUNT 3→4, MEMORY 512Mi→768Mi", p("NODE_COUNT=4", "MEMORY=768Mi"), nil},
		// operatorVersion is in the operator Deployment's selector: the
		// server refuses the update, diff says so (exit 3) and how.
		{"spark", "replicas 1→2, operatorVersion (the webhook's init Job's image, the Deployment's selector)", p("replicas=2", "operatorVersion=3.0.0-1.1.1"), []string{"Deployment {inst}"}},
	} {
		if _, ok := ops[c.pkg]; ok {
			more = append(more, op(c.pkg, nil, c.day2, c.changed, c.refused...))
		}
	}
	return append([]day2Case{
		op("confluent-rest-proxy", nil, p("NODE_COUNT=2", "MEMORY=512Mi"), "NODE_COUNT 1→2, MEMORY 256Mi→512Mi"),
		op("cowsay", nil, p("replicas=2"), "replicas 1→2"),
		op("elastic", nil, p("DATA_NODE_COUNT=3", "DATA_MEM=3Gi"), "DATA_NODE_COUNT 2→3, DATA_MEM 2Gi→3Gi"),
		op("elastic-disk", nil, p("DATA_DISK=8Gi"), "DATA_DISK 4Gi→8Gi", "StatefulSet {inst}-data"),
		op("first-operator", nil, p("replicas=3"), "replicas 2→3"),
		op("kafka", nil, p("BROKER_COUNT=4", "BROKER_MEM=3072Mi"), "BROKER_COUNT 3→4, BROKER_MEM 2048Mi→3072Mi"),
		op("kafka-disk", nil, p("DISK_SIZE=10Gi"), "DISK_SIZE 5Gi→10Gi", "StatefulSet {inst}-kafka"),
		op("mysql", nil, p("PASSWORD=changed", "STORAGE=2Gi"), "PASSWORD, STORAGE 1Gi→2Gi (a claim grows)"),
		op("redis", nil, p("masters=4"), "masters 3→4 (StatefulSet replicas 6→8, the init Job's command)"),
		op("zookeeper", nil, p("NODE_COUNT=5", "MEMORY=2048Mi"), "NODE_COUNT 3→5, MEMORY 1024Mi→2048Mi"),
		op("zookeeper-disk", nil, p("DISK_SIZE=10Gi"), "DISK_SIZE 5Gi→10Gi", "StatefulSet {inst}-zookeeper"),
		ex("argocd", "argocd/kudo-render.yaml", nil, p("replicas=3"), "replicas 2→3"),
		ex("definitions", "definitions/render.yaml", nil, p("bootstrapServers=kafka-0.kafka:9093"), "bootstrapServers (every topic Job's command)"),
		ex("dependencies", "dependencies/render.yaml", nil, p("WEB_REPLICAS=3"), "WEB_REPLICAS 2→3"),
		ex("kube-version", "kube-version/render.yaml", nil, p("REPLICAS=5", "MEMORY=1Gi"), "REPLICAS 4→5, MEMORY 512Mi→1Gi"),
		ex("mysql", "mysql/render.yaml", nil, p("storage=10Gi"), "storage 5Gi→10Gi (a claim grows)"),
		ex("references", "references/render.yaml", nil, p("port=8081"), "port 8080→8081"),
		ex("toggle", "toggle/render.yaml", nil, p("REPLICAS=4", "DEBUG_TOOLS_ENABLED=true"), "REPLICAS 3→4, a Toggle on"),
		ex("toggle-off", "toggle/render.yaml", nil, p("METRICS_ENABLED=false"), "a Toggle off (its Service and ServiceMonitor pruned)"),
		ex("day2", "day2/render.yaml", nil, p("NODES=4", "MEMORY=512Mi"), "NODES 3→4 (the cluster Job's command), MEMORY 256Mi→512Mi"),
		ex("day2-disk", "day2/render.yaml", nil, p("DISK=2Gi"), "DISK 1Gi→2Gi", "StatefulSet {inst}"),
		{name: "ex-review", day1: []string{"../../../examples/review/v1/render.yaml"}, day2: []string{"../../../examples/review/v2/render.yaml"}, changed: "v1 → v2 of the package"},
	}, more...)
}

// TestDayTwo: every package of the corpus and the examples rendered,
// applied the way Argo CD (client-side apply, and server-side apply) and
// Flux apply, then rendered with other parameters and applied twice:
// diff says beforehand which updates the API server refuses and which
// objects the tool recreates; the sync does exactly that; following
// diff's advice for what it refuses converges; the second apply changes
// nothing; every object is what the render says; objects the change did
// not touch are not touched; no claim is lost.
func TestDayTwo(t *testing.T) {
	// The definitions first: the garbage collector watches what is
	// served when it starts (Argo CD prunes in the foreground).
	setupStorage(t, kubetest.Start(t))
	srv := kubetest.StartWithControllers(t, controllers...)
	var rows []string
	t0 := time.Now()
	for _, c := range cases(t) {
		for _, tl := range tools {
			t.Run(c.name+"/"+tl.name, func(t *testing.T) {
				rows = append(rows, runCase(t, srv, c, tl))
			})
		}
	}
	t.Logf("%d days two in %v:\n| package | tool | changed | diff | syncs | result |\n|---|---|---|---|---|---|\n%s",
		len(rows), time.Since(t0).Round(time.Second), strings.Join(rows, "\n"))
}

// runCase runs one package's day two with one tool and returns its row
// of the report.
func runCase(t *testing.T, srv *kubetest.Server, c day2Case, tl tool) string {
	ctx := t.Context()
	ns := "d2-" + c.name + "-" + tl.name
	app := newApp(t, srv, tl, ns)
	day1 := app.render(t, c.day1)
	if res, err := app.apply(ctx, day1); err != nil {
		t.Fatalf("day one: %v\n%s", err, outcomes(res))
	}
	waitClaims(t, srv, ns, day1)
	before := snapshot(t, srv, ns, day1)
	verdict := runDiff(t, c, tl, ns)
	day2 := app.render(t, c.day2)
	syncs, refused := applyUntilConverged(t, srv, app, day2, verdict)
	mid := snapshot(t, srv, ns, day2)
	if res, err := app.apply(ctx, day2); err != nil { // applied twice
		t.Fatalf("second apply: %v\n%s", err, outcomes(res))
	}
	after := snapshot(t, srv, ns, day2)
	assertSame(t, "the second apply changed", mid, after, day2.persistent())
	assertConverged(t, srv, day2)
	assertPruned(t, srv, day1, day2)
	untouched := assertUntouched(t, before, after, day1, day2)
	recreated := assertRecreated(t, before, after, day2, verdict)
	claims := assertClaimsKept(t, before, after)
	slices.Sort(refused)
	var want []string
	for _, r := range c.refused {
		want = append(want, strings.ReplaceAll(r, "{inst}", tl.name))
	}
	if slices.Sort(want); !slices.Equal(refused, want) {
		t.Errorf("refused %q, want %q", refused, want)
	}
	return fmt.Sprintf("| %s | %s | %s | exit %d%s | %d | %s |", c.name, tl.name, c.changed, verdict.exit, verdict.words(),
		syncs+1, result(len(day2.persistent()), untouched, recreated, refused, claims))
}

func result(objects, untouched int, recreated, refused []string, claims int) string {
	s := fmt.Sprintf("converged: %d objects, %d untouched", objects, untouched)
	if len(recreated) > 0 {
		s += ", recreated " + strings.Join(recreated, ", ")
	}
	if len(refused) > 0 {
		s += ", refused then done by diff's advice: " + strings.Join(refused, ", ")
	}
	return s + fmt.Sprintf(", %d claims kept", claims)
}

// applyUntilConverged applies the day-two render; each update the API
// server refuses must be one diff named, and is done as diff's advice
// says before the next sync. It returns the number of syncs that failed
// and the objects refused.
func applyUntilConverged(t *testing.T, srv *kubetest.Server, app *app, r *rendered, verdict diffVerdict) (int, []string) {
	var refused []string
	for i := 0; ; i++ {
		res, err := app.apply(t.Context(), r)
		if err == nil {
			return i, refused
		}
		if i == 3 {
			t.Fatalf("still refused after %d syncs: %v\n%s", i+1, err, outcomes(res))
		}
		for _, o := range res {
			if o.action != "refused" {
				continue
			}
			key := shortKey(o.key)
			if !verdict.fails[key] {
				t.Fatalf("the sync refuses %s, which diff did not say: %v", o.key, o.err)
			}
			refused = append(refused, key)
			followAdvice(t, srv, r.object(key))
		}
		if len(refused) == 0 {
			t.Fatalf("the sync failed, on nothing diff named: %v\n%s", err, outcomes(res))
		}
	}
}

// followAdvice does what diff's advice says for a workload: delete it
// without its pods; for a StatefulSet, grow its claims to its templates'
// sizes too. (The test's cluster runs no deployment controller, so a
// Deployment leaves no old ReplicaSet to delete.)
func followAdvice(t *testing.T, srv *kubetest.Server, o *unstructured.Unstructured) {
	if o == nil || !slices.Contains([]string{"StatefulSet", "Deployment", "DaemonSet"}, o.GetKind()) {
		t.Fatalf("the test knows no advice to follow for %s", keyOfOrNil(o))
	}
	ctx := t.Context()
	ri, _, err := srv.ResourceOf(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	orphan := metav1.DeletePropagationOrphan
	if err := ri.Delete(ctx, o.GetName(), metav1.DeleteOptions{PropagationPolicy: &orphan}); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ri.Get, o.GetName())
	if o.GetKind() != "StatefulSet" {
		return
	}
	replicas, _, _ := unstructured.NestedInt64(o.Object, "spec", "replicas")
	templates, _, _ := unstructured.NestedSlice(o.Object, "spec", "volumeClaimTemplates")
	claims := srv.Dynamic().Resource(schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}).Namespace(o.GetNamespace())
	for _, tmpl := range templates {
		tm := tmpl.(map[string]any)
		size, _, _ := unstructured.NestedString(tm, "spec", "resources", "requests", "storage")
		for i := range replicas {
			name := fmt.Sprintf("%s-%s-%d", tm["metadata"].(map[string]any)["name"], o.GetName(), i)
			patch := fmt.Sprintf(`{"spec":{"resources":{"requests":{"storage":%q}}}}`, size)
			_, err := claims.Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
			if err != nil && !apierrors.IsNotFound(err) { // a claim of a pod never created
				t.Fatalf("growing claim %s: %v", name, err)
			}
		}
	}
}

// diffVerdict is what kudo-render diff says of the change.
type diffVerdict struct {
	exit int
	// fails and recreated are the objects whose update the API server
	// refuses, that nothing recreates and that the tool recreates ("Kind
	// name").
	fails, recreated map[string]bool
}

func (v diffVerdict) words() string {
	var parts []string
	if len(v.recreated) > 0 {
		parts = append(parts, "recreates "+strings.Join(slices.Sorted(maps.Keys(v.recreated)), ", "))
	}
	if len(v.fails) > 0 {
		parts = append(parts, "refuses "+strings.Join(slices.Sorted(maps.Keys(v.fails)), ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, "; ")
}

// runDiff runs kudo-render diff between the two renders, for the tool's
// target, as JSON.
func runDiff(t *testing.T, c day2Case, tl tool, ns string) diffVerdict {
	args := []string{"diff", c.day1[0]}
	if c.day2[0] != c.day1[0] {
		args = append(args, c.day2[0])
	}
	side := func(flag string, rest []string) {
		for i := 0; i+1 < len(rest); i += 2 {
			args = append(args, flag, rest[i+1])
		}
	}
	side("--from-param", c.day1[1:])
	side("--to-param", c.day2[1:])
	args = append(args, "--name", tl.name, "--namespace", ns, "--target", tl.target, "-o", "json")
	var out, errb bytes.Buffer
	k := cmd.New(strings.NewReader(""), &out, &errb)
	k.SetArgs(args)
	v := diffVerdict{fails: map[string]bool{}, recreated: map[string]bool{}}
	var exit *cmd.ExitError
	if err := k.Execute(); errors.As(err, &exit) {
		v.exit = exit.Code
	} else if err != nil {
		t.Fatalf("kudo-render %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	if v.exit == 2 {
		t.Fatalf("kudo-render %s: exit 2\n%s", strings.Join(args, " "), errb.String())
	}
	var rep struct {
		Objects []struct {
			Kind, Name string
			Update     *struct{ RecreatedBy string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("diff's JSON: %v\n%s", err, out.String())
	}
	for _, o := range rep.Objects {
		switch {
		case o.Update == nil:
		case o.Update.RecreatedBy != "":
			v.recreated[o.Kind+" "+o.Name] = true
		default:
			v.fails[o.Kind+" "+o.Name] = true
		}
	}
	if want := map[bool]int{true: 3, false: 1}[len(v.fails) > 0]; v.exit != want {
		t.Errorf("diff exits %d, want %d", v.exit, want)
	}
	return v
}

// app renders and applies one package with one tool into namespace ns.
type app struct {
	tl   tool
	ns   string
	argo *argoCD
	flux *flux
	dir  string // the Flux output folder
}

func newApp(t *testing.T, srv *kubetest.Server, tl tool, ns string) *app {
	a := &app{tl: tl, ns: ns}
	if tl.target == "flux" {
		f, err := newFlux(srv)
		if err != nil {
			t.Fatal(err)
		}
		a.flux, a.dir = f, filepath.Join(t.TempDir(), "out")
		// The namespace the objects go to: Flux applies them, it does not
		// make their namespace.
		if _, _, err := srv.ResourceOf(t.Context(), &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x", "namespace": ns}}}); err != nil {
			t.Fatal(err)
		}
	} else {
		a.argo = &argoCD{srv: srv, ssa: tl.argoSSA}
	}
	return a
}

// rendered is one render's objects.
type rendered struct {
	objs []*unstructured.Unstructured
}

func (r *rendered) object(key string) *unstructured.Unstructured {
	for _, o := range r.objs {
		if o.GetKind()+" "+o.GetName() == key {
			return o
		}
	}
	return nil
}

// persistent are the objects that stay applied: not Argo CD's hooks.
func (r *rendered) persistent() []*unstructured.Unstructured {
	return slices.DeleteFunc(slices.Clone(r.objs), isHook)
}

// render renders args (a package or config and its parameters) for the
// app's tool, as the CLI does.
func (a *app) render(t *testing.T, args []string) *rendered {
	full := append([]string{"render"}, args...)
	full = append(full, "--name", a.tl.name, "--namespace", a.ns, "--target", a.tl.target)
	if a.flux != nil {
		full = append(full, "--output-dir", a.dir)
	}
	var out, errb bytes.Buffer
	k := cmd.New(strings.NewReader(""), &out, &errb)
	k.SetArgs(full)
	if err := k.Execute(); err != nil {
		t.Fatalf("kudo-render %s: %v\n%s", strings.Join(full, " "), err, errb.String())
	}
	if a.flux == nil {
		return &rendered{objs: decodeStream(t, out.Bytes())}
	}
	kss, err := kustomizations(a.dir)
	if err != nil {
		t.Fatal(err)
	}
	r := &rendered{}
	for _, ks := range kss {
		objs, err := build(filepath.Join(a.dir, ks.Spec.Path), ks.Spec.TargetNamespace)
		if err != nil {
			t.Fatal(err)
		}
		r.objs = append(r.objs, objs...)
	}
	return r
}

func (a *app) apply(ctx context.Context, r *rendered) ([]outcome, error) {
	if a.flux != nil {
		return a.flux.reconcile(ctx, a.dir)
	}
	return a.argo.sync(ctx, r.objs)
}

// decodeStream reads the objects of a YAML stream as a client does
// (numbers as int64 or float64).
func decodeStream(t *testing.T, stream []byte) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		body, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		if t := bytes.TrimSpace(body); len(t) == 0 || string(t) == "null" {
			continue
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(body); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
}

func outcomes(res []outcome) string {
	var b strings.Builder
	for _, o := range res {
		fmt.Fprintf(&b, "  %s: %s", o.key, o.action)
		if o.err != nil {
			fmt.Fprintf(&b, ": %v", o.err)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// shortKey is "Kind name" of "Kind namespace/name".
func shortKey(key string) string {
	kind, rest, _ := strings.Cut(key, " ")
	_, name, _ := strings.Cut(rest, "/")
	return kind + " " + name
}

// state is what a snapshot keeps of a live object.
type state struct {
	uid string
	// written is the object as its writers (not its status's) left it,
	// for kinds without a generation.
	written    string
	generation int64
	storage    string // a claim's requested size
}

// snapshot reads the live state of the render's objects and of every
// claim in the namespace.
func snapshot(t *testing.T, srv *kubetest.Server, ns string, r *rendered) map[string]state {
	ctx := t.Context()
	out := map[string]state{}
	for _, o := range r.objs {
		ri, _, err := srv.ResourceOf(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		live, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue // a hook Argo CD deleted
		} else if err != nil {
			t.Fatal(err)
		}
		out[keyOf(o)] = stateOf(live)
	}
	claims, err := srv.Dynamic().Resource(schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range claims.Items {
		out["claim "+claims.Items[i].GetName()] = stateOf(&claims.Items[i])
	}
	return out
}

func stateOf(u *unstructured.Unstructured) state {
	size, _, _ := unstructured.NestedString(u.Object, "spec", "resources", "requests", "storage")
	return state{uid: string(u.GetUID()), written: writtenPart(u), generation: u.GetGeneration(), storage: size}
}

// writtenPart is u without what status writes change: its status, its
// resource version, and the managed fields of the status subresource.
// A controller's status write (a claim's Unused condition, set when a pod
// starts using it) is not the tool's write; any write of the object
// itself changes its own managed fields' time or the object.
func writtenPart(u *unstructured.Unstructured) string {
	c := u.DeepCopy()
	delete(c.Object, "status")
	c.SetResourceVersion("")
	var kept []metav1.ManagedFieldsEntry
	for _, m := range c.GetManagedFields() {
		if m.Subresource != "status" {
			kept = append(kept, m)
		}
	}
	c.SetManagedFields(kept)
	data, err := json.Marshal(c.Object)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// changedSince reports whether an object was written between two states:
// its generation (which controllers' status writes leave) or, for kinds
// without one, the object outside its status changed, or it was
// recreated.
func changedSince(a, b state) bool {
	if a.uid != b.uid {
		return true
	}
	if a.generation > 0 || b.generation > 0 {
		return a.generation != b.generation
	}
	return a.written != b.written
}

// assertSame fails for every object of objs written between a and b.
func assertSame(t *testing.T, what string, a, b map[string]state, objs []*unstructured.Unstructured) {
	t.Helper()
	for _, o := range objs {
		k := keyOf(o)
		if changedSince(a[k], b[k]) {
			t.Errorf("%s %s", what, k)
		}
	}
}

// assertConverged: applying the render again, as a dry run by another
// field manager, changes nothing in any object: the cluster holds what
// the render says.
func assertConverged(t *testing.T, srv *kubetest.Server, r *rendered) {
	ctx := t.Context()
	for _, o := range r.persistent() {
		ri, _, err := srv.ResourceOf(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		live, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s: %v", keyOf(o), err)
			continue
		}
		if o.GetAnnotations()["kustomize.toolkit.fluxcd.io/ssa"] == "IfNotPresent" {
			continue // Flux creates it when missing and never updates it (the namespace)
		}
		body, _ := o.MarshalJSON()
		force := true
		dry, err := ri.Patch(ctx, o.GetName(), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "day2-check", Force: &force, DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Errorf("%s: %v", keyOf(o), err)
			continue
		}
		if !reflect.DeepEqual(comparable(live), comparable(dry)) {
			a, _ := yaml.Marshal(comparable(live))
			b, _ := yaml.Marshal(comparable(dry))
			t.Errorf("%s differs from its render:\nlive:\n%s\nrendered:\n%s", keyOf(o), a, b)
		}
	}
}

// assertPruned: what day one applied and day two no longer renders is
// gone.
func assertPruned(t *testing.T, srv *kubetest.Server, day1, day2 *rendered) {
	for _, o := range day1.persistent() {
		if day2.objectAt(keyOf(o)) != nil {
			continue
		}
		ri, _, err := srv.ResourceOf(t.Context(), o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ri.Get(t.Context(), o.GetName(), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("%s is no longer rendered but still there (%v)", keyOf(o), err)
		}
	}
}

// comparable is an object without what applying it again may rewrite by
// itself: managed fields, resource version, generation, status.
func comparable(u *unstructured.Unstructured) map[string]any {
	c := u.DeepCopy().Object
	delete(c, "status")
	md := c["metadata"].(map[string]any)
	for _, k := range []string{"managedFields", "resourceVersion", "generation"} {
		delete(md, k)
	}
	return c
}

// assertUntouched: objects the change left as they were rendered are not
// written by the day-two syncs. It returns how many there are.
func assertUntouched(t *testing.T, before, after map[string]state, day1, day2 *rendered) int {
	n := 0
	for _, o := range day2.persistent() {
		prev := day1.objectAt(keyOf(o))
		if prev == nil || !reflect.DeepEqual(prev.Object, o.Object) {
			continue
		}
		n++
		if changedSince(before[keyOf(o)], after[keyOf(o)]) {
			t.Errorf("%s is rendered unchanged but was written", keyOf(o))
		}
	}
	return n
}

func (r *rendered) objectAt(key string) *unstructured.Unstructured {
	for _, o := range r.objs {
		if keyOf(o) == key {
			return o
		}
	}
	return nil
}

// assertRecreated: the objects recreated are exactly those diff said the
// tool recreates; every other object keeps its UID. It returns them.
func assertRecreated(t *testing.T, before, after map[string]state, day2 *rendered, verdict diffVerdict) []string {
	var recreated []string
	for _, o := range day2.persistent() {
		k := keyOf(o)
		b, ok := before[k]
		if !ok {
			continue // new on day two
		}
		if b.uid != after[k].uid {
			recreated = append(recreated, shortKey(k))
		}
	}
	slices.Sort(recreated)
	// The tool recreates what diff said; the StatefulSets it refused were
	// deleted by hand, as diff's advice says.
	want := slices.Sorted(maps.Keys(verdict.recreated))
	want = slices.Sorted(slices.Values(append(want, slices.Collect(maps.Keys(verdict.fails))...)))
	if !slices.Equal(recreated, want) {
		t.Errorf("recreated %q; diff said %q", recreated, want)
	}
	return recreated
}

// assertClaimsKept: every claim of day one is still there, the same
// claim, and none shrank. It returns how many there are.
func assertClaimsKept(t *testing.T, before, after map[string]state) int {
	n := 0
	for k, b := range before {
		if !strings.HasPrefix(k, "claim ") {
			continue
		}
		n++
		a, ok := after[k]
		switch {
		case !ok:
			t.Errorf("%s is gone", k)
		case a.uid != b.uid:
			t.Errorf("%s was recreated", k)
		}
	}
	return n
}

// setupStorage makes claims bind as on a cluster: a default StorageClass
// that allows volume expansion and volumes of it for every claim; and
// defines the kinds the examples use that Kubernetes does not serve.
func setupStorage(t *testing.T, srv *kubetest.Server) {
	sc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
		"metadata":    map[string]any{"name": "standard", "annotations": map[string]any{"storageclass.kubernetes.io/is-default-class": "true"}},
		"provisioner": "kubernetes.io/no-provisioner", "allowVolumeExpansion": true, "volumeBindingMode": "Immediate",
	}}
	create(t, srv, sc)
	// the Prometheus operator's ServiceMonitor, which examples/dependencies
	// renders, with no schema
	create(t, srv, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "servicemonitors.monitoring.coreos.com"},
		"spec": map[string]any{
			"group": "monitoring.coreos.com", "scope": "Namespaced",
			"names": map[string]any{"kind": "ServiceMonitor", "plural": "servicemonitors", "singular": "servicemonitor", "listKind": "ServiceMonitorList"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
		},
	}})
	for i := range 200 {
		create(t, srv, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "PersistentVolume", "metadata": map[string]any{"name": fmt.Sprintf("pv-%03d", i)},
			"spec": map[string]any{
				"capacity": map[string]any{"storage": "100Gi"}, "accessModes": []any{"ReadWriteOnce"},
				"storageClassName": "standard", "hostPath": map[string]any{"path": fmt.Sprintf("/tmp/pv-%03d", i)},
			},
		}})
	}
}

func create(t *testing.T, srv *kubetest.Server, o *unstructured.Unstructured) {
	ri, _, err := srv.ResourceOf(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Create(t.Context(), o, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// waitClaims waits until the namespace holds the claims the render makes
// (its own, and those the StatefulSet controller makes for the pods it
// starts: all of them with the Parallel policy, the first pod's
// otherwise, since no pod becomes ready) and all are bound.
func waitClaims(t *testing.T, srv *kubetest.Server, ns string, r *rendered) {
	want := 0
	for _, o := range r.persistent() {
		switch o.GetKind() {
		case "PersistentVolumeClaim":
			want++
		case "StatefulSet":
			templates, _, _ := unstructured.NestedSlice(o.Object, "spec", "volumeClaimTemplates")
			pods, ok, _ := unstructured.NestedInt64(o.Object, "spec", "replicas")
			if !ok {
				pods = 1
			}
			if policy, _, _ := unstructured.NestedString(o.Object, "spec", "podManagementPolicy"); policy != "Parallel" {
				pods = min(pods, 1)
			}
			want += len(templates) * int(pods)
		}
	}
	claims := srv.Dynamic().Resource(schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}).Namespace(ns)
	for range 600 {
		l, err := claims.List(t.Context(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bound := 0
		for _, c := range l.Items {
			if phase, _, _ := unstructured.NestedString(c.Object, "status", "phase"); phase == "Bound" {
				bound++
			}
		}
		if bound >= want {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: fewer than %d claims bound after a minute", ns, want)
}

func waitGone(t *testing.T, get func(context.Context, string, metav1.GetOptions, ...string) (*unstructured.Unstructured, error), name string) {
	for range 300 {
		if _, err := get(t.Context(), name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s is not deleted after 30 s", name)
}

func keyOfOrNil(o *unstructured.Unstructured) string {
	if o == nil {
		return "an object not in the render"
	}
	return keyOf(o)
}
