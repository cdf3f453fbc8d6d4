package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestFluxLayout renders the mysql example for Flux and builds every
// folder with kustomize, as Flux's kustomize-controller would; the Flux
// Kustomizations chain the plan's waves with dependsOn.
func TestFluxLayout(t *testing.T) {
	kz := tool(t, "kustomize")
	out := filepath.Join(t.TempDir(), "out")
	if _, errs, err := run(t, "..", nil, binary, "render", "examples/mysql/render.yaml", "--target", "flux", "-o", out); err != nil {
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
			var k struct {
				Metadata struct{ Name string }
				Spec     struct {
					Wait      bool
					DependsOn []struct{ Name string } `json:"dependsOn"`
				}
			}
			if err := yaml.Unmarshal([]byte(doc), &k); err != nil {
				t.Fatal(err)
			}
			if !k.Spec.Wait {
				t.Errorf("%s: wait is not true", k.Metadata.Name)
			}
			for _, d := range k.Spec.DependsOn {
				deps[k.Metadata.Name] = append(deps[k.Metadata.Name], d.Name)
			}
		}
	}
	want := map[string]string{
		"shop-db-00-deploy-deploy-deploy": "shop-db-common",
		"shop-db-01-deploy-deploy-init":   "shop-db-00-deploy-deploy-deploy",
	}
	for k, d := range want {
		if len(deps[k]) != 1 || deps[k][0] != d {
			t.Errorf("%s depends on %v, want %s", k, deps[k], d)
		}
	}
	job, err := os.ReadFile(filepath.Join(out, "01-deploy-deploy-init", "job_shop-db-deploy-job.yaml"))
	if err != nil || !strings.Contains(string(job), "kustomize.toolkit.fluxcd.io/force: enabled") {
		t.Errorf("run-once Job without Flux's force annotation: %v", err)
	}
}
