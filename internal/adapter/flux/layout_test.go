package flux_test

import (
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func item(inst, plan, phase, step string, wave int, name string) engine.Item {
	return nsItem("ns", inst, plan, phase, step, wave, name)
}

func nsItem(ns, inst, plan, phase, step string, wave int, name string) engine.Item {
	return engine.Item{
		Obj:   object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}}),
		Wave:  wave,
		First: engine.StepRef{Namespace: ns, Instance: inst, Plan: plan, Phase: phase, Step: step},
	}
}

func kustomizations(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	var names []string
	for f := range files {
		if strings.HasPrefix(f, "flux/") && f != "flux/kustomization.yaml" {
			names = append(names, strings.TrimSuffix(strings.TrimPrefix(f, "flux/"), ".yaml"))
		}
	}
	return names
}

// TestNamesNeverCollide: with a 50-character instance name, steps whose
// names share a long prefix keep distinct, valid names.
func TestNamesNeverCollide(t *testing.T) {
	inst := strings.Repeat("a", 50)
	items := []engine.Item{
		item(inst, "deploy", "deploy-kafka", "configuration-one", 0, "a"),
		item(inst, "deploy", "deploy-kafka", "configuration-two", 1, "b"),
		item(inst, "deploy", "deploy-kafka", "configuration-three", 2, "c"),
		item(inst, "deploy", "deploy.kafka", "configuration-three", 3, "d"), // sanitises to the same text
	}
	files, err := flux.Layout(items, flux.Options{Name: inst, LeaveNamespace: true})
	if err != nil {
		t.Fatal(err)
	}
	names := kustomizations(t, files)
	if len(names) != 4 {
		t.Fatalf("want 4 Kustomizations, got %v", names)
	}
	folders := map[string]bool{}
	for _, n := range names {
		if len(n) > 63 || !dns1123Label.MatchString(n) {
			t.Errorf("%q is not a valid Kubernetes name", n)
		}
	}
	for f := range files {
		folders[strings.Split(f, "/")[0]] = true
	}
	if len(folders) != 5 { // four steps and flux/
		t.Errorf("folders collide: %v", folders)
	}
}

// TestNamesDoNotChurn: adding a plan renames no Kustomization of the plans
// rendered before (Flux would prune their objects).
func TestNamesDoNotChurn(t *testing.T) {
	deploy := []engine.Item{
		item("kafka", "deploy", "deploy-kafka", "configuration", 0, "a"),
		item("kafka", "deploy", "deploy-kafka", "statefulset", 1, "b"),
	}
	before, err := flux.Layout(deploy, flux.Options{Name: "kafka"})
	if err != nil {
		t.Fatal(err)
	}
	withPlan := append([]engine.Item{item("kafka", "external-access", "resources", "deploy", 0, "c")}, deploy...)
	for i := range withPlan[1:] {
		withPlan[1+i].Wave++ // the new plan shifts the waves
	}
	after, err := flux.Layout(withPlan, flux.Options{Name: "kafka"})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range kustomizations(t, after) {
		have[n] = true
	}
	for _, n := range kustomizations(t, before) {
		if !have[n] {
			t.Errorf("Kustomization %s was renamed when a plan was added", n)
		}
	}
}

// TestKustomizationNameLongInstance: a long instance name is cut before
// the step's part, so the steps stay apart in `flux get kustomizations`
// (not only by their hash); names that fit are not cut.
func TestKustomizationNameLongInstance(t *testing.T) {
	long := "kafka-analytics-eu-west-1-production-tenant-abcdefg"
	seen := map[string]bool{}
	for _, st := range []string{"deploy-kafka-configuration", "deploy-kafka-service", "deploy-kafka-statefulset"} {
		n := flux.KustomizationName(engine.StepRef{Instance: long, Plan: "deploy", Phase: "deploy", Step: st})
		if len(n) > 63 || object.CheckLabel(n) != nil {
			t.Errorf("%q: not a valid name", n)
		}
		readable := n[:len(n)-17]
		if seen[readable] {
			t.Errorf("%q: steps differ only by their hash", n)
		}
		seen[readable] = true
		if !strings.HasPrefix(n, long[:24]) {
			t.Errorf("%q: the instance is cut below 24 characters", n)
		}
	}
	if n := flux.KustomizationName(engine.StepRef{Instance: "zk", Plan: "deploy", Phase: "main", Step: "app"}); !strings.HasPrefix(n, "zk-deploy-main-app-") || len(n) != len("zk-deploy-main-app-")+16 {
		t.Errorf("a short name is cut: %q", n)
	}
}

