package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// The base package: valid, no findings. Cases replace whole files.
const (
	baseOperator = `apiVersion: kudo.dev/v1beta1
name: op
operatorVersion: 0.1.0
kubernetesVersion: 1.16.0
tasks:
  - name: app
    kind: Apply
    spec:
      resources:
        - cm.yaml
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: app
            tasks:
              - app
`
	baseParams = `apiVersion: kudo.dev/v1beta1
parameters:
  - name: REPLICAS
    default: "1"
`
	baseTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Name }}
data:
  replicas: "{{ .Params.REPLICAS }}"
`
)

// A valid KEP-0009 framework bundle.
const (
	baseFramework = `name: fw
version: "2024.1 beta"
tasks:
  app:
    resources:
      - cm.yaml
plans:
  deploy:
    steps:
      - name: app
        tasks:
          - app
`
	baseFrameworkParams = `REPLICAS:
  default: "1"
`
)

// load writes files into a temporary folder and loads it as a bundle.
func load(t *testing.T, files map[string]string) *bundle.Bundle {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.LoadDir(dir)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return b
}

// kudo is the base KUDO package with some files replaced; an empty text
// removes the file.
func kudo(replace map[string]string) map[string]string {
	files := map[string]string{
		"operator.yaml":     baseOperator,
		"params.yaml":       baseParams,
		"templates/cm.yaml": baseTemplate,
	}
	return with(files, replace)
}

// framework is the base framework bundle with some files replaced.
func framework(replace map[string]string) map[string]string {
	files := map[string]string{
		"framework.yaml":    baseFramework,
		"params.yaml":       baseFrameworkParams,
		"templates/cm.yaml": baseTemplate,
	}
	return with(files, replace)
}

func with(files, replace map[string]string) map[string]string {
	for k, v := range replace {
		if v == "" {
			delete(files, k)
		} else {
			files[k] = v
		}
	}
	return files
}

func errorAt(file string, line int, msg string) Finding {
	return Finding{Severity: Error, File: file, Line: line, Msg: msg}
}

func warningAt(file string, line int, msg string) Finding {
	return Finding{Severity: Warning, File: file, Line: line, Msg: msg}
}

// twoTasks is an operator.yaml whose deploy plan runs app and then the
// task given as YAML (indented as a list item of tasks).
func twoTasks(task, name string) string {
	return `apiVersion: kudo.dev/v1beta1
name: op
operatorVersion: 0.1.0
tasks:
  - name: app
    kind: Apply
    spec:
      resources:
        - cm.yaml
` + task + `plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: app
            tasks:
              - app
              - ` + name + "\n"
}

const pipePod = `apiVersion: v1
kind: Pod
spec:
  volumes:
    - name: shared
      emptyDir: {}
  initContainers:
    - name: init
      image: busybox
      command: ["/bin/sh", "-c", "echo hi > /tmp/out"]
      volumeMounts:
        - name: shared
          mountPath: /tmp
