package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestKudoOperatorDependencies renders a package whose deploy plan installs
// zookeeper and then kafka (from the corpus, used as a repository) with
// KudoOperator tasks: each dependency's deploy plan keeps its own order,
// and the parent's later steps come after all of it.
func TestKudoOperatorDependencies(t *testing.T) {
	corpus := filepath.Join(testcorpus.Dir(t), "kudo-operators")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "render.yaml")
	os.WriteFile(cfg, []byte(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: s, namespace: data}
spec:
  framework: {path: `+mustAbs(t, "testdata/deps/streaming")+`}
  repositories:
    - name: corpus
      path: `+corpus+`
`), 0o644)
	out, _, err := run("render", cfg)
	if err != nil {
		t.Fatal(err)
	}
	wave := func(marker string) string {
		doc := objectDoc(out, marker)
		for _, l := range strings.Split(doc, "\n") {
			if strings.Contains(l, "argocd.argoproj.io/sync-wave:") {
				return strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "argocd.argoproj.io/sync-wave:")), `"`)
			}
		}
		t.Fatalf("no object %q", marker)
		return ""
	}
	for marker, want := range map[string]string{
		"name: s-zookeeper-zookeeper\n":                  "0", // zookeeper's parallel phase
		"name: s-zookeeper-validation\n":                 "1", // its validation step
		"name: s-kafka-generate-tls-certificates-pipe\n": "3", // kafka after zookeeper's cleanup step
		"name: s-kafka-kafka\n":                          "6",
		"name: s-app\n":                                  "8", // the parent's next phase after kafka's addons
	} {
		if got := wave(marker); got != want {
			t.Errorf("%s: wave %s, want %s", strings.TrimSpace(marker), got, want)
		}
	}
	if !strings.Contains(out, "zookeeper.connect=s-zookeeper-zookeeper-0.s-zookeeper-hs:2181/s-kafka") {
		t.Error("kafka's parameter file (rendered with the parent's variables) was not applied")
	}
	if !strings.Contains(objectDoc(out, "name: s-kafka-kafka\n"), "kudo.dev/operator: kafka") {
		t.Error("dependency objects must carry their own operator label")
	}
}

func TestKudoOperatorErrors(t *testing.T) {
	corpus := filepath.Join(testcorpus.Dir(t), "kudo-operators")
	for name, tc := range map[string]struct {
		operator string
		want     string
	}{
		"WrongVersion":    {"package: zookeeper\n      operatorVersion: 9.9.9", "framework zookeeper version 9.9.9 not found"},
		"WrongAppVersion": {"package: zookeeper\n      appVersion: 1.0.0", "has appVersion 3.6.2, the task asks for 1.0.0"},
		"Cycle":           {"package: ./", "dependency cycle"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "operator.yaml"), []byte(`apiVersion: kudo.dev/v1beta1
name: loop
operatorVersion: 1.0.0
kubernetesVersion: 1.20.0
tasks:
  - name: dep
    kind: KudoOperator
    spec:
      `+tc.operator+`
plans:
  deploy:
    strategy: serial
    phases:
      - {name: p, strategy: serial, steps: [{name: s, tasks: [dep]}]}
`), 0o644)
			cfg := filepath.Join(dir, "render.yaml")
			os.WriteFile(cfg, []byte("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: x, namespace: y}\nspec:\n  framework: {path: .}\n  repositories: [{name: corpus, path: "+corpus+"}]\n"), 0o644)
			out, _, err := run("render", cfg)
			if err == nil || out != "" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (stdout %d bytes), want %q", err, len(out), tc.want)
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestDependencyCommon: a dependency's common/ manifests are rendered once,
// first, with the dependency's operator label.
func TestDependencyCommon(t *testing.T) {
	dir := t.TempDir()
	mysql := mustAbs(t, "../examples/mysql")
	os.WriteFile(filepath.Join(dir, "operator.yaml"), []byte(`apiVersion: kudo.dev/v1beta1
name: shop
operatorVersion: 1.0.0
kubernetesVersion: 1.20.0
tasks:
  - {name: db1, kind: KudoOperator, spec: {package: `+mysql+`, instanceName: db1}}
  - {name: db2, kind: KudoOperator, spec: {package: `+mysql+`, instanceName: db2}}
plans:
  deploy:
    strategy: serial
    phases:
      - {name: p, strategy: parallel, steps: [{name: a, tasks: [db1]}, {name: b, tasks: [db2]}]}
`), 0o644)
	cfg := filepath.Join(dir, "render.yaml")
	os.WriteFile(cfg, []byte("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: shop, namespace: shop}\nspec:\n  framework: {path: .}\n"), 0o644)
	out, _, err := run("render", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "kind: PriorityClass"); n != 1 {
		t.Fatalf("%d PriorityClasses, want the dependency's common/ once", n)
	}
	pc := objectDoc(out, "kind: PriorityClass")
	if !strings.Contains(pc, "kudo.dev/operator: mysql") || !strings.Contains(pc, `argocd.argoproj.io/sync-wave: "-1"`) {
		t.Errorf("common manifest of the dependency:\n%s", pc)
	}
	if !strings.Contains(out, "name: db1-data") || !strings.Contains(out, "name: db2-data") {
		t.Error("both instances of the dependency must render")
	}
}

// TestDependencyPathFromBase: a KudoOperator package path written in a
// base is relative to the base, not to the extension that inherits it.
func TestDependencyPathFromBase(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(s), 0o644)
	}
	// a base with a dependency next to it, extended from elsewhere
	write("platform/kbase/operator.yaml", `apiVersion: kudo.dev/v1beta1
name: kbase
operatorVersion: 1.0.0
kubernetesVersion: 1.20.0
tasks:
  - {name: dep, kind: KudoOperator, spec: {package: ./dep, instanceName: dep}}
plans:
  deploy:
    strategy: serial
    phases: [{name: p, strategy: serial, steps: [{name: s, tasks: [dep]}]}]
`)
	write("platform/kbase/dep/framework.yaml", "name: dep\nversion: \"1\"\ntasks:\n  t: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: s, tasks: [t]}]\n")
	write("platform/kbase/dep/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}-from-dep\"}\n")
	write("team/ext/operator.yaml", `apiVersion: kudo.dev/v1beta1
name: ext
operatorVersion: 1.0.0
kubernetesVersion: 1.20.0
extends: {path: ../../platform/kbase}
`)
	write("team/render.yaml", "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: x, namespace: y}\nspec:\n  framework: {path: ext}\n")
	out, _, err := run("render", filepath.Join(root, "team/render.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "name: dep-from-dep") {
		t.Errorf("the base's dependency was not found relative to the base:\n%s", out)
	}
}
