package hostile_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kudoPkg writes a KUDO package dir/name whose deploy plan installs each
// package of deps (a KudoOperator task ../<dep> each, instanceName set
// when named) and applies a ConfigMap, with params.yaml's parameters as
// given (the text under parameters:) and the files of extra.
func kudoPkg(t *testing.T, dir, name string, deps []string, named bool, parameters string, extra map[string]string) string {
	t.Helper()
	var tasks, steps strings.Builder
	for i, d := range deps {
		inst := ""
		if named {
			inst = fmt.Sprintf(", instanceName: %s-%d", d, i)
		}
		fmt.Fprintf(&tasks, "  - {name: d%d, kind: KudoOperator, spec: {package: ../%s%s}}\n", i, d, inst)
		fmt.Fprintf(&steps, "          - {name: d%d, tasks: [d%d]}\n", i, i)
	}
	if parameters == "" {
		parameters = "  []\n"
	}
	files := map[string]string{
		name + "/operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: " + name + "\noperatorVersion: 0.1.0\ntasks:\n" + tasks.String() +
			"  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n" +
			"      - name: main\n        strategy: serial\n        steps:\n" + steps.String() + "          - {name: app, tasks: [app]}\n",
		name + "/params.yaml":       "apiVersion: kudo.dev/v1beta1\nparameters:\n" + parameters,
		name + "/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\ndata: {n: \"{{ len .Params }}\"}\n",
	}
	for k, v := range extra {
		files[name+"/"+k] = v
	}
	write(t, dir, files)
	return filepath.Join(dir, name)
}

// stringProperties is a params.schema.json of n string properties P0...
// and X, whose description pads the file to about size bytes.
func stringProperties(n, size int) string {
	props := map[string]any{}
	for i := range n {
		props[fmt.Sprintf("P%d", i)] = map[string]any{"type": "string"}
	}
	props["X"] = map[string]any{"type": "string", "description": strings.Repeat("x", max(0, size-n*20))}
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	return string(data)
}

// pluginParams is the environment of the Argo CD plugin with n PARAM_Q*
// variables.
func pluginParams(n int) []string {
	env := []string{"ARGOCD_APP_NAME=inst", "ARGOCD_APP_NAMESPACE=ns"}
	for i := range n {
		env = append(env, fmt.Sprintf("PARAM_Q%d=x", i))
	}
	return env
}

// soon bounds a run whose work the fix made linear or made once (about
// 1 s of CPU): the quadratic or repeated work took the watchdog (30 s),
// and the margin is for a loaded machine.
const soon = 15 * time.Second