`

func TestBundle(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		// mutate changes the loaded model, for states that loading cannot
		// produce from files.
		mutate func(*bundle.Bundle)
		want   []Finding
	}{
		"Valid": {
			reason: "A small valid package has no findings.",
			files:  kudo(nil),
		},
		"ValidFramework": {
			reason: "A KEP-0009 framework bundle's version is free-form.",
			files:  framework(nil),
		},
		"DuplicateParameterIgnoringCase": {
			reason: "Parameter names are compared case-insensitively, as KUDO does.",
			files: kudo(map[string]string{
				"params.yaml":       baseParams + "  - name: replicas\n    default: \"2\"\n",
				"templates/cm.yaml": baseTemplate + `  other: "{{ .Params.replicas }}"` + "\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 5, `parameter "replicas" has a duplicate: "REPLICAS" (names are compared without case)`),
			},
		},
		"InvalidCharacterInParameterName": {
			reason: "';' and ',' are not allowed in parameter names.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "  - name: A;B\n    default: x\n    trigger: deploy\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 5, `parameter "A;B" contains invalid character ';'`),
			},
		},
		"ParameterNameNotAnIdentifier": {
			reason: "A name with '-' cannot be written as .Params.my-name; it works with index.",
			files: kudo(map[string]string{
				"params.yaml":       baseParams + "  - name: my-name\n    default: x\n",
				"templates/cm.yaml": baseTemplate + `  other: "{{ index .Params "my-name" }}"` + "\n",
			}),
			want: []Finding{
				warningAt("params.yaml", 5, `parameter "my-name" is not a template identifier (letters, digits and _, not starting with a digit): templates cannot write .Params.my-name; use index .Params "my-name"`),
			},
		},
		"OperatorVersionNotSemver": {
			reason: "operatorVersion must be semver.",
			files: kudo(map[string]string{
				"operator.yaml": replaceLine(baseOperator, "operatorVersion: 0.1.0", "operatorVersion: first"),
			}),
			want: []Finding{
				errorAt("operator.yaml", 0, `unable to parse "operatorVersion": "first": invalid semantic version`),
			},
		},
		"KubernetesVersionNotSemver": {
			reason: "kubernetesVersion must be semver when present.",
			files: kudo(map[string]string{
				"operator.yaml": replaceLine(baseOperator, "kubernetesVersion: 1.16.0", "kubernetesVersion: latest"),
			}),
			want: []Finding{
				errorAt("operator.yaml", 0, `unable to parse "kubernetesVersion": "latest": invalid semantic version`),
			},
		},
		"AppVersionNotSemver": {
			reason: "appVersion is optional but must be semver when present, in frameworks too.",
			files: framework(map[string]string{
				"framework.yaml": baseFramework + "appVersion: next\n",
			}),
			want: []Finding{
				errorAt("framework.yaml", 0, `unable to parse "appVersion": "next": invalid semantic version`),
			},
		},
		"EmptyApplyTask": {
			reason: "An Apply task without resources is an error with KUDO's wording.",
			files: kudo(map[string]string{
				"operator.yaml": twoTasks("  - name: nothing\n    kind: Apply\n", "nothing"),
			}),
			want: []Finding{
				errorAt("operator.yaml", 10, "task validation error: apply task 'nothing' has an empty resource list. if that's what you need, use a Dummy task instead"),
			},
		},
		"InvalidPipeKey": {
			reason: "Pipe keys may only hold letters, digits, '_' and '-'.",
			files: kudo(map[string]string{
				"operator.yaml": twoTasks(`  - name: gen
    kind: Pipe
    spec:
      pod: pod.yaml
      pipe:
        - file: /tmp/out
          kind: ConfigMap
          key: out.file
`, "gen"),
				"templates/pod.yaml": pipePod,
			}),
			want: []Finding{
				errorAt("operator.yaml", 10, `task validation error: invalid pipe key (only letters, numbers and _ and - are allowed): "out.file" in task "gen"`),
			},
		},
		"UnusedTask": {
			reason: "A task that no plan runs is a warning.",
			files: kudo(map[string]string{
				"operator.yaml": replaceLine(baseOperator, "plans:", "  - name: spare\n    kind: Dummy\nplans:"),
			}),
			want: []Finding{
				warningAt("operator.yaml", 11, `task "spare" defined but not used`),
			},
		},
		"UnreferencedTemplate": {
			reason: "A template that no task references is a warning (references from other templates are not tracked).",
			files: kudo(map[string]string{
				"templates/extra.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n",
			}),
			want: []Finding{
				warningAt("templates/extra.yaml", 0, `template "extra.yaml" is not referenced from any task`),
			},
		},
		"UnreferencedNonYAMLFile": {
			reason: "A file KUDO would not read as a template is only reported as unreferenced, not rendered.",
			files: kudo(map[string]string{
				"templates/README.md": "# Notes {{ not a template\n",
			}),
			want: []Finding{
				warningAt("templates/README.md", 0, `template "README.md" is not referenced from any task`),
			},
		},
		"KudoOperatorTask": {
			reason: "A KudoOperator task needs a package, and its parameter file must exist.",
			files: kudo(map[string]string{
				"operator.yaml": twoTasks(`  - name: child
    kind: KudoOperator
    spec:
      parameterFile: child-params.yaml
