package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp/cmpopts"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// mapFS builds an in-memory bundle from file name to text.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	return fsys
}

// writeDir writes files below a new temporary folder named dirName and
// returns the folder.
func writeDir(t *testing.T, dirName string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), dirName)
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// with returns a copy of files with some replaced; an empty text removes
// the file.
func with(files map[string]string, replace map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range files {
		out[k] = v
	}
	for k, v := range replace {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

const kudoOperator = `apiVersion: kudo.dev/v1beta1
name: "cowsay"
operatorVersion: "0.2.0"
appVersion: 1.0.0
kudoVersion: 0.19.0
kubernetesVersion: 1.13.0
description: Says moo.
maintainers:
  - name: zen-dog
    email: adukhovniy@D2iQ.com
  - Bob <bob@example.com>
url: https://kudo.dev
tasks:
  - name: app
    kind: Apply
    spec:
      resources:
        - deployment.yaml
        - config/cm.yaml
  - name: genwww
    kind: Pipe
    spec:
      pod: pipe-pod.yaml
      pipe:
        - file: /tmp/index.html
          kind: ConfigMap
          key: indexHtml
  - name: metrics
    kind: Toggle
    spec:
      parameter: METRICS
      resources: [metrics.yaml]
  - name: cleanup
    kind: Delete
    spec:
      resources: [config/cm.yaml]
  - name: noop
    kind: Dummy
    spec:
      done: true
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: parallel
        steps:
          - name: genfiles
            tasks: [genwww]
          - name: app
            tasks: [app, metrics]
  cleanup:
    strategy: serial
    phases:
      - name: cleanup
        strategy: serial
        steps:
          - name: cleanup
            tasks: [cleanup, noop]
`

const kudoParams = `apiVersion: kudo.dev/v1beta1
groups:
  - name: main
    displayName: Main
    priority: 1
parameters:
  - name: REPLICAS
    displayName: Replicas
    description: How many.
    hint: A number.
    group: main
    type: integer
    default: 1000000
  - name: PASSWORD
    immutable: true
  - name: METRICS
    type: boolean
    default: "false"
    trigger: deploy
  - name: RATIO
    type: number
    default: 1.0
    required: true
  - name: MODE
    default: fast
    enum: [fast, slow]
  - name: OPTIONAL
    required: false
  - name: LIST
    type: array
    default: [a, b]
  - name: MAP
    type: map
    default: {k: v}
`

func kudoFiles() map[string]string {
	return map[string]string{
		"operator.yaml":             kudoOperator,
		"params.yaml":               kudoParams,
		"templates/deployment.yaml": "kind: Deployment\n",
		"templates/config/cm.yaml":  "kind: ConfigMap\n",
		"templates/pipe-pod.yaml":   "kind: Pod\n",
		"templates/metrics.yaml":    "kind: Service\n",
	}
}

const frameworkYAML = `# KEP-0009 framework bundle
name: mysql
description: MySQL.
version: "5.7"
appVersion: 5.7.44
kudoVersion: ">= 0.2.0"
kubeVersion: ">= 1.14"
maintainers:
  - Bob <bob@example.com>
  - Alice Smith <alice@example.com>
  - Nobody
url: https://example.com
tasks:
  init:
    resources:
      - jobs/init.yaml
  deploy:
    resources:
      - deployment.yaml
    patches:
      - patch.yaml
      - path: json.yaml
        target: {kind: Deployment, name: "{{ .Name }}"}
    patchesStrategicMerge:
      - smp.yaml
  monitoring:
    kind: Toggle
    parameter: monitoring
    resources:
      - monitor.yaml
plans:
  deploy:
    steps:
      - name: deploy
        tasks:
          - deploy
          - monitoring
      - name: init
        tasks:
          - init
      - name: cleanup
        tasks:
          - init
        delete: true
  backup:
    steps:
      - name: backup
        tasks: [init]
`

const frameworkParams = `# KEP-0009: a map of name to definition, in file order
storage:
  default: 1Gi
  description: Size.
password:
  description: Password.
monitoring:
  type: boolean
  default: "false"
`

func frameworkFiles() map[string]string {
	return map[string]string{
		"framework.yaml":            frameworkYAML,
		"params.yaml":               frameworkParams,
		"templates/deployment.yaml": "kind: Deployment\n",
		"templates/jobs/init.yaml":  "kind: Job\n",
		"templates/patch.yaml":      "kind: Deployment\n",
		"templates/smp.yaml":        "kind: Deployment\n",
		"templates/json.yaml":       "- op: remove\n  path: /spec/replicas\n",
		"templates/monitor.yaml":    "kind: ServiceMonitor\n",
		"common/priorityclass.yaml": "kind: PriorityClass\n",
		"common/sub/ns.yaml":        "kind: Namespace\n",
	}
}

// fields is the set of field names a parameter wrote.
func fields(names ...string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// lineOf is the 1-based line where needle starts in text.
func lineOf(text, needle string) int {
	i := strings.Index(text, needle)
	if i < 0 {
		panic("lineOf: " + needle + " not found")
	}
	return 1 + strings.Count(text[:i], "\n")
}

func templates(files map[string]string, dir string) map[string][]byte {
	out := map[string][]byte{}
	for name, text := range files {
		if rest, ok := strings.CutPrefix(name, dir+"/"); ok {
			out[rest] = []byte(text)
		}
	}
	return out
}

func TestLoadModel(t *testing.T) {
	kudoWant := &bundle.Bundle{
		Format: bundle.FormatKUDO, File: "operator.yaml",
		Name: "cowsay", Version: "0.2.0", AppVersion: "1.0.0", KudoVersion: "0.19.0",
		KubernetesVersion: "1.13.0", Description: "Says moo.", URL: "https://kudo.dev",
		Maintainers: []bundle.Maintainer{
			{Name: "zen-dog", Email: "adukhovniy@D2iQ.com"},
			{Name: "Bob", Email: "bob@example.com"},
		},
		Tasks: []*bundle.Task{
			{Name: "app", Kind: bundle.KindApply, Resources: []string{"deployment.yaml", "config/cm.yaml"}, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "- name: app")}},
			{Name: "genwww", Kind: bundle.KindPipe, Pod: "pipe-pod.yaml", Pipe: []bundle.PipeFile{{File: "/tmp/index.html", Kind: "ConfigMap", Key: "indexHtml"}}, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "- name: genwww")}},
			{Name: "metrics", Kind: bundle.KindToggle, Parameter: "METRICS", Resources: []string{"metrics.yaml"}, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "- name: metrics")}},
			{Name: "cleanup", Kind: bundle.KindDelete, Resources: []string{"config/cm.yaml"}, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "- name: cleanup")}},
			{Name: "noop", Kind: bundle.KindDummy, Done: true, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "- name: noop")}},
		},
		Plans: []*bundle.Plan{
			{Name: "cleanup", Strategy: "serial", StrategyLine: lineOf(kudoOperator, "  cleanup:\n") + 1, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "  cleanup:\n") + 1}, Phases: []*bundle.Phase{
				{Name: "cleanup", Strategy: "serial", StrategyLine: lineOf(kudoOperator, "      - name: cleanup\n") + 1, Steps: []*bundle.Step{{Name: "cleanup", Tasks: []string{"cleanup", "noop"}}}},
			}},
			{Name: "deploy", Strategy: "serial", StrategyLine: lineOf(kudoOperator, "  deploy:\n") + 1, Pos: bundle.Pos{File: "operator.yaml", Line: lineOf(kudoOperator, "  deploy:\n") + 1}, Phases: []*bundle.Phase{
				{Name: "main", Strategy: "parallel", StrategyLine: lineOf(kudoOperator, "        strategy: parallel"), Steps: []*bundle.Step{
					{Name: "genfiles", Tasks: []string{"genwww"}},
					{Name: "app", Tasks: []string{"app", "metrics"}},
				}},
			}},
		},
		Params: []*bundle.Param{
			{Name: "REPLICAS", DisplayName: "Replicas", Description: "How many.", Hint: "A number.", Group: "main", Type: bundle.TypeInteger, Default: "1000000", Fields: fields("name", "displayName", "description", "hint", "group", "type", "default"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: REPLICAS")}},
			{Name: "PASSWORD", Type: bundle.TypeString, Immutable: true, Required: true, Fields: fields("name", "immutable"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: PASSWORD")}},
			{Name: "METRICS", Type: bundle.TypeBoolean, Default: "false", Trigger: "deploy", Fields: fields("name", "type", "default", "trigger"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: METRICS")}},
			{Name: "RATIO", Type: bundle.TypeNumber, Default: "1.0", Required: true, Fields: fields("name", "type", "default", "required"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: RATIO")}},
			{Name: "MODE", Type: bundle.TypeString, Default: "fast", Enum: []any{"fast", "slow"}, Fields: fields("name", "default", "enum"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: MODE")}},
			{Name: "OPTIONAL", Type: bundle.TypeString, Fields: fields("name", "required"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: OPTIONAL")}},
			{Name: "LIST", Type: bundle.TypeArray, Default: []any{"a", "b"}, Fields: fields("name", "type", "default"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: LIST")}},
			{Name: "MAP", Type: bundle.TypeMap, Default: map[string]any{"k": "v"}, Fields: fields("name", "type", "default"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, "- name: MAP")}},
		},
		Groups:    []bundle.Group{{Name: "main", DisplayName: "Main", Priority: 1}},
		Templates: templates(kudoFiles(), "templates"),
		Common:    map[string][]byte{},
	}
	fwWant := &bundle.Bundle{
		Format: bundle.FormatFramework, File: "framework.yaml",
		Name: "mysql", Version: "5.7", AppVersion: "5.7.44", KudoVersion: ">= 0.2.0",
		KubernetesVersion: ">= 1.14", Description: "MySQL.", URL: "https://example.com",
		Maintainers: []bundle.Maintainer{
			{Name: "Bob", Email: "bob@example.com"},
			{Name: "Alice Smith", Email: "alice@example.com"},
			{Name: "Nobody"},
		},
		Tasks: []*bundle.Task{ // sorted by name
			{Name: "deploy", Kind: bundle.KindApply, Resources: []string{"deployment.yaml"}, Patches: []bundle.Patch{{Path: "patch.yaml"}, {Path: "json.yaml", Target: &bundle.PatchTarget{Kind: "Deployment", Name: "{{ .Name }}"}}}, PatchesStrategicMerge: []string{"smp.yaml"}, Pos: bundle.Pos{File: "framework.yaml", Line: lineOf(frameworkYAML, "  deploy:\n") + 1}},
			{Name: "init", Kind: bundle.KindApply, Resources: []string{"jobs/init.yaml"}, Pos: bundle.Pos{File: "framework.yaml", Line: lineOf(frameworkYAML, "  init:\n") + 1}},
			{Name: "monitoring", Kind: bundle.KindToggle, Parameter: "monitoring", Resources: []string{"monitor.yaml"}, Pos: bundle.Pos{File: "framework.yaml", Line: lineOf(frameworkYAML, "  monitoring:\n") + 1}},
		},
		Plans: []*bundle.Plan{
			{Name: "backup", Strategy: "serial", Pos: bundle.Pos{File: "framework.yaml", Line: lineOf(frameworkYAML, "  backup:\n") + 1}, Phases: []*bundle.Phase{
				{Name: "backup", Strategy: "serial", Steps: []*bundle.Step{{Name: "backup", Tasks: []string{"init"}}}},
			}},
			{Name: "deploy", Strategy: "serial", Pos: bundle.Pos{File: "framework.yaml", Line: lineOf(frameworkYAML, "plans:\n  deploy:\n") + 2}, Phases: []*bundle.Phase{
				{Name: "deploy", Strategy: "serial", Steps: []*bundle.Step{
					{Name: "deploy", Tasks: []string{"deploy", "monitoring"}},
					{Name: "init", Tasks: []string{"init"}},
					{Name: "cleanup", Tasks: []string{"init"}, Delete: true},
				}},
			}},
		},
		Params: []*bundle.Param{ // file order, not sorted
			{Name: "storage", Type: bundle.TypeString, Default: "1Gi", Description: "Size.", Fields: fields("default", "description"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(frameworkParams, "storage:")}},
			{Name: "password", Type: bundle.TypeString, Description: "Password.", Required: true, Fields: fields("description"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(frameworkParams, "password:")}},
			{Name: "monitoring", Type: bundle.TypeBoolean, Default: "false", Fields: fields("type", "default"), Pos: bundle.Pos{File: "params.yaml", Line: lineOf(frameworkParams, "monitoring:")}},
		},
		Templates: templates(frameworkFiles(), "templates"),
		Common:    templates(frameworkFiles(), "common"),
	}

	cases := map[string]struct {
		reason string
		files  map[string]string
		want   *bundle.Bundle
	}{
		"KUDO": {
			reason: "A KUDO package loads tasks in file order, plans sorted by name, params in file order with text defaults and effective required, maintainers in both forms, and templates keyed by their path below templates/.",
			files:  kudoFiles(),
			want:   kudoWant,
		},
		"Framework": {
			reason: "A KEP-0009 bundle loads tasks sorted by name (Apply by default), each plan as one serial phase with delete steps, params in file order, maintainers as \"Name <email>\", templates and common/ with subfolders.",
			files:  frameworkFiles(),
			want:   fwWant,
		},
		"Minimal": {
			reason: "params.yaml and common/ are optional; an empty params.yaml counts as none.",
			files: map[string]string{
				"framework.yaml":   "name: min\nversion: \"1\"\ntasks: {app: {resources: [a.yaml]}}\nplans: {deploy: {steps: [{name: s, tasks: [app]}]}}\n",
				"params.yaml":      "\n",
				"templates/a.yaml": "kind: ConfigMap\n",
			},
			want: &bundle.Bundle{
				Format: bundle.FormatFramework, File: "framework.yaml", Name: "min", Version: "1",
				Tasks: []*bundle.Task{{Name: "app", Kind: bundle.KindApply, Resources: []string{"a.yaml"}, Pos: bundle.Pos{File: "framework.yaml", Line: 3}}},
				Plans: []*bundle.Plan{{Name: "deploy", Strategy: bundle.StrategySerial, Pos: bundle.Pos{File: "framework.yaml", Line: 4}, Phases: []*bundle.Phase{
					{Name: "deploy", Strategy: bundle.StrategySerial, Steps: []*bundle.Step{{Name: "s", Tasks: []string{"app"}}}},
				}}},
				Templates: map[string][]byte{"a.yaml": []byte("kind: ConfigMap\n")},
				Common:    map[string][]byte{},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := bundle.Load(mapFS(tc.files), "folder")
			if err != nil {
				t.Fatalf("\n%s\nLoad(...): %v", tc.reason, err)
			}
			// TaskLines are checked by TestErrorsPointAtTheMistake.
			assert.Check(t, is.DeepEqual(tc.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(bundle.Step{}, "TaskLines"), cmpopts.IgnoreFields(bundle.Param{}, "DefaultPos")), "%s\nLoad(...)", tc.reason)
		})
	}
}

func TestLoadDirModel(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		format bundle.Format
	}{
		"KUDO": {
			reason: "LoadDir reads a KUDO package from disk like Load from an fs.FS.",
			files:  kudoFiles(),
			format: bundle.FormatKUDO,
		},
		"Framework": {
			reason: "LoadDir reads a framework bundle from disk like Load from an fs.FS.",
			files:  frameworkFiles(),
			format: bundle.FormatFramework,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeDir(t, "pkg", tc.files)
			got, err := bundle.LoadDir(dir)
			if err != nil {
				t.Fatalf("\n%s\nLoadDir(...): %v", tc.reason, err)
			}
			want, err := bundle.Load(mapFS(tc.files), "pkg")
			if err != nil {
				t.Fatalf("\n%s\nLoad(...): %v", tc.reason, err)
			}
			if got.Format != tc.format {
				t.Errorf("\n%s\nLoadDir(...): want format %q, got %q", tc.reason, tc.format, got.Format)
			}
			assert.Check(t, is.DeepEqual(want, got, cmpopts.EquateEmpty()), "%s\nLoadDir(...)", tc.reason)
		})
	}
}

func TestParamRequired(t *testing.T) {
	cases := map[string]struct {
		reason string
		params string
		want   map[string]bool
	}{
		"KUDO": {
			reason: "Without `required`, a parameter is required exactly when it has no default (KUDO's rule); an explicit value wins.",
			params: `parameters:
  - name: NO_DEFAULT
  - name: WITH_DEFAULT
    default: x
  - name: EMPTY_DEFAULT
    default: ""
  - name: NULL_DEFAULT
    default: null
  - name: EXPLICIT_FALSE
    required: false
  - name: EXPLICIT_TRUE
    default: x
    required: true
`,
			want: map[string]bool{
				"NO_DEFAULT": true, "WITH_DEFAULT": false, "EMPTY_DEFAULT": false,
				"NULL_DEFAULT": true, "EXPLICIT_FALSE": false, "EXPLICIT_TRUE": true,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			files := with(kudoFiles(), map[string]string{"params.yaml": tc.params, "operator.yaml": strings.ReplaceAll(kudoOperator, "parameter: METRICS", "parameter: NO_DEFAULT")})
			b, err := bundle.Load(mapFS(files), "pkg")
			if err != nil {
				t.Fatalf("\n%s\nLoad(...): %v", tc.reason, err)
			}
			got := map[string]bool{}
			for _, p := range b.Params {
				got[p.Name] = p.Required
			}
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nLoad(...)", tc.reason)
		})
	}
}

func TestBundleLookups(t *testing.T) {
	b, err := bundle.Load(mapFS(kudoFiles()), "pkg")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		got    bool
		want   bool
	}{
		"TaskFound":    {reason: "Task finds a defined task.", got: b.Task("genwww") != nil, want: true},
		"TaskMissing":  {reason: "Task returns nil for an undefined task.", got: b.Task("nope") != nil, want: false},
		"PlanFound":    {reason: "Plan finds a defined plan.", got: b.Plan("cleanup") != nil, want: true},
		"PlanMissing":  {reason: "Plan returns nil for an undefined plan.", got: b.Plan("nope") != nil, want: false},
		"ParamFound":   {reason: "Param finds a defined parameter.", got: b.Param("MODE") != nil, want: true},
		"ParamMissing": {reason: "Param returns nil for an undefined parameter.", got: b.Param("mode") != nil, want: false},
		"ID":           {reason: "ID is name@version.", got: b.ID() == "cowsay@0.2.0", want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("\n%s\nwant %t, got %t", tc.reason, tc.want, tc.got)
			}
		})
	}
}

// problem is a LoadError problem without its message.
type problem struct {
	File  string
	Line  int
	Field string
}

// loadProblems returns the problems of err, which must be a *LoadError.
func loadProblems(t *testing.T, err error) ([]problem, []string) {
	t.Helper()
	var le *bundle.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("want *bundle.LoadError, got %T: %v", err, err)
	}
	var ps []problem
	var msgs []string
	for _, p := range le.Problems {
		ps = append(ps, problem{File: p.File, Line: p.Line, Field: p.Field})
		msgs = append(msgs, p.Msg)
	}
	return ps, msgs
}

// at is a wanted problem: the line is where At starts in the final text
// of File ("" for no line).
type at struct {
	File  string
	At    string
	Field string
}

func TestLoadErrors(t *testing.T) {
	type want struct {
		framework string
		problems  []at
		msgs      []string // msgs[i] must be part of problem i's message
	}
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   want
		// lenient cases are unknown fields of KUDO v1beta1 files: KUDO
		// ignored them, so the load succeeds with warnings.
		lenient bool
	}{
		"UnknownFieldInTaskSpec": {
			reason:  "A typo in a KUDO task spec names operator.yaml, its line and the path tasks[1].spec.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "      pod: pipe-pod.yaml\n", "      pod: pipe-pod.yaml\n      resourcs: [x.yaml]\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "resourcs", Field: "tasks[1].spec.resourcs"}},
				msgs:      []string{`unknown field "resourcs"`},
			},
		},
		"UnknownTopLevelField": {
			reason:  "A typo at the top of operator.yaml is reported with the key as its field path.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "url: https://kudo.dev\n", "url: https://kudo.dev\nplan: {}\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "plan: {}", Field: "plan"}},
				msgs:      []string{`unknown field "plan"`},
			},
		},
		"UnknownFieldInPhase": {
			reason:  "A typo in a phase names the plan and phase index.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "        strategy: parallel\n", "        strategy: parallel\n        stpes: []\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "stpes", Field: "plans.deploy.phases[0].stpes"}},
				msgs:      []string{`unknown field "stpes"`},
			},
		},
		"UnknownFieldInPipeFile": {
			reason:  "A typo in a pipe file names its index.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "          key: indexHtml\n", "          key: indexHtml\n          kye: x\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "kye", Field: "tasks[1].spec.pipe[0].kye"}},
				msgs:      []string{`unknown field "kye"`},
			},
		},
		"UnknownFieldInKUDOParams": {
			reason:  "A typo in KUDO params.yaml names the parameter's index; the package name is known by then.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"params.yaml": strings.Replace(kudoParams, "    immutable: true\n", "    immutable: true\n    defualt: x\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "params.yaml", At: "defualt", Field: "parameters[1].defualt"}},
				msgs:      []string{`unknown field "defualt"`},
			},
		},
		"UnknownFieldInKUDOGroup": {
			reason:  "A typo in a parameter group names the group's index.",
			lenient: true,
			files:   with(kudoFiles(), map[string]string{"params.yaml": strings.Replace(kudoParams, "    priority: 1\n", "    priorty: 1\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "params.yaml", At: "priorty", Field: "groups[0].priorty"}},
				msgs:      []string{`unknown field "priorty"`},
			},
		},
		"UnknownFieldInFrameworkTask": {
			reason: "A typo in a framework task names tasks.<name>.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "      - jobs/init.yaml\n", "      - jobs/init.yaml\n    resource: [x.yaml]\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "resource:", Field: "tasks.init.resource"}},
				msgs:      []string{`unknown field "resource"`},
			},
		},
		"UnknownFieldInFrameworkPatch": {
			reason: "A typo in a {path, target} patch entry names the entry.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "        target: {kind: Deployment", "        traget: {kind: Deployment", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "traget", Field: "tasks.deploy.patches[1].traget"}},
				msgs:      []string{`unknown field "traget"`},
			},
		},
		"UnknownFieldInFrameworkStep": {
			reason: "A typo in a framework step (delet for delete) names plans.<name>.steps[i].",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "        delete: true\n", "        delet: true\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "delet", Field: "plans.deploy.steps[2].delet"}},
				msgs:      []string{`unknown field "delet"`},
			},
		},
		"UnknownFieldInExtends": {
			reason: "extends is decoded strictly too.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": frameworkYAML + "extends:\n  kudo: {framework: base, verison: 1}\n"}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "kudo: {", Field: "extends.kudo.verison"}},
				msgs:      []string{`unknown field "verison"`},
			},
		},
		"TypeErrors": {
			reason: "Type errors carry their line; unknown fields of a KUDO file are only warnings beside them.",
			files: with(kudoFiles(), map[string]string{"operator.yaml": strings.NewReplacer(
				"      done: true\n", "      done: maybe\n",
				"    strategy: serial\n    phases:\n      - name: main\n", "    strategy: serial\n    phasse: []\n    phases:\n      - name: main\n",
				"  - name: app\n    kind: Apply\n", "  - name: app\n    knd: Apply\n    kind: Apply\n",
			).Replace(kudoOperator)}),
			want: want{
				framework: "cowsay",
				problems: []at{
					{File: "operator.yaml", At: "done: maybe", Field: "tasks[4].spec.done"},
				},
				msgs: []string{`expected a boolean, got str "maybe"`},
			},
		},
		"ParamTypeError": {
			reason: "A type error in params.yaml carries its line.",
			files:  with(kudoFiles(), map[string]string{"params.yaml": strings.Replace(kudoParams, "    immutable: true\n", "    immutable: sometimes\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "params.yaml", At: "    immutable: sometimes", Field: "parameters[1].immutable"}},
				msgs:      []string{`expected a boolean, got str "sometimes"`},
			},
		},
		"FrameworkParamTypeError": {
			reason: "A type error in a KEP-0009 params.yaml carries its line and names the parameter.",
			files:  with(frameworkFiles(), map[string]string{"params.yaml": frameworkParams + "extra:\n  required: sometimes\n"}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "params.yaml", At: "  required: sometimes", Field: "extra.required"}},
				msgs:      []string{`expected a boolean, got str "sometimes"`},
			},
		},
		"FrameworkParamsNotAMap": {
			reason: "A KEP-0009 params.yaml must be a mapping of name to definition.",
			files:  with(frameworkFiles(), map[string]string{"params.yaml": "- name: storage\n"}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "params.yaml", At: "- name"}},
				msgs:      []string{"expected a mapping of parameter name to definition"},
			},
		},
		"FrameworkParamNameDiffers": {
			reason: "A KEP-0009 parameter's name, if given, must match its key.",
			files:  with(frameworkFiles(), map[string]string{"params.yaml": frameworkParams + "extra:\n  name: other\n"}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "params.yaml", At: "extra:", Field: "extra.name"}},
				msgs:      []string{`differs from the key "extra"`},
			},
		},
		"SyntaxError": {
			reason: "A YAML syntax error names the file and line; the folder name stands for the unknown package name.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": "name: x\nurl: \"unterminated\n"}),
			want: want{
				framework: "folder",
				problems:  []at{{File: "operator.yaml", At: "url:"}},
				msgs:      []string{"found unexpected end of stream"},
			},
		},
		"EmptyOperator": {
			reason: "An empty operator.yaml is an error.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": "# nothing\n"}),
			want: want{
				framework: "folder",
				problems:  []at{{File: "operator.yaml"}},
				msgs:      []string{"file is empty"},
			},
		},
		"DuplicateFrameworkTask": {
			reason: "A framework task defined twice is a duplicate mapping key with its line.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "  deploy:\n    resources:\n", "  init:\n    resources: [deployment.yaml]\n  deploy:\n    resources:\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "  init:\n    resources: [deployment.yaml]"}},
				msgs:      []string{`mapping key "init" already defined at line`},
			},
		},
		"Required": {
			reason: "name and operatorVersion are required in operator.yaml; they point at the top mapping.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": "apiVersion: kudo.dev/v1beta1\n"}),
			want: want{
				framework: "folder",
				problems:  []at{{File: "operator.yaml", At: "apiVersion", Field: "name"}, {File: "operator.yaml", At: "apiVersion", Field: "operatorVersion"}},
				msgs:      []string{"is required", "is required"},
			},
		},
		"FrameworkRequired": {
			reason: "name and version are required in framework.yaml.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": "description: x\n"}),
			want: want{
				framework: "folder",
				problems:  []at{{File: "framework.yaml", At: "description", Field: "name"}, {File: "framework.yaml", At: "description", Field: "version"}},
				msgs:      []string{"is required", "is required"},
			},
		},
		"NamespaceManifest": {
			reason: "namespaceManifest is refused: GitOps tools create namespaces.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": kudoOperator + "namespaceManifest: ns.yaml\n"}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "namespaceManifest", Field: "namespaceManifest"}},
				msgs:      []string{"is not supported"},
			},
		},
		"SpecFieldOfOtherKind": {
			reason: "A spec field that the task's kind does not use is an error naming the field and task.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "      done: true\n", "      done: true\n      resources: [deployment.yaml]\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: noop", Field: "tasks[4].spec.resources"}},
				msgs:      []string{`is not used by a Dummy task (task "noop")`},
			},
		},
		"BothFormats": {
			reason: "A folder with both operator.yaml and framework.yaml is ambiguous.",
			files:  with(kudoFiles(), map[string]string{"framework.yaml": frameworkYAML}),
			want: want{
				framework: "folder",
				problems:  []at{{File: "."}},
				msgs:      []string{"both operator.yaml and framework.yaml exist"},
			},
		},
		"NoFormat": {
			reason: "A folder with neither file is not a bundle.",
			files:  map[string]string{"params.yaml": kudoParams},
			want: want{
				framework: "folder",
				problems:  []at{{File: "."}},
				msgs:      []string{"neither operator.yaml nor framework.yaml found"},
			},
		},
		"UndefinedTaskInPlan": {
			reason: "A plan step naming an undefined task names the plan, phase, step and task index, at the line of the task's name.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "tasks: [app, metrics]", "tasks: [app, metrcs]", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "tasks: [app, metrcs]", Field: "plans.deploy.phases[0].steps[1].tasks[1]"}},
				msgs:      []string{`plan "deploy" uses task "metrcs", which is not defined`},
			},
		},
		"UndefinedTaskInFrameworkPlan": {
			reason: "In a framework bundle the field path has no phase.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "        tasks: [init]\n", "        tasks: [bakup]\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "        tasks: [bakup]", Field: "plans.backup.steps[0].tasks[0]"}},
				msgs:      []string{`plan "backup" uses task "bakup", which is not defined`},
			},
		},
		"MissingTemplate": {
			reason: "A resource that is not in templates/ names the task and template.",
			files:  with(kudoFiles(), map[string]string{"templates/metrics.yaml": ""}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: metrics", Field: "tasks[2].resources[0]"}},
				msgs:      []string{`task "metrics" uses template "metrics.yaml", which is not in templates/`},
			},
		},
		"MissingPatch": {
			reason: "Patches must exist in templates/ too.",
			files:  with(frameworkFiles(), map[string]string{"templates/smp.yaml": "", "templates/json.yaml": ""}),
			want: want{
				framework: "mysql",
				problems: []at{
					{File: "framework.yaml", At: "    resources:\n      - deployment.yaml", Field: "tasks.deploy.patches[1]"},
					{File: "framework.yaml", At: "    resources:\n      - deployment.yaml", Field: "tasks.deploy.patchesStrategicMerge[0]"},
				},
				msgs: []string{`task "deploy" uses template "json.yaml"`, `task "deploy" uses template "smp.yaml"`},
			},
		},
		"PatchWithoutPath": {
			reason: "A {path, target} patch entry needs its path.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "      - path: json.yaml\n        target:", "      - target:", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "target: {kind", Field: "tasks.deploy.patches[1].path"}},
				msgs:      []string{"is required"},
			},
		},
		"MissingPipePod": {
			reason: "The pod template of a Pipe task must exist.",
			files:  with(kudoFiles(), map[string]string{"templates/pipe-pod.yaml": ""}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: genwww", Field: "tasks[1].spec.pod"}},
				msgs:      []string{`uses template "pipe-pod.yaml"`},
			},
		},
		"DuplicateTask": {
			reason: "A KUDO task name used twice is reported at the second task.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "  - name: noop\n", "  - name: app\n", 1)}),
			want: want{
				framework: "cowsay",
				problems: []at{
					{File: "operator.yaml", At: "  - name: app\n    kind: Dummy", Field: "tasks[4].name"},
					{File: "operator.yaml", At: "tasks: [cleanup, noop]", Field: "plans.cleanup.phases[0].steps[0].tasks[1]"},
				},
				msgs: []string{`task "app" is defined twice`, `uses task "noop", which is not defined`},
			},
		},
		"DuplicateParam": {
			reason: "A parameter defined twice is reported at the second definition.",
			files:  with(kudoFiles(), map[string]string{"params.yaml": strings.Replace(kudoParams, "  - name: OPTIONAL\n", "  - name: MODE\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "params.yaml", At: "  - name: MODE\n    required", Field: "MODE"}},
				msgs:      []string{"parameter is defined twice"},
			},
		},
		"ToggleWithoutParameter": {
			reason: "A Toggle task needs a parameter.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "      parameter: METRICS\n", "", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: metrics", Field: "tasks[2].spec.parameter"}},
				msgs:      []string{`Toggle task "metrics" needs a parameter`},
			},
		},
		"ToggleUndefinedParameter": {
			reason: "A Toggle task's parameter must be defined in params.yaml.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "parameter: METRICS", "parameter: METRIX", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: metrics", Field: "tasks[2].spec.parameter"}},
				msgs:      []string{`uses parameter "METRIX", which params.yaml does not define`},
			},
		},
		"UnknownKind": {
			reason: "An unknown KUDO task kind names the task and the kind.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "    kind: Delete\n", "    kind: Remove\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: cleanup", Field: "tasks[3].kind"}},
				msgs:      []string{`task "cleanup" has unknown kind "Remove"`},
			},
		},
		"MissingKind": {
			reason: "A KUDO task without a kind is an error.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "    kind: Delete\n", "", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: cleanup", Field: "tasks[3].kind"}},
				msgs:      []string{`task "cleanup" has no kind`},
			},
		},
		"PipeFileKind": {
			reason: "A pipe file's kind must be Secret or ConfigMap.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "kind: ConfigMap", "kind: Deployment", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: genwww", Field: "tasks[1].spec.pipe[0].kind"}},
				msgs:      []string{`must be Secret or ConfigMap, got "Deployment"`},
			},
		},
		"PipeWithoutFiles": {
			reason: "A Pipe task without files and without a pod is reported twice.",
			files: with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator,
				"      pod: pipe-pod.yaml\n      pipe:\n        - file: /tmp/index.html\n          kind: ConfigMap\n          key: indexHtml\n", "      pipe: []\n", 1)}),
			want: want{
				framework: "cowsay",
				problems: []at{
					{File: "operator.yaml", At: "- name: genwww", Field: "tasks[1].spec.pod"},
					{File: "operator.yaml", At: "- name: genwww", Field: "tasks[1].spec.pipe"},
				},
				msgs: []string{"needs a pod template", "needs at least one file"},
			},
		},
		"PipeKindInFramework": {
			reason: "Framework bundles only have Apply, Delete and Toggle tasks.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "  init:\n    resources:\n", "  init:\n    kind: Pipe\n    resources:\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "    kind: Pipe", Field: "tasks.init.kind"}},
				msgs:      []string{`must be Apply, Delete or Toggle in a framework bundle, got "Pipe"`},
			},
		},
		"ParameterOnFrameworkApply": {
			reason: "parameter is only used by framework Toggle tasks.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "  init:\n    resources:\n", "  init:\n    parameter: storage\n    resources:\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "    parameter: storage", Field: "tasks.init.parameter"}},
				msgs:      []string{"is only used by Toggle tasks"},
			},
		},
		"UnknownParamType": {
			reason: "A parameter type outside KUDO's list is an error.",
			files:  with(kudoFiles(), map[string]string{"params.yaml": strings.Replace(kudoParams, "    type: integer\n", "    type: int\n", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "params.yaml", At: "    type: int\n", Field: "parameters[0].type"}},
				msgs:      []string{`unknown type "int"; did you mean "integer"?`},
			},
		},
		"ParentDirResource": {
			reason: "A resource reference with .. is rejected before any file is read.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "resources: [metrics.yaml]", "resources: [../x.yaml]", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: metrics", Field: "tasks[2].resources[0]"}},
				msgs:      []string{`"../x.yaml": must be a clean relative path without ".."`},
			},
		},
		"AbsoluteResource": {
			reason: "An absolute resource reference is rejected.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "      - jobs/init.yaml\n", "      - /etc/passwd\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "    resources:\n      - /etc/passwd", Field: "tasks.init.resources[0]"}},
				msgs:      []string{`"/etc/passwd": absolute paths are not allowed`},
			},
		},
		"NestedParentDirResource": {
			reason: "A path that climbs out through a subfolder is rejected as well.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "      - jobs/init.yaml\n", "      - jobs/../../secret.yaml\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "    resources:\n      - jobs/../", Field: "tasks.init.resources[0]"}},
				msgs:      []string{"paths may not leave the bundle"},
			},
		},
		"ParentDirPipePod": {
			reason: "A pipe pod outside templates/ is rejected.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "pod: pipe-pod.yaml", "pod: ../operator.yaml", 1)}),
			want: want{
				framework: "cowsay",
				problems:  []at{{File: "operator.yaml", At: "- name: genwww", Field: "tasks[1].spec.pod"}},
				msgs:      []string{`"../operator.yaml": must be a clean relative path`},
			},
		},
		"BaseWithoutExtends": {
			reason: "base/ references need `extends`.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "        tasks: [init]\n", "        tasks: [base/init]\n", 1)}),
			want: want{
				framework: "mysql",
				problems:  []at{{File: "framework.yaml", At: "        tasks: [base/init]", Field: "plans.backup.steps[0].tasks[0]"}},
				msgs:      []string{`"base/init"`},
			},
		},
		"AllValidationProblemsAtOnce": {
			reason: "Every validation problem is reported in one error.",
			files: with(kudoFiles(), map[string]string{
				"operator.yaml": strings.NewReplacer(
					"parameter: METRICS", "parameter: METRIX",
					"tasks: [app, metrics]", "tasks: [app, metrcs]",
					"resources: [config/cm.yaml]", "resources: [gone.yaml]",
				).Replace(kudoOperator),
			}),
			want: want{
				framework: "cowsay",
				problems: []at{
					{File: "operator.yaml", At: "- name: metrics", Field: "tasks[2].spec.parameter"},
					{File: "operator.yaml", At: "- name: cleanup", Field: "tasks[3].resources[0]"},
					{File: "operator.yaml", At: "tasks: [app, metrcs]", Field: "plans.deploy.phases[0].steps[1].tasks[1]"},
				},
				msgs: []string{`"METRIX"`, `"gone.yaml"`, `"metrcs"`},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.Load(mapFS(tc.files), "folder")
			if tc.lenient {
				checkWarnings(t, tc.reason, tc.files, b, err, tc.want.problems, tc.want.msgs)
				return
			}
			if b != nil {
				t.Errorf("\n%s\nLoad(...): want nil bundle on error", tc.reason)
			}
			var le *bundle.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("\n%s\nLoad(...): want *bundle.LoadError, got %T: %v", tc.reason, err, err)
			}
			if le.Framework != tc.want.framework {
				t.Errorf("\n%s\nLoad(...): want Framework %q, got %q", tc.reason, tc.want.framework, le.Framework)
			}
			var want []problem
			for _, w := range tc.want.problems {
				p := problem{File: w.File, Field: w.Field}
				if w.At != "" {
					p.Line = lineOf(tc.files[w.File], w.At)
				}
				want = append(want, p)
			}
			got, msgs := loadProblems(t, err)
			assert.Check(t, is.DeepEqual(want, got), "%s\nLoad(...):\n\n%v", tc.reason, err)
			for i, m := range tc.want.msgs {
				if i < len(msgs) && !strings.Contains(msgs[i], m) {
					t.Errorf("\n%s\nLoad(...): problem %d: want message containing %q, got %q", tc.reason, i, m, msgs[i])
				}
			}
			// errors.As reaches each problem through Unwrap.
			var fe *bundle.FieldError
			if !errors.As(err, &fe) || fe != le.Problems[0] {
				t.Errorf("\n%s\nerrors.As(err, *FieldError): want the first problem, got %v", tc.reason, fe)
			}
		})
	}
}