// TestCraftedNamesStayApart: two steps found offline to share the old
// 32-bit hash (and the same text once cut and replaced) keep two
// Kustomizations in two waves: the hash is 64 bits now.
func TestCraftedNamesStayApart(t *testing.T) {
	items := []engine.Item{
		item("kafka", "deploy", "main", "s_x_x.x.x.x.x_x.x_x_x_x_x_x.x.x_x_x_x", 0, "a"),
		item("kafka", "deploy", "main", "s.x.x.x_x.x_x_x.x_x_x.x_x.x_x_x_x.x_x", 1, "b"),
	}
	files, err := flux.Layout(items, flux.Options{Name: "kafka", LeaveNamespace: true})
	if err != nil {
		t.Fatal(err)
	}
	if names := kustomizations(t, files); len(names) != 2 {
		t.Fatalf("the two waves were merged: %v", names)
	}
}

// TestNamespacesApart: one instance name in two namespaces, published to
// the same Flux namespace, gets other Kustomization names, common/'s
// included.
func TestNamespacesApart(t *testing.T) {
	names := map[string]string{}
	for _, ns := range []string{"team-a", "team-b"} {
		items := []engine.Item{
			{Obj: object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "common"}}), Wave: -1},
			nsItem(ns, "kafka", "deploy", "main", "app", 0, "a"),
		}
		files, err := flux.Layout(items, flux.Options{Name: "kafka", InstanceNamespace: ns})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range kustomizations(t, files) {
			if other, ok := names[n]; ok {
				t.Errorf("%s and %s share the Kustomization %s", other, ns, n)
			}
			names[n] = ns
		}
	}
	if len(names) != 4 {
		t.Errorf("want 4 Kustomizations, got %v", names)
	}
}

// fluxKustomization reads a Kustomization file of a layout.
func fluxKustomization(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	assert.NilError(t, yaml.Unmarshal(data, &m))
	return m
}

// TestNamespaceFirst: the instance's namespace is created before any step
// applies (Flux's first apply failed: namespaces "data" not found), by
// common/, which every step of the first wave depends on; Flux creates it
// only when it is missing and never prunes it. It is left out on request
// and when the render holds it (issue 33).
func TestNamespaceFirst(t *testing.T) {
	steps := []engine.Item{nsItem("data", "zk", "deploy", "main", "a", 0, "a"), nsItem("data", "zk", "deploy", "main", "b", 0, "b"),
		nsItem("data", "zk", "deploy", "main", "c", 1, "c")}
	files, err := flux.Layout(steps, flux.Options{Name: "zk", InstanceNamespace: "data"})
	assert.NilError(t, err)
	assert.Equal(t, string(files["common/namespace_data.yaml"]), "apiVersion: v1\nkind: Namespace\nmetadata:\n  annotations:\n    kustomize.toolkit.fluxcd.io/prune: disabled\n    kustomize.toolkit.fluxcd.io/ssa: IfNotPresent\n  name: data\n")
	common := ""
	for _, n := range kustomizations(t, files) {
		if strings.HasPrefix(n, "zk-common-") {
			common = n
		}
	}
	assert.Assert(t, common != "", "no Kustomization applies common/: %v", kustomizations(t, files))
	for _, st := range []string{"a", "b"} {
		k := fluxKustomization(t, files["flux/"+flux.KustomizationName(engine.StepRef{Namespace: "data", Instance: "zk", Plan: "deploy", Phase: "main", Step: st})+".yaml"])
		spec := k["spec"].(map[string]any)
		assert.DeepEqual(t, spec["dependsOn"], []any{map[string]any{"name": common}})
	}

	cases := map[string]struct {
		reason string
		items  []engine.Item
		opts   flux.Options
	}{
		"Leave": {reason: "LeaveNamespace leaves it to someone else.", items: steps, opts: flux.Options{Name: "zk", InstanceNamespace: "data", LeaveNamespace: true}},
		"Held": {reason: "A render that holds the Namespace keeps its own.", opts: flux.Options{Name: "zk", InstanceNamespace: "data"},
			items: append([]engine.Item{{Obj: object.New(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "data", "labels": map[string]any{"team": "x"}}}), First: steps[0].First}}, steps...)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			files, err := flux.Layout(tc.items, tc.opts)
			assert.NilError(t, err)
			n := 0
			for f, data := range files {
				if strings.Contains(string(data), "kind: Namespace\n") {
					n++
					assert.Check(t, !strings.Contains(string(data), "IfNotPresent"), "%s: %s is the layout's", tc.reason, f)
				}
			}
			assert.Check(t, n == len(tc.items)-len(steps), "%s: %d Namespaces", tc.reason, n)
		})
	}
}