`, "child"),
			}),
			want: []Finding{
				errorAt("operator.yaml", 10, `task validation error: kudo operator task 'child' has an empty package name`),
				errorAt("operator.yaml", 10, `template "child-params.yaml" required by child is not defined`),
			},
		},
		"NoDeployPlan": {
			reason: "Every operator needs a deploy plan.",
			files: kudo(map[string]string{
				"operator.yaml": replaceLine(baseOperator, "  deploy:", "  install:"),
			}),
			want: []Finding{
				errorAt("operator.yaml", 0, "an operator is required to have 'deploy' plan"),
			},
		},
		"TriggerOfUndefinedPlan": {
			reason: "A parameter's trigger must name a plan.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "    trigger: scale\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 3, `plan "scale" used in parameter "REPLICAS" is not defined`),
			},
		},
		"TriggerMisspelt": {
			reason: "A trigger close to a plan's name gets a suggestion.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "    trigger: deplyo\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 3, `plan "deplyo" used in parameter "REPLICAS" is not defined; did you mean "deploy"?`),
			},
		},
		"UnknownStrategy": {
			reason: "KUDO ran anything but \"serial\" in parallel, so a typo silently changed the order: loading refuses it, and so does verify for a bundle built in memory, with the same words.",
			files:  kudo(nil),
			mutate: func(b *bundle.Bundle) {
				b.Plans[0].Phases[0].Strategy, b.Plans[0].Phases[0].StrategyLine = "Serial", 16
			},
			want: []Finding{
				errorAt("operator.yaml", 16, `plans.deploy.phases[0].strategy: "Serial" is not a strategy; did you mean "serial"?`),
			},
		},
		"NoStrategy": {
			reason: "A plan or phase without a strategy is KUDO's parallel: a warning.",
			files: kudo(map[string]string{
				"operator.yaml": strings.Replace(baseOperator, "        strategy: serial\n", "", 1),
			}),
			want: []Finding{
				warningAt("operator.yaml", 13, `phase "main" of plan "deploy" has no strategy: KUDO runs it in parallel (anything but "serial" is parallel)`),
			},
		},
		"UnknownTaskKindInMemory": {
			reason: "Whatever loading refuses, verify refuses in a bundle built in memory too.",
			files:  kudo(nil),
			mutate: func(b *bundle.Bundle) { b.Tasks[0].Kind = "apply" },
			want: []Finding{
				errorAt("operator.yaml", 6, `tasks[0].kind: task "app" has unknown kind "apply"; did you mean "Apply"?`),
			},
		},
		"UndefinedParametersAnywhere": {
			reason: "The whole parse tree is walked: range bodies through $, index, parenthesised pipelines, with bodies, else branches and defined templates.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + `{{- if eq .Name "never" }}
  a: {{ range $i, $e := list 1 }}{{ $.Params.IN_RANGE }}{{ end }}
  b: {{ index .Params "BY_INDEX" }}
  c: {{ (.Params.IN_PARENS | default "x") }}
  d: {{ with .Params }}{{ .IN_WITH }}{{ end }}
  e: {{ range list 1 }}{{ .Params.NOT_A_PARAMETER }}{{ end }}
  f: {{ template "sub" .Params }}
{{- else if eq .Name "other" }}
  g: {{ .Params.IN_ELSE }}
{{- end }}
{{- define "sub" }}{{ .IN_DEFINE }}{{ end }}
`,
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 8, `parameter "IN_RANGE" is used but not defined in params.yaml`),
				errorAt("templates/cm.yaml", 9, `parameter "BY_INDEX" is used but not defined in params.yaml`),
				errorAt("templates/cm.yaml", 10, `parameter "IN_PARENS" is used but not defined in params.yaml`),
				errorAt("templates/cm.yaml", 11, `parameter "IN_WITH" is used but not defined in params.yaml`),
				errorAt("templates/cm.yaml", 15, `parameter "IN_ELSE" is used but not defined in params.yaml`),
				errorAt("templates/cm.yaml", 17, `parameter "IN_DEFINE" is used but not defined in params.yaml`),
			},
		},
		"InvalidImplicitVariable": {
			reason: "Only KUDO's implicit variables, Params, Pipes and Resources exist.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + "{{- if false }}\n  x: {{ .name }}\n{{- end }}\n",
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 8, `template uses the undefined implicit variable "name" (did you mean "Name"?); templates can use OperatorName, Name, Namespace, AppVersion, OperatorVersion, PlanName, PhaseName, StepName, Params, Pipes, Resources`),
			},
		},
		"UndefinedPipe": {
			reason: ".Pipes.X needs a Pipe task with key X.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + "{{- if false }}\n  x: {{ .Pipes.cert }}\n{{- end }}\n",
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 8, `pipe "cert" is not defined: no Pipe task has a pipe file with key "cert"`),
			},
		},
		"PipeRendered": {
			reason: "Pipe keys render to a sample artifact name and the pipe pod renders too.",
			files: kudo(map[string]string{
				"operator.yaml": twoTasks(`  - name: gen
    kind: Pipe
    spec:
      pod: pod.yaml
      pipe:
        - file: /tmp/out
          kind: ConfigMap
          key: out