func TestLoadErrorMessage(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    *bundle.LoadError
		want   string
	}{
		"One": {
			reason: "One problem reads on one line.",
			err: &bundle.LoadError{Framework: "zk", Problems: []*bundle.FieldError{
				{File: "operator.yaml", Line: 12, Field: "tasks[1].spec", Msg: `unknown field "resourcs"`},
			}},
			want: `cannot load framework "zk": operator.yaml:12: tasks[1].spec: unknown field "resourcs"`,
		},
		"Several": {
			reason: "Several problems are counted and listed one a line.",
			err: &bundle.LoadError{Framework: "zk", Problems: []*bundle.FieldError{
				{File: "operator.yaml", Line: 1, Msg: "a"},
				{File: "params.yaml", Field: "X", Msg: "b"},
			}},
			want: "cannot load framework \"zk\": 2 problems:\n  operator.yaml:1: a\n  params.yaml: X: b",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.err.Error()), "%s\nError()", tc.reason)
		})
	}
}

func TestLoadDirSymlinks(t *testing.T) {
	type want struct {
		err       bool
		problems  []problem
		msg       string
		templates []string
	}
	cases := map[string]struct {
		reason string
		setup  func(t *testing.T, dir string)
		want   want
	}{
		"LinkInside": {
			reason: "A symbolic link to a file inside the bundle is read like the file.",
			setup: func(t *testing.T, dir string) {
				symlink(t, "../deployment.yaml", filepath.Join(dir, "templates", "config", "link.yaml"))
			},
			want: want{templates: []string{"config/cm.yaml", "config/link.yaml", "deployment.yaml", "metrics.yaml", "pipe-pod.yaml"}},
		},
		"LinkOutside": {
			reason: "A symbolic link in templates/ that points outside the bundle is rejected (os.Root).",
			setup: func(t *testing.T, dir string) {
				outside := filepath.Join(filepath.Dir(dir), "secret.yaml")
				if err := os.WriteFile(outside, []byte("kind: Secret\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				symlink(t, outside, filepath.Join(dir, "templates", "leak.yaml"))
			},
			want: want{err: true, problems: []problem{{File: "templates/leak.yaml"}}, msg: "outside the bundle"},
		},
		"RelativeLinkOutside": {
			reason: "A relative symbolic link that climbs out of the bundle is rejected.",
			setup: func(t *testing.T, dir string) {
				if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.yaml"), []byte("kind: Secret\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				symlink(t, "../../secret.yaml", filepath.Join(dir, "templates", "leak.yaml"))
			},
			want: want{err: true, problems: []problem{{File: "templates/leak.yaml"}}, msg: "outside the bundle"},
		},
		"DanglingLink": {
			reason: "A symbolic link to nothing is rejected.",
			setup: func(t *testing.T, dir string) {
				symlink(t, "nothing.yaml", filepath.Join(dir, "templates", "dangling.yaml"))
			},
			want: want{err: true, problems: []problem{{File: "templates/dangling.yaml"}}, msg: "symbolic link points outside the bundle or to nothing"},
		},
		"LinkToFolder": {
			reason: "A symbolic link to a folder is not followed.",
			setup: func(t *testing.T, dir string) {
				symlink(t, "config", filepath.Join(dir, "templates", "more"))
			},
			want: want{err: true, problems: []problem{{File: "templates/more"}}, msg: "symbolic link to a folder is not supported"},
		},
		"OperatorFIFO": {
			reason: "operator.yaml as a named pipe is refused, never opened (opening it would block until a writer came).",
			setup: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "operator.yaml"))
				mkfifo(t, filepath.Join(dir, "operator.yaml"))
			},
			want: want{err: true, problems: []problem{{File: "operator.yaml"}}, msg: "not a regular file (a named pipe, a device or a folder)"},
		},
		"LinkToFIFO": {
			reason: "A symbolic link in templates/ to a named pipe inside the bundle is refused, never opened.",
			setup: func(t *testing.T, dir string) {
				mkfifo(t, filepath.Join(dir, "pipe"))
				symlink(t, "../pipe", filepath.Join(dir, "templates", "pipe.yaml"))
			},
			want: want{err: true, problems: []problem{{File: "templates/pipe.yaml"}}, msg: "not a regular file"},
		},
		"OperatorLinkOutside": {
			reason: "operator.yaml itself cannot be a link out of the bundle.",
			setup: func(t *testing.T, dir string) {
				outside := filepath.Join(filepath.Dir(dir), "operator.yaml")
				if err := os.Rename(filepath.Join(dir, "operator.yaml"), outside); err != nil {
					t.Fatal(err)
				}
				symlink(t, outside, filepath.Join(dir, "operator.yaml"))
			},
			want: want{err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeDir(t, "cowsay", kudoFiles())
			tc.setup(t, dir)
			b, err := bundle.LoadDir(dir)
			if (err != nil) != tc.want.err {
				t.Fatalf("\n%s\nLoadDir(...): want error %t, got %v", tc.reason, tc.want.err, err)
			}
			if err != nil {
				var le *bundle.LoadError
				if !errors.As(err, &le) {
					t.Fatalf("\n%s\nLoadDir(...): want *bundle.LoadError, got %T", tc.reason, err)
				}
				if tc.want.problems == nil {
					return
				}
				got, msgs := loadProblems(t, err)
				assert.Check(t, is.DeepEqual(tc.want.problems, got), "%s\nLoadDir(...)", tc.reason)
				if len(msgs) > 0 && !strings.Contains(msgs[0], tc.want.msg) {
					t.Errorf("\n%s\nLoadDir(...): want message containing %q, got %q", tc.reason, tc.want.msg, msgs[0])
				}
				for _, m := range msgs {
					if strings.Contains(m, "Secret") {
						t.Errorf("\n%s\nLoadDir(...): the outside file's content leaked into %q", tc.reason, m)
					}
				}
				return
			}
			var got []string
			for k := range b.Templates {
				got = append(got, k)
			}
			assert.Check(t, is.DeepEqual(tc.want.templates, got, cmpopts.SortSlices(func(a, b string) bool {
				return a < b
			})), "%s\nLoadDir(...)", tc.reason)
			if string(b.Templates["config/link.yaml"]) != kudoFiles()["templates/deployment.yaml"] {
				t.Errorf("\n%s\nLoadDir(...): link content %q, want the target's", tc.reason, b.Templates["config/link.yaml"])
			}
		})
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("named pipes not supported here: %v", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links not supported here: %v", err)
	}
}

