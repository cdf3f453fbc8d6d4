package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestFluxLayout renders the mysql example for Flux and builds every
// folder with kustomize, as Flux's kustomize-controller would; the Flux
// Kustomizations chain the plan's waves with dependsOn.
func TestFluxLayout(t *testing.T) {
	kz := tool(t, "kustomize")
	out := filepath.Join(t.TempDir(), "out")
	if _, errs, err := run(t, "../../..", nil, binary, "render", "examples/mysql/render.yaml", "--target", "flux", "--output-dir", out); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	folders, _ := filepath.Glob(filepath.Join(out, "*", "kustomization.yaml"))
	if len(folders) < 4 {
		t.Fatalf("want common/, two step folders and flux/, got %v", folders)
	}
	deps := map[string][]string{}
	for _, k := range folders {
		dir := filepath.Dir(k)
		built, errs, err := run(t, dir, nil, kz, "build", ".")
		if err != nil {
			t.Fatalf("kustomize build %s: %v\n%s", dir, err, errs)
		}
		if filepath.Base(dir) != "flux" {
			if strings.Contains(built, "argocd.argoproj.io/") {
				t.Errorf("%s: Argo CD annotations in Flux output", dir)
			}
			continue
		}
		for _, doc := range strings.Split(built, "\n---\n") {
			k := strictKustomization(t, doc)
			if !k.Spec.Wait {
				t.Errorf("%s: wait is not true", k.Name)
			}
			for _, d := range k.Spec.DependsOn {
				deps[k.Name] = append(deps[k.Name], d.Name)
			}
		}
	}
	deployStep := flux.KustomizationName(engine.StepRef{Namespace: "shop", Instance: "shop-db", Plan: "deploy", Phase: "deploy", Step: "deploy"})
	want := map[string]string{
		deployStep: "shop-db-common-",
		flux.KustomizationName(engine.StepRef{Namespace: "shop", Instance: "shop-db", Plan: "deploy", Phase: "deploy", Step: "init"}): deployStep,
	}
	for k, d := range want {
		if len(deps[k]) != 1 || !strings.HasPrefix(deps[k][0], d) {
			t.Errorf("%s depends on %v, want %s", k, deps[k], d)
		}
	}
	jobs, _ := filepath.Glob(filepath.Join(out, "01-deploy-deploy-init-*", "job_shop-db-deploy-job.yaml"))
	if len(jobs) != 1 {
		t.Fatalf("the init step's folder: %v", jobs)
	}
	job, err := os.ReadFile(jobs[0])
	if err != nil || !strings.Contains(string(job), "kustomize.toolkit.fluxcd.io/force: enabled") {
		t.Errorf("run-once Job without Flux's force annotation: %v", err)
	}
}

// strictKustomization decodes a Flux Kustomization strictly with Flux's
// own API type, as the API server would with strict field validation.
func strictKustomization(t *testing.T, doc string) *kustomizev1.Kustomization {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var k kustomizev1.Kustomization
	strict, err := sigsjson.UnmarshalStrict(data, &k, sigsjson.DisallowUnknownFields, sigsjson.DisallowDuplicateFields)
	if err != nil || len(strict) > 0 {
		t.Fatalf("Kustomization does not decode strictly with %s: %v %v\n%s", kustomizev1.GroupVersion, err, strict, doc)
	}
	if k.APIVersion != kustomizev1.GroupVersion.String() || k.Kind != kustomizev1.KustomizationKind {
		t.Errorf("%s: apiVersion %s kind %s", k.Name, k.APIVersion, k.Kind)
	}
	return &k
}

// TestFluxNamesInRealUse renders kafka for Flux with a long instance
// name, then again with a second plan: every name is a valid, unique
// Kubernetes name, every folder builds with kustomize, every Kustomization
// decodes with Flux's API type, and adding the plan renames nothing.
func TestFluxNamesInRealUse(t *testing.T) {
	kz := tool(t, "kustomize")
	kafka := testcorpus.Operators(t)["kafka"]
	inst := "payments-events-kafka-cluster-production-eu-west"
	var lastOut string
	render := func(plans ...string) map[string]bool {
		out := filepath.Join(t.TempDir(), "out")
		lastOut = out
		args := []string{"render", kafka, "--name", inst, "-n", "data", "--target", "flux", "--output-dir", out}
		for _, p := range plans {
			args = append(args, "--plan", p)
		}
		if _, errs, err := run(t, "../../..", nil, binary, args...); err != nil {
			t.Fatalf("%v\n%s", err, errs)
		}
		names := map[string]bool{}
		folders, _ := filepath.Glob(filepath.Join(out, "*", "kustomization.yaml"))
		for _, k := range folders {
			dir := filepath.Dir(k)
			built, errs, err := run(t, dir, nil, kz, "build", ".")
			if err != nil {
				t.Fatalf("kustomize build %s: %v\n%s", dir, err, errs)
			}
			if filepath.Base(dir) != "flux" {
				continue
			}
			for _, doc := range strings.Split(built, "\n---\n") {
				k := strictKustomization(t, doc)
				if len(k.Name) > 63 || names[k.Name] {
					t.Errorf("name %q too long or repeated", k.Name)
				}
				names[k.Name] = true
			}
		}
		return names
	}
	deploy := render("deploy")
	both := render("deploy", "external-access")
	if len(deploy) < 3 {
		t.Fatalf("Kustomizations: %d for deploy", len(deploy))
	}
	// external-access applies the StatefulSet again: it is now applied last
	// by that plan, but stays with the step that applies it first.
	sts, _ := filepath.Glob(filepath.Join(lastOut, "*", "statefulset_*.yaml"))
	if len(sts) != 1 {
		t.Fatalf("StatefulSet files: %v", sts)
	}
	data, _ := os.ReadFile(sts[0])
	if !strings.Contains(string(data), "kudo.dev/plan: external-access") || !strings.Contains(filepath.Base(filepath.Dir(sts[0])), "deploy-deploy-kafka") {
		t.Errorf("the StatefulSet should be applied last by external-access, in the folder of deploy's step: %s", sts[0])
	}
	for n := range deploy {
		if !both[n] {
			t.Errorf("adding a plan renamed %s", n)
		}
	}
}
