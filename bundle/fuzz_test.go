package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// fuzzTemplates are the templates every fuzzed bundle has.
var fuzzTemplates = []string{"deployment.yaml", "service.yaml", "pipe-pod.yaml", "config/cm.yaml", "patch.yaml"}

// corpusSeeds returns operator.yaml and params.yaml of the shared corpus of
// real KUDO packages, when it is present (it is never required).
func corpusSeeds() [][2]string {
	dir := os.Getenv(testcorpus.EnvVar)
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpus")
	}
	pkgs, _ := filepath.Glob(filepath.Join(dir, "kudo-operators", "*", "operator.yaml"))
	var out [][2]string
	for _, op := range pkgs {
		opData, err := os.ReadFile(op)
		if err != nil {
			continue
		}
		params, _ := os.ReadFile(filepath.Join(filepath.Dir(op), "params.yaml"))
		out = append(out, [2]string{string(opData), string(params)})
	}
	return out
}

// FuzzLoad: Load never panics, and a bundle it accepts is consistent:
// plan steps name defined tasks, tasks name existing templates, Toggle
// tasks name defined parameters, and parameter names are unique (for a
// bundle without `extends`; an extension is checked after the merge).
func FuzzLoad(f *testing.F) {
	f.Add(kudoOperator, kudoParams, false)
	f.Add(frameworkYAML, frameworkParams, true)
	// cowsay, as published by KUDO.
	f.Add(`apiVersion: kudo.dev/v1beta1
name: "cowsay"
operatorVersion: "0.2.0"
kubernetesVersion: 1.13.0
maintainers:
  - name: zen-dog
    email: <adukhovniy@D2iQ.com>
url: https://kudo.dev
tasks:
  - name: app
    kind: Apply
    spec:
      resources:
        - deployment.yaml
  - name: genwww
    kind: Pipe
    spec:
      pod: pipe-pod.yaml
      pipe:
        - file: /tmp/index.html
          kind: ConfigMap
          key: indexHtml
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: genfiles
            tasks:
              - genwww
          - name: app
            tasks:
              - app
`, `apiVersion: kudo.dev/v1beta1
parameters:
  - name: replicas
    description: Number of replicas that should be run as part of the deployment
    default: 1
`, false)
	// A KUDO package with every task kind, anchors and a flow style.
	f.Add(`name: all
operatorVersion: 1.0.0
tasks:
  - {name: a, kind: Apply, spec: {resources: &r [deployment.yaml, service.yaml]}}
  - {name: d, kind: Delete, spec: {resources: *r}}
  - {name: t, kind: Toggle, spec: {parameter: ON, resources: [config/cm.yaml]}}
  - {name: n, kind: Dummy, spec: {done: false, wantErr: true}}
  - {name: k, kind: KudoOperator, spec: {package: zookeeper, operatorVersion: 0.3.0}}
plans:
  deploy: {strategy: parallel, phases: [{name: p, strategy: parallel, steps: [{name: s, tasks: [a, t, n]}]}]}
  remove: {phases: [{name: p, steps: [{name: s, tasks: [d]}]}]}
  deps: {phases: [{name: p, steps: [{name: s, tasks: [k]}]}]}
`, `parameters:
  - {name: ON, type: boolean, default: "true"}
  - {name: LIST, type: array, default: [1, 2]}
  - {name: MAP, type: map, default: {a: b}, enum: [x]}
`, false)
	// A framework bundle with patches, a Toggle task and extends.
	f.Add(`name: fw
version: 1.0.0
maintainers: [Bob <bob@example.com>, {name: Al, email: al@example.com}]
extends:
  kudo: {framework: base, version: 1.0.0}
tasks:
  app:
    resources: [deployment.yaml]
    patches: [patch.yaml, {path: patch.yaml, target: {kind: Deployment}}]
    patchesStrategicMerge: [patch.yaml]
  extra:
    from: base/extra
  monitoring: {kind: Toggle, parameter: on, resources: [service.yaml]}
plans:
  deploy:
    steps:
      - {name: app, tasks: [app, base/init, monitoring]}
      - {name: cleanup, tasks: [app], delete: true}
  upgrade:
    from: base/upgrade
`, `on: {type: boolean, default: "false"}
size: {default: 1Gi}
`, true)
	f.Add("name: x\noperatorVersion: 1\ntasks: [{name: a, kind: Apply, spec: {resources: [../x.yaml]}}]\n", "", false)
	f.Add("{", "parameters: [", false)
	f.Add("", "", true)
	for _, s := range corpusSeeds() {
		f.Add(s[0], s[1], false)
	}

	f.Fuzz(func(t *testing.T, meta, params string, framework bool) {
		fsys := fstest.MapFS{}
		file := "operator.yaml"
		if framework {
			file = "framework.yaml"
		}
		fsys[file] = &fstest.MapFile{Data: []byte(meta)}
		if params != "" {
			fsys["params.yaml"] = &fstest.MapFile{Data: []byte(params)}
		}
		for _, tp := range fuzzTemplates {
			fsys["templates/"+tp] = &fstest.MapFile{Data: []byte("kind: ConfigMap\n")}
		}
		b, err := bundle.Load(fsys, "fuzz")
		if err != nil {
			var le *bundle.LoadError
			if !errors.As(err, &le) || len(le.Problems) == 0 {
				t.Fatalf("Load: want a *LoadError with problems, got %T %v", err, err)
			}
			for _, p := range le.Problems {
				if p.Line < 0 {
					t.Errorf("problem with negative line: %v", p)
				}
			}
			_ = err.Error()
			return
		}
		if b == nil {
			t.Fatal("Load: nil bundle without error")
		}
		if b.Extends != nil {
			// References may point into the base; package extend checks
			// them after the merge (bundle.Validate).
			return
		}
		for _, pl := range b.Plans {
			for _, ph := range pl.Phases {
				for _, st := range ph.Steps {
					for _, tn := range st.Tasks {
						if b.Task(tn) == nil {
							t.Errorf("plan %s step %s uses undefined task %q", pl.Name, st.Name, tn)
						}
					}
				}
			}
		}
		for _, tk := range b.Tasks {
			refs := append([]string{}, tk.Resources...)
			refs = append(refs, tk.PatchesStrategicMerge...)
			for _, pt := range tk.Patches {
				refs = append(refs, pt.Path)
			}
			if tk.Kind == bundle.KindPipe {
				refs = append(refs, tk.Pod)
			}
			for _, r := range refs {
				if _, ok := b.Templates[r]; !ok {
					t.Errorf("task %s uses missing template %q", tk.Name, r)
				}
			}
			if tk.Kind == bundle.KindToggle && b.Param(tk.Parameter) == nil {
				t.Errorf("Toggle task %s uses undefined parameter %q", tk.Name, tk.Parameter)
			}
		}
		seen := map[string]bool{}
		for _, p := range b.Params {
			if seen[p.Name] {
				t.Errorf("parameter %q defined twice", p.Name)
			}
			seen[p.Name] = true
		}
	})
}