func TestLoadDirMissing(t *testing.T) {
	_, err := bundle.LoadDir(filepath.Join(t.TempDir(), "nope"))
	var le *bundle.LoadError
	if !errors.As(err, &le) || le.Framework != "nope" {
		t.Fatalf("LoadDir(missing): want *bundle.LoadError for framework \"nope\", got %v", err)
	}
}

func TestCheckRef(t *testing.T) {
	cases := map[string]struct {
		reason string
		ref    string
		want   string // part of the error; "" for none
	}{
		"Plain":       {reason: "A file name is fine.", ref: "a.yaml"},
		"Subfolder":   {reason: "A path into a subfolder is fine.", ref: "jobs/a.yaml"},
		"Empty":       {reason: "An empty name is refused.", ref: "", want: "empty file name"},
		"Absolute":    {reason: "Absolute paths are refused.", ref: "/etc/passwd", want: "absolute paths are not allowed"},
		"Backslash":   {reason: "A leading backslash counts as absolute.", ref: `\x.yaml`, want: "absolute paths are not allowed"},
		"Parent":      {reason: "Parent folders are refused.", ref: "../x.yaml", want: "without \"..\""},
		"InnerParent": {reason: "Parent folders in the middle are refused.", ref: "a/../../x.yaml", want: "without \"..\""},
		"Dot":         {reason: "./ is not clean.", ref: "./x.yaml", want: "clean relative path"},
		"Windows":     {reason: "Backslash separators are refused.", ref: `jobs\x.yaml`, want: "clean relative path"},
		"Trailing":    {reason: "A trailing slash is not clean.", ref: "jobs/", want: "clean relative path"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := bundle.CheckRef(tc.ref)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("\n%s\nCheckRef(%q): want no error, got %v", tc.reason, tc.ref, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("\n%s\nCheckRef(%q): want error containing %q, got %v", tc.reason, tc.ref, tc.want, err)
			}
		})
	}
}

// checkWarnings checks a load that succeeded with warnings.
func checkWarnings(t *testing.T, reason string, files map[string]string, b *bundle.Bundle, err error, problems []at, msgs []string) {
	t.Helper()
	if err != nil {
		t.Fatalf("\n%s\nLoad(...): KUDO ignored unknown fields, want success with warnings, got %v", reason, err)
	}
	var want, got []problem
	for _, w := range problems {
		p := problem{File: w.File, Field: w.Field}
		if w.At != "" {
			p.Line = lineOf(files[w.File], w.At)
		}
		want = append(want, p)
	}
	for i, d := range b.Warnings {
		got = append(got, problem{File: d.File, Line: d.Line, Field: d.Field})
		if i < len(msgs) && !strings.Contains(d.Msg, msgs[i]) {
			t.Errorf("\n%s\nwarning %d: want %q in %q", reason, i, msgs[i], d.Msg)
		}
		if d.Severity != "warning" {
			t.Errorf("\n%s\nwarning %d must be a warning: %+v", reason, i, d)
		}
	}
	assert.Check(t, is.DeepEqual(want, got), "%s\nLoad(...)", reason)
}