// TestTiming: every Kustomization sets how often it reconciles, how soon
// a failed step is tried again and how long a step may take (a failed step
// waited 10 minutes, health checks 9m30s), by default and as configured.
func TestTiming(t *testing.T) {
	steps := []engine.Item{nsItem("data", "zk", "deploy", "main", "a", 0, "a"), nsItem("data", "zk", "deploy", "main", "b", 1, "b")}
	for _, tc := range []struct {
		opts flux.Options
		want map[string]any
	}{
		{flux.Options{Name: "zk", InstanceNamespace: "data"}, map[string]any{"interval": "10m", "retryInterval": "1m", "timeout": "5m"}},
		{flux.Options{Name: "zk", InstanceNamespace: "data", Interval: "1h", RetryInterval: "30s", Timeout: "20m"}, map[string]any{"interval": "1h", "retryInterval": "30s", "timeout": "20m"}},
	} {
		files, err := flux.Layout(steps, tc.opts)
		assert.NilError(t, err)
		names := kustomizations(t, files)
		assert.Equal(t, len(names), 3)
		for _, n := range names {
			spec := fluxKustomization(t, files["flux/"+n+".yaml"])["spec"].(map[string]any)
			for k, v := range tc.want {
				assert.Check(t, is.Equal(spec[k], v), "%s: spec.%s", n, k)
			}
			assert.Check(t, is.Equal(spec["wait"], true), n)
		}
	}
}

// TestWarningsOnKustomization: a step's Kustomization carries the warnings
// of its objects, each once with the objects it is on, where `kubectl
// describe kustomization` shows them; one without any carries none.
func TestWarningsOnKustomization(t *testing.T) {
	warned := func(name string, lines ...string) engine.Item {
		it := nsItem("data", "zk", "deploy", "main", "a", 0, name)
		it.Obj.Map["metadata"].(map[string]any)["namespace"] = "data"
		if len(lines) > 0 {
			it.Obj.Map["metadata"].(map[string]any)["annotations"] = map[string]any{engine.AnnWarnings: strings.Join(lines, "\n") + "\n"}
		}
		return it
	}
	items := []engine.Item{
		warned("a", "templates/pdb.yaml:1: converted", "params.yaml:3: typo"),
		warned("b", "params.yaml:3: typo"),
		warned("c", "params.yaml:3: typo"), warned("d", "params.yaml:3: typo"), warned("e", "params.yaml:3: typo"),
		nsItem("data", "zk", "deploy", "main", "quiet", 1, "f"),
	}
	files, err := flux.Layout(items, flux.Options{Name: "zk", InstanceNamespace: "data"})
	assert.NilError(t, err)
	ann := func(st string) map[string]any {
		md := fluxKustomization(t, files["flux/"+flux.KustomizationName(engine.StepRef{Namespace: "data", Instance: "zk", Plan: "deploy", Phase: "main", Step: st})+".yaml"])["metadata"].(map[string]any)
		a, _ := md["annotations"].(map[string]any)
		return a
	}
	assert.DeepEqual(t, ann("a"), map[string]any{engine.AnnWarnings: "ConfigMap data/a: templates/pdb.yaml:1: converted\n" +
		"ConfigMap data/a, ConfigMap data/b, ConfigMap data/c and 2 more: params.yaml:3: typo\n"})
	assert.Check(t, ann("quiet") == nil, "a step without warnings: %v", ann("quiet"))
}
