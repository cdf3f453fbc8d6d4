package hostile_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// framework writes a KEP-0009 framework bundle into dir/fw whose deploy
// plan applies the templates given (in the order of names) with the task
// fields of extra, plus the files of files, and returns its folder.
func framework(t *testing.T, dir string, names []string, templates map[string]string, extra string, files map[string]string) string {
	t.Helper()
	all := map[string]string{
		"fw/framework.yaml": "name: hostile\nversion: \"1.0.0\"\ntasks:\n  app:\n    resources: [" + strings.Join(names, ", ") + "]\n" + extra +
			"plans:\n  deploy:\n    steps:\n      - name: app\n        tasks: [app]\n",
		"fw/params.yaml": "X:\n  default: \"1\"\n",
	}
	for name, content := range templates {
		all["fw/templates/"+name] = content
	}
	for name, content := range files {
		all["fw/"+name] = content
	}
	write(t, dir, all)
	return filepath.Join(dir, "fw")
}

// referenceChain is n objects whose spec holds two references to the
// spec of the one before, the first spec 1 MB: the last is 2^(n-1) MB.
func referenceChain(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t0}\nspec: {v: \"{{ repeat 1000000 \"x\" }}\"}\n")
	for i := 1; i < n; i++ {
		ref := fmt.Sprintf("{getValueFrom: {kind: Thing, apiVersion: example.com/v1, name: t%d, path: '{.spec}'}}", i-1)
		fmt.Fprintf(&b, "---\napiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t%d}\nspec: {a: %s, b: %s}\n", i, ref, ref)
	}
	return b.String()
}

// manyTemplates is n templates named c<i>.yaml, each rendering one
// object of kind (apiVersion/kind) holding a string of size bytes.
func manyTemplates(n, size int, apiVersion, kind string) ([]string, map[string]string) {
	names := make([]string, n)
	templates := map[string]string{}
	for i := range names {
		names[i] = fmt.Sprintf("c%d.yaml", i)
		templates[names[i]] = fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata: {name: c%d}\ndata: {x: \"{{ repeat %d \"x\" }}\"}\n", apiVersion, kind, i, size)
	}
	return names, templates
}