// TestWorkBudgetCounts (issue 35.3): work that grows faster than its input,
// or once per instance where once per package does, is either done in
// linear time and once, or charged to the render's budget before it is
// done and refused at once.
func TestWorkBudgetCounts(t *testing.T) {
	runCases(t, map[string]hostileCase{
		"MapDefault": {
			class: "render budget", reason: "a map default of 60,000 entries (go-yaml's duplicate-key check is quadratic)",
			succeed: true, within: soon,
			setup: func(t *testing.T, dir string) []string {
				var m strings.Builder
				for i := range 60_000 {
					fmt.Fprintf(&m, "      k%d: v%d\n", i, i)
				}
				return []string{"render", kudoPkg(t, dir, "pkg", nil, false, "  - name: M\n    type: map\n    default:\n"+m.String(), nil), "--name", "inst"}
			},
			check: func(t *testing.T, _, stdout string) {
				if !strings.Contains(stdout, `"n": "1"`) {
					t.Errorf("the render is not the package's:\n%s", head(stdout))
				}
			},
		},
		"ManyUnknownParams": {
			class: "render budget", reason: "60,000 parameter values in a FrameworkRender that a package of 20,000 parameters does not define (quadratic decoding, a suggestion for each against every parameter)",
			within: soon,
			setup: func(t *testing.T, dir string) []string {
				var defs, values strings.Builder
				for i := range 20_000 {
					fmt.Fprintf(&defs, "  - {name: P%d, default: \"%d\"}\n", i, i)
				}
				for i := range 60_000 {
					fmt.Fprintf(&values, "    Q%d: \"%d\"\n", i, i)
				}
				kudoPkg(t, dir, "pkg", nil, false, defs.String(), nil)
				write(t, dir, map[string]string{"render.yaml": strings.Replace(renderConfig, "path: fw", "path: pkg", 1) + "  params:\n" + values.String()})
				return []string{"render", filepath.Join(dir, "render.yaml"), "--output-dir", "{out}"}
			},
			stderr: `invalid parameters:\n  Q0: is not defined by the package; did you mean P0\?\n(.|\n)*  Q9999: is not defined by the package\n`,
		},
		"ManyUnknownPluginParams": {
			class: "render budget", reason: "30,000 PARAM_* variables of the Argo CD plugin that a package of 20,000 parameters does not define (a suggestion for each against every parameter)",
			within: soon,
			setup: func(t *testing.T, dir string) []string {
				var defs strings.Builder
				for i := range 20_000 {
					fmt.Fprintf(&defs, "  - {name: P%d, default: \"%d\"}\n", i, i)
				}
				kudoPkg(t, dir, "pkg", nil, false, defs.String(), nil)
				write(t, dir, map[string]string{"kudo-render.yaml": strings.Replace(renderConfig, "path: fw", "path: pkg", 1)})
				return []string{"cmp", "generate"}
			},
			env:    pluginParams(30_000),
			stderr: `plugin parameters: PARAM_Q0: the package has no such parameter; did you mean P0 \(PARAM_P0\)\?; .*PARAM_Q9999: the package has no such parameter(;|\n)`,
		},
		"SchemaCompile": {
			class: "render budget", reason: "a params.schema.json of 20,000 subschemas (compiling it is quadratic in the library)",
			within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				p := kudoPkg(t, dir, "pkg", nil, false, "  - {name: X, default: \"1\"}\n", map[string]string{"params.schema.json": stringProperties(20_000, 0)})
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `params\.schema\.json \(compiling 20003 subschemas\): schema validation work exceeds the limit of 100000000 steps \(raise it with --max-schema-steps or KUDO_RENDER_MAX_SCHEMA_STEPS\)`,
		},
		"SchemaPerInstance": {
			class: "render budget", reason: "40 KudoOperator instances of a package whose params.schema.json is 0.9 MB of 10,000 subschemas, compiled per instance",
			succeed: true, within: 20 * time.Second,
			setup: func(t *testing.T, dir string) []string {
				kudoPkg(t, dir, "child", nil, false, "  - {name: X, default: \"1\"}\n", map[string]string{"params.schema.json": stringProperties(10_000, 900_000)})
				deps := make([]string, 40)
				for i := range deps {
					deps[i] = "child"
				}
				return []string{"render", kudoPkg(t, dir, "parent", deps, true, "  - {name: X, default: \"1\"}\n", nil), "--name", "inst"}
			},
			check: func(t *testing.T, _, stdout string) {
				if n := strings.Count(stdout, "kind: ConfigMap"); n != 41 {
					t.Errorf("%d ConfigMaps, want 41", n)
				}
			},
		},
		"MarkerPerInstance": {
			class: "render budget", reason: "300 Instance items of a 35 MB package, encoded and hashed for its processed-by marker twice per instance",
			succeed: true, within: soon,
			env: []string{"KUDO_RENDER_MAX_PACKAGE_BYTES=64Mi"}, // the package is loaded once: 35 MB of package-bytes
			setup: func(t *testing.T, dir string) []string {
				unused := map[string]string{}
				for i := range 5 { // each under --max-file-bytes
					unused[fmt.Sprintf("templates/unused%d.yaml", i)] = "# " + strings.Repeat("x", 7_000_000) + "\n"
				}
				kudoPkg(t, dir, "pkg", nil, false, "  - {name: X, default: \"1\"}\n", unused)
				return nil
			},
			stdin: func(dir string) ([]byte, error) {
				var items strings.Builder
				for i := range 300 {
					fmt.Fprintf(&items, "- {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: i%d, namespace: ns}, spec: {operatorVersion: {name: pkg-0.1.0}}}\n", i)
				}
				return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items.String() +
					"functionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n  kind: FrameworkRender\n  metadata: {name: x}\n  spec:\n    operators:\n      pkg-0.1.0: {path: pkg}\n"), nil
			},
			check: func(t *testing.T, _, stdout string) {
				if n := strings.Count(stdout, "kudorender.dev/processed-by: pkg@0.1.0/sha256:"); n < 300 {
					t.Errorf("%d objects marked, want 300 or more", n)
				}
			},
		},
		"ParamsPerInstance": {
			class: "render budget", reason: "400 KudoOperator instances of a package whose map default has 60,000 entries: each resolves and copies it",
			within: soon,
			setup: func(t *testing.T, dir string) []string {
				var m strings.Builder
				for i := range 60_000 {
					fmt.Fprintf(&m, "      k%d: v%d\n", i, i)
				}
				kudoPkg(t, dir, "child", nil, false, "  - name: M\n    type: map\n    default:\n"+m.String(), nil)
				deps := make([]string, 400)
				for i := range deps {
					deps[i] = "child"
				}
				return []string{"render", kudoPkg(t, dir, "parent", deps, true, "", nil), "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `the parameters (of instance "child-\d+"|given to task "app" \(instance "child-\d+" of child@0\.1\.0\)): total render values exceeds the limit of 2000000 values \(raise it with --max-render-values or KUDO_RENDER_MAX_RENDER_VALUES\)`,
		},
		"DependencyDAG": {
			class: "render budget", reason: "61 packages in 6 levels of 10, each installing all 10 of the next level: 1.1 million dependency instances, loaded per path before the instance budget bit",
			within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				level := func(l int) []string {
					var out []string
					for j := range 10 {
						out = append(out, fmt.Sprintf("l%dp%d", l, j))
					}
					return out
				}
				for l := range 6 {
					var next []string
					if l < 5 {
						next = level(l + 1)
					}
					for _, name := range level(l) {
						kudoPkg(t, dir, name, next, false, "", nil)
					}
				}
				return []string{"render", kudoPkg(t, dir, "root", level(0), false, "", nil), "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `KudoOperator task "d\d" \(instance "inst-l0p0-.*: render instances exceeds the limit of 2000 instances \(raise it with --max-render-instances or KUDO_RENDER_MAX_RENDER_INSTANCES\)`,
		},
		"PackageBytes": {
			class: "render budget", reason: "a package installing 39 distinct packages by KudoOperator tasks, the 40 of 1.2 MB each (a template nobody uses), each file under --max-file-bytes: 48 MB of packages read before any renders",
			within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				big := map[string]string{"templates/big.yaml": "# " + strings.Repeat("x", 1_200_000) + "\n"}
				var deps []string
				for i := 1; i < 40; i++ {
					deps = append(deps, fmt.Sprintf("p%d", i))
					kudoPkg(t, dir, deps[i-1], nil, false, "", big)
				}
				return []string{"render", kudoPkg(t, dir, "p0", deps, true, "", big), "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `KudoOperator task "d\d+": the package at \S*/p\d+: total package size exceeds the limit of 33554432 bytes \(raise it with --max-package-bytes or KUDO_RENDER_MAX_PACKAGE_BYTES\)`,
		},
	})
}