`, "gen"),
				"templates/pod.yaml": pipePod,
				"templates/cm.yaml":  baseTemplate + "  pipe: {{ .Pipes.out }}\n",
			}),
		},
		"UnusedParameter": {
			reason: "A parameter that no template uses, with no trigger and no Toggle task, is a warning.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "  - name: SPARE\n    default: x\n  - name: TRIGGERS\n    default: x\n    trigger: deploy\n",
			}),
			want: []Finding{
				warningAt("params.yaml", 5, `parameter "SPARE" defined but not used`),
			},
		},
		"ParametersUsedAsAWhole": {
			reason: "When a template ranges over .Params, any parameter may be used: no unused warnings.",
			files: kudo(map[string]string{
				"params.yaml":       baseParams + "  - name: SPARE\n    default: x\n",
				"templates/cm.yaml": baseTemplate + "{{- range $k, $v := .Params }}\n  {{ $k }}: {{ $v | quote }}\n{{- end }}\n",
			}),
		},
		"RenderError": {
			reason: "Every template renders with the default values; a failure names the template line.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + "  bad: {{ fail \"no way\" }}\n",
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 7, `rendering with the default parameter values: at <fail "no way">: error calling fail: no way`),
			},
		},
		"RequiredParametersGetPlaceholders": {
			reason: "Required parameters without a default render with a placeholder of their type.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + `  - name: COUNT
    type: integer
  - name: LABELS
    type: map
  - name: PORTS
    type: array
  - name: MODE
    enum: [fast, slow]
`,
				"templates/cm.yaml": baseTemplate + `  count: "{{ add .Params.COUNT 1 }}"
  mode: {{ .Params.MODE }}
{{- range $k, $v := .Params.LABELS }}
  {{ $k }}: {{ $v }}
{{- end }}
  ports: "{{ len .Params.PORTS }}"
`,
			}),
		},
		"InvalidYAMLAfterRendering": {
			reason: "Rendered output must be YAML; the error names the template line.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + "  list: [{{ .Params.REPLICAS }}\n",
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 7, `rendering with the default parameter values: invalid YAML after rendering: did not find expected ',' or ']' in the block that starts here (rendered line 7: "  list: [1")`),
			},
		},
		"NamespaceObject": {
			reason: "Templates may not render a Namespace: the GitOps tool creates it.",
			files: kudo(map[string]string{
				"templates/cm.yaml": baseTemplate + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: {{ .Namespace }}\n",
			}),
			want: []Finding{
				errorAt("templates/cm.yaml", 8, "template contains 'kind: Namespace', which is not allowed: the GitOps tool creates the namespace (for example Argo CD's CreateNamespace=true)"),
			},
		},
		"PatchNeedsNoKind": {
			reason: "A template used only as a patch must be YAML but need not be an object.",
			files: framework(map[string]string{
				"framework.yaml":       replaceLine(baseFramework, "      - cm.yaml", "      - cm.yaml\n    patches:\n      - patch.yaml"),
				"templates/patch.yaml": "- op: add\n  path: /data/x\n  value: \"{{ .Params.REPLICAS }}\"\n",
			}),
		},
		"PatchInvalidYAML": {
			reason: "A patch that is not YAML after rendering is an error.",
			files: framework(map[string]string{
				"framework.yaml":       replaceLine(baseFramework, "      - cm.yaml", "      - cm.yaml\n    patches:\n      - patch.yaml"),
				"templates/patch.yaml": "- op: add\n  value: [{{ .Params.REPLICAS }}\n",
			}),
			want: []Finding{
				errorAt("templates/patch.yaml", 2, `rendering with the default parameter values: invalid YAML after rendering: did not find expected ',' or ']'`),
			},
		},
		"EmptyEnum": {
			reason: "An enum needs allowed values. (Loading drops an empty enum list, so the model is changed directly.)",
			files:  kudo(nil),
			mutate: func(b *bundle.Bundle) { b.Params[0].Enum = []any{} },
			want: []Finding{
				errorAt("params.yaml", 3, `parameter "REPLICAS" is an enum but has no allowed values`),
			},
		},
		"EnumValueOfWrongType": {
			reason: "Enum values must fit the declared type.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "    type: integer\n    enum: [\"1\", \"two\"]\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 3, `parameter "REPLICAS" has an invalid enum value: "two" is not an integer`),
			},
		},
		"DefaultOfWrongType": {
			reason: "The default must fit the declared type; rendering goes on with a placeholder.",
			files: kudo(map[string]string{
				"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    type: integer\n    default: one\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 3, `parameter "REPLICAS" has an invalid default value: "one" is not an integer`),
			},
		},
		"ImmutableWithoutDefault": {
			reason: "An immutable parameter must be required or have a default.",
			files: kudo(map[string]string{
				"params.yaml": baseParams + "  - name: STORAGE\n    immutable: true\n    required: false\n    trigger: deploy\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 5, `parameter "STORAGE" is immutable but is not marked as required or has a default value`),
			},
		},
		"GroupNotDefined": {
			reason: "When params.yaml has a groups section, every parameter group must be in it.",
			files: kudo(map[string]string{
				"params.yaml": "apiVersion: kudo.dev/v1beta1\ngroups:\n  - name: main\nparameters:\n  - name: REPLICAS\n    default: \"1\"\n    group: mian\n",
			}),
			want: []Finding{
				errorAt("params.yaml", 5, `parameter "REPLICAS" has a group "mian" that is not defined in the group section`),
			},
		},
		"ToggleParameterNotBoolean": {
			reason: "A Toggle task whose parameter default is not a boolean fails unless a value is given.",
			files: kudo(map[string]string{
				"operator.yaml": twoTasks(`  - name: maybe
    kind: Toggle
    spec:
      parameter: ENABLED
      resources:
        - cm.yaml