// dependencyGraph writes KUDO packages p0..p8, each of whose deploy plan
// installs the next six times: 6^8 instances.
func dependencyGraph(t *testing.T, dir string) string {
	t.Helper()
	files := map[string]string{}
	for level := 0; level <= 8; level++ {
		var tasks, steps strings.Builder
		for k := 0; level < 8 && k < 6; k++ {
			fmt.Fprintf(&tasks, "  - {name: d%d, kind: KudoOperator, spec: {package: ../p%d}}\n", k, level+1)
			fmt.Fprintf(&steps, "          - {name: d%d, tasks: [d%d]}\n", k, k)
		}
		p := fmt.Sprintf("p%d/", level)
		files[p+"operator.yaml"] = fmt.Sprintf("apiVersion: kudo.dev/v1beta1\nname: p%d\noperatorVersion: 0.1.0\ntasks:\n%s"+
			"  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n"+
			"      - name: main\n        strategy: serial\n        steps:\n%s          - {name: app, tasks: [app]}\n", level, tasks.String(), steps.String())
		files[p+"params.yaml"] = "apiVersion: kudo.dev/v1beta1\nparameters: []\n"
		files[p+"templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n"
	}
	write(t, dir, files)
	return filepath.Join(dir, "p0")
}

// documents is n templates, each rendering per ConfigMaps with the data
// given (a flow mapping).
func documents(n, per int, data string) ([]string, map[string]string) {
	names := make([]string, n)
	templates := map[string]string{}
	for i := range names {
		names[i] = fmt.Sprintf("d%d.yaml", i)
		templates[names[i]] = fmt.Sprintf("{{ range $i := until %d }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d%d-{{ $i }}\ndata: %s\n{{ end }}\n", per, i, data)
	}
	return names, templates
}

const renderConfig = "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst, namespace: ns}\nspec:\n  framework: {path: fw}\n"

// TestRenderBudget: the totals of a render (output, values, objects,
// instances, schema validation) are bounded whatever the number of parts
// they come from, each part just under its own limit.
func TestRenderBudget(t *testing.T) {
	runCases(t, map[string]hostileCase{
		"ChainedReferences": {
			class: "render budget", reason: "getValueFrom references to references, each doubling the object (2^23 MB)",
			setup: func(t *testing.T, dir string) []string {
				p := framework(t, dir, []string{"t.yaml"}, map[string]string{"t.yaml": referenceChain(24)}, "", nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `getValueFrom \{kind: Thing.*: total render output exceeds the limit of 67108864 bytes \(raise it with --max-render-bytes or KUDO_RENDER_MAX_RENDER_BYTES\)`,
		},
		"DoublingPatch": {
			class: "render budget", reason: "a JSON 6902 patch of 40 copy operations, each doubling the object",
			setup: func(t *testing.T, dir string) []string {
				var ops []map[string]string
				for i := range 40 {
					ops = append(ops, map[string]string{"op": "copy", "from": "/spec", "path": fmt.Sprintf("/spec/k%d", i)})
				}
				patch, _ := json.Marshal(ops)
				p := framework(t, dir, []string{"t.yaml"}, map[string]string{
					"t.yaml": "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {v: \"{{ repeat 100000 \"x\" }}\"}\n",
					"p.yaml": string(patch),
				}, "    patches:\n      - {path: p.yaml, target: {kind: Thing}}\n", nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `patch templates/p.yaml: the values its copy operations add: template output exceeds the limit of 16777216 bytes \(raise it with --max-template-bytes`,
		},
		"ManyTemplates": {
			class: "render budget", reason: "100 templates, each rendering 15 MB, just under --max-template-bytes",
			setup: func(t *testing.T, dir string) []string {
				names, templates := manyTemplates(100, 15_000_000, "v1", "ConfigMap")
				p := framework(t, dir, names, templates, "", nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `templates/c4\.yaml: the rendered text: total render output exceeds the limit of 67108864 bytes \(raise it with --max-render-bytes`,
		},
		"DependencyGraph": {
			class: "render budget", reason: "KudoOperator dependencies six wide and eight deep: 1.7 million instances",
			setup: func(t *testing.T, dir string) []string {
				return []string{"render", dependencyGraph(t, dir), "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `KudoOperator task "d\d" \(instance .* render instances exceeds the limit of 2000 instances \(raise it with --max-render-instances or KUDO_RENDER_MAX_RENDER_INSTANCES\)`,
		},
		"SchemaPatterns": {
			class: "render budget", reason: "5,000 patterns of params.schema.json against a 7 MB parameter value",
			setup: func(t *testing.T, dir string) []string {
				all := make([]any, 5000)
				for i := range all {
					all[i] = map[string]any{"pattern": fmt.Sprintf("^a*%d$", i)}
				}
				schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"X": map[string]any{"type": "string", "allOf": all}}})
				framework(t, dir, []string{"cm.yaml"}, map[string]string{"cm.yaml": cm}, "", map[string]string{"params.schema.json": string(schema)})
				write(t, dir, map[string]string{"render.yaml": renderConfig + "  params:\n    X: \"" + strings.Repeat("a", 7_000_000) + "\"\n"})
				return []string{"render", filepath.Join(dir, "render.yaml"), "--output-dir", "{out}"}
			},
			stderr: `params.schema.json: schema validation work exceeds the limit of 100000000 steps \(raise it with --max-schema-steps or KUDO_RENDER_MAX_SCHEMA_STEPS\)`,
		},
		"ManyObjects": {
			class: "render budget", reason: "11 templates of 10,000 objects each",
			setup: func(t *testing.T, dir string) []string {
				names, templates := documents(11, 10_000, "{a: b}")
				p := framework(t, dir, names, templates, "", nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `templates/d10\.yaml: render objects exceeds the limit of 100000 objects \(raise it with --max-render-objects`,
		},
		"ManyValues": {
			class: "render budget", reason: "8 templates of 280,000 values each, just under --max-yaml-values",
			setup: func(t *testing.T, dir string) []string {
				names, templates := manyTemplates(8, 0, "example.com/v1", "Thing")
				for _, n := range names {
					templates[n] = strings.Replace(templates[n], `data: {x: "{{ repeat 0 "x" }}"}`, `data: [{{ repeat 140000 "{a: 1}, " }}]`, 1)
				}
				p := framework(t, dir, names, templates, "", nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `the rendered YAML \(aliases expanded\): total render values exceeds the limit of 2000000 values \(raise it with --max-render-values`,
		},
		"BudgetFromEnvironment": {
			class: "render budget", reason: "a budget set by its environment variable (orchestrators that cannot pass flags)",
			setup: func(t *testing.T, dir string) []string {
				names, templates := documents(1, 20, "{a: b}")
				return []string{"render", framework(t, dir, names, templates, "", nil), "--name", "inst", "--output-dir", "{out}"}
			},
			env:    []string{"KUDO_RENDER_MAX_RENDER_OBJECTS=10"},
			stderr: `render objects exceeds the limit of 10 objects \(raise it with --max-render-objects or KUDO_RENDER_MAX_RENDER_OBJECTS\)`,
		},
		"TimeoutNamesTheTemplate": {
			class: "render budget", reason: "the watchdog names what was running: the template and its instance",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "{{ range $i := until 100000 }}{{ range $j := until 100000 }}{{ end }}{{ end }}" + cm}, nil)
				return []string{"render", p, "--name", "inst", "--timeout", "2s", "--output-dir", "{out}"}
			},
			stderr: `gave up after 2s \(--timeout\) while executing templates/cm\.yaml \(instance "inst" of hostile@0\.1\.0\) \(also under way: rendering instance "inst" of hostile@0\.1\.0\); raise the limit with --timeout`,
		},
	})
}

// TestRenderBudgetEveryEntryPoint: the budget bounds the Argo CD plugin,
// diff, graph and Flux output as it bounds render.
func TestRenderBudgetEveryEntryPoint(t *testing.T) {
	chain := func(t *testing.T, dir string) {
		framework(t, dir, []string{"t.yaml"}, map[string]string{"t.yaml": referenceChain(24)}, "", nil)
	}
	runCases(t, map[string]hostileCase{
		"PluginChainedReferences": {
			class: "render budget", reason: "cmp generate (the Argo CD plugin) of references to references",
			setup: func(t *testing.T, dir string) []string {
				chain(t, dir)
				write(t, dir, map[string]string{"kudo-render.yaml": renderConfig})
				return []string{"cmp", "generate"}
			},
			env:    []string{"ARGOCD_APP_NAME=inst", "ARGOCD_APP_NAMESPACE=ns"},
			stderr: `--max-render-bytes`,
		},
		"GraphDependencies": {
			class: "render budget", reason: "graph of a dependency graph of 1.7 million instances",
			setup: func(t *testing.T, dir string) []string {
				return []string{"graph", dependencyGraph(t, dir), "--name", "inst"}
			},
			stderr: `--max-render-instances`,
		},
		"FluxManyTemplates": {
			class: "render budget", reason: "Flux output of 100 templates of 15 MB",
			setup: func(t *testing.T, dir string) []string {
				names, templates := manyTemplates(100, 15_000_000, "v1", "ConfigMap")
				return []string{"render", framework(t, dir, names, templates, "", nil), "--name", "inst", "--target", "flux", "--output-dir", "{out}"}
			},
			stderr: `--max-render-bytes`,
		},
		"DiffSharesOneBudget": {
			class: "render budget", reason: "diff holds both renders: they share one budget (each side alone, 45 MB, is within it)", exit: 2,
			setup: func(t *testing.T, dir string) []string {
				names, templates := manyTemplates(3, 15_000_000, "example.com/v1", "Thing")
				framework(t, dir, names, templates, "", nil)
				write(t, dir, map[string]string{"render.yaml": renderConfig})
				cfg := filepath.Join(dir, "render.yaml")
				return []string{"diff", cfg, cfg}
			},
			stderr: `cannot render the new side: .*total render output exceeds the limit of 67108864 bytes \(raise it with --max-render-bytes`,
		},
	})
}

// TestKRMBudget: the KRM function's Instance items are bounded by the
// render's budget of instances before any is read.
func TestKRMBudget(t *testing.T) {
	dir := t.TempDir()
	pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
	var items strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&items, "- {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: i%d, namespace: ns}, spec: {operatorVersion: {name: hostile-0.1.0}}}\n", i)
	}
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items.String() +
		"functionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n  kind: FrameworkRender\n  metadata: {name: x}\n  spec:\n    operators:\n      hostile-0.1.0: {path: pkg}\n"
	tc := hostileCase{class: "render budget", reason: "20,000 Instance items in a 2 MB ResourceList"}
	r := runCase(t, dir, "", nil, nil, []byte(in))
	t.Logf("%s: %d bytes in, exit %d, peak RSS %d MiB, %s", tc.class, len(in), r.code, r.rss>>20, r.took)
	checkBounds(t, tc, r)
	want := "the ResourceList (20000 instances): render instances exceeds the limit of 2000 instances (raise it with --max-render-instances"
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("%s: exit %d, want 1 and %q in stderr:\n%s", tc.reason, r.code, want, head(r.stderr))
	}
}
