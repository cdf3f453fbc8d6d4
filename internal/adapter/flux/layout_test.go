package flux_test

import (
	"regexp"
	"strings"
	"testing"

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
	files, err := flux.Layout(items, flux.Options{Name: inst})
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
	files, err := flux.Layout(items, flux.Options{Name: "kafka"})
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