`, "maybe"),
				"params.yaml": baseParams + "  - name: ENABLED\n    default: \"yes\"\n",
			}),
			want: []Finding{
				warningAt("operator.yaml", 10, `Toggle task "maybe" cannot use the default of parameter "ENABLED": "yes" is not a boolean (want true or false); the task fails unless a boolean value is given`),
			},
		},
		"PartialBundle": {
			reason: "A bundle that extends a base may use its plans, parameters and pipes.",
			files: framework(map[string]string{
				"framework.yaml":    "extends:\n  path: ../base\nversion: \"1\"\ntasks:\n  app:\n    from: base/app\n    patches:\n      - cm.yaml\n",
				"params.yaml":       "",
				"templates/cm.yaml": "data:\n  x: {{ .Params.FROM_BASE }}\n  y: {{ .Pipes.from_base }}\n",
			}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := load(t, tc.files)
			if tc.mutate != nil {
				tc.mutate(b)
			}
			got := Bundle(b)
			assert.Check(t, is.DeepEqual(tc.want, got, cmpopts.EquateEmpty()), "%s\nBundle(...)", tc.reason)
		})
	}
}

func replaceLine(text, old, new string) string {
	out, n := "", 0
	for _, l := range splitLines(text) {
		if l == old && n == 0 {
			l, n = new, 1
		}
		out += l + "\n"
	}
	if n == 0 {
		panic("replaceLine: no line " + old)
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func TestFindingString(t *testing.T) {
	cases := map[string]struct {
		reason string
		f      Finding
		want   string
	}{
		"WithLine": {
			reason: "The line follows the file.",
			f:      errorAt("templates/x.yaml", 12, `parameter "FOO" is used but not defined in params.yaml`),
			want:   `error: templates/x.yaml:12: parameter "FOO" is used but not defined in params.yaml`,
		},
		"WithoutLine": {
			reason: "An unknown line is left out.",
			f:      warningAt("templates/x.yaml", 0, `template "x.yaml" is not referenced from any task`),
			want:   `warning: templates/x.yaml: template "x.yaml" is not referenced from any task`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.f.String()), "%s\nString()", tc.reason)
		})
	}
}

func TestBundleOrder(t *testing.T) {
	b := load(t, kudo(map[string]string{
		"operator.yaml":        replaceLine(baseOperator, "  deploy:", "  install:"),
		"params.yaml":          baseParams + "  - name: SPARE\n    default: x\n",
		"templates/extra.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n",
	}))
	want := []Finding{
		errorAt("operator.yaml", 0, "an operator is required to have 'deploy' plan"),
		warningAt("params.yaml", 5, `parameter "SPARE" defined but not used`),
		warningAt("templates/extra.yaml", 0, `template "extra.yaml" is not referenced from any task`),
	}
	for i := 0; i < 3; i++ {
		assert.Assert(t, is.DeepEqual(want, Bundle(b)), "findings are sorted by file, line and message")
	}
}
