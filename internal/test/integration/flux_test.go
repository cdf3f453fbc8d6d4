package integration

import (
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestFluxLayout renders the Flux example (the mysql example's instance,
// spec.flux set) and builds every folder with kustomize, as Flux's
// kustomize-controller would; the Flux Kustomizations chain the plan's
// waves with dependsOn.
func TestFluxLayout(t *testing.T) {
	kz := tool(t, "kustomize")
	out := filepath.Join(t.TempDir(), "out")
	if _, errs, err := run(t, "../../..", nil, binary, "render", "examples/flux/shop-db.yaml", "--output-dir", out); err != nil {
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
			// A failed step is tried again within a minute, and a step's
			// health checks give up after the example's 10 minutes (Flux's
			// defaults: the interval, 10 minutes, and 9m30s).
			if k.GetRetryInterval() != time.Minute || k.GetTimeout() != 10*time.Minute {
				t.Errorf("%s: retryInterval %s, timeout %s", k.Name, k.GetRetryInterval(), k.GetTimeout())
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

// TestFluxFirstApply applies a Flux render of zookeeper to the real API
// server as Flux's kustomize-controller applies it: each Kustomization's
// folder built by kustomize and applied server-side under Flux's field
// manager, in dependsOn order. The instance's namespace did not exist, and
// the first apply failed (namespaces "data" not found): common/ now
// creates it. With spec.flux.createNamespace: false it still fails, as
// the user asked.
func TestFluxFirstApply(t *testing.T) {
	kz, kubectl := tool(t, "kustomize"), tool(t, "kubectl")
	srv := kubetest.Start(t)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: %q, certificate-authority-data: %q}}]\n"+
		"users: [{name: t, user: {token: %q}}]\ncontexts: [{name: t, context: {cluster: t, user: t}}]\ncurrent-context: t\n",
		srv.Config.Host, base64.StdEncoding.EncodeToString(srv.Config.CAData), srv.Config.BearerToken)
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	zk := testcorpus.Operators(t)["zookeeper"]
	for _, tc := range []struct {
		ns     string
		create bool
	}{{"flux-first-apply", true}, {"flux-no-namespace", false}} {
		dir := t.TempDir()
		config := filepath.Join(dir, "render.yaml")
		spec := fmt.Sprintf("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: zk, namespace: %s}\nspec:\n  framework: {path: %s}\n  target: flux\n  flux: {createNamespace: %v}\n", tc.ns, zk, tc.create)
		if err := os.WriteFile(config, []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out")
		if _, errs, err := run(t, dir, nil, binary, "render", config, "--output-dir", out); err != nil {
			t.Fatalf("%v\n%s", err, errs)
		}
		var failed string
		for _, path := range applyOrder(t, kz, filepath.Join(out, "flux")) {
			built, errs, err := run(t, filepath.Join(out, path), nil, kz, "build", ".")
			if err != nil {
				t.Fatalf("kustomize build %s: %v\n%s", path, err, errs)
			}
			if err := os.WriteFile(filepath.Join(dir, "built.yaml"), []byte(built), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, errs, err := run(t, dir, nil, kubectl, "--kubeconfig", kubeconfig, "apply", "--server-side", "--field-manager", "kustomize-controller", "-f", "built.yaml"); err != nil {
				failed = path + ": " + errs
				break
			}
		}
		switch {
		case tc.create && failed != "":
			t.Errorf("the first apply failed: %s", failed)
		case !tc.create && !strings.Contains(failed, fmt.Sprintf("namespaces %q not found", tc.ns)):
			t.Errorf("without the namespace the first apply should fail as before: %q", failed)
		}
	}
	ns, errs, err := run(t, ".", nil, kubectl, "--kubeconfig", kubeconfig, "get", "namespace", "flux-first-apply", "-o", "jsonpath={.metadata.annotations}")
	if err != nil || !strings.Contains(ns, `"kustomize.toolkit.fluxcd.io/prune":"disabled"`) {
		t.Errorf("the namespace Flux created is not protected from pruning: %s %v %s", ns, err, errs)
	}
}

// applyOrder is the path of every Kustomization of a Flux layout's flux/
// folder, in an order that applies each after those it dependsOn.
func applyOrder(t *testing.T, kz, fluxDir string) []string {
	t.Helper()
	built, errs, err := run(t, fluxDir, nil, kz, "build", ".")
	if err != nil {
		t.Fatalf("kustomize build flux/: %v\n%s", err, errs)
	}
	deps := map[string][]string{}
	paths := map[string]string{}
	for _, doc := range strings.Split(built, "\n---\n") {
		k := strictKustomization(t, doc)
		paths[k.Name] = k.Spec.Path
		for _, d := range k.Spec.DependsOn {
			deps[k.Name] = append(deps[k.Name], d.Name)
		}
	}
	var order []string
	done := map[string]bool{}
	for len(done) < len(paths) {
		progress := false
		for _, name := range slices.Sorted(maps.Keys(paths)) {
			ready := !done[name]
			for _, d := range deps[name] {
				ready = ready && done[d]
			}
			if ready {
				done[name], progress = true, true
				order = append(order, paths[name])
			}
		}
		if !progress {
			t.Fatalf("the Kustomizations' dependsOn have a cycle or a missing name: %v", deps)
		}
	}
	return order
}
