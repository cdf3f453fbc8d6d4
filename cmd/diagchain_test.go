package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/fn"
)

// problem is where one problem is: what the CLI message and the KRM
// result must both tell.
type problem struct {
	File     string
	Line     int
	Field    string
	Resource string // kind namespace/name, as the CLI writes it
}

// chainFramework is a KEP-0009 framework of one ConfigMap template.
func chainFramework(extra map[string]string) map[string]string {
	files := map[string]string{
		"pkg/framework.yaml":    "name: cache\nversion: \"1.0.0\"\ntasks:\n  deploy:\n    resources: [cm.yaml]\nplans:\n  deploy:\n    steps:\n      - name: deploy\n        tasks: [deploy]\n",
		"pkg/params.yaml":       "NODE_COUNT:\n  description: nodes\n  default: \"3\"\n  type: integer\n",
		"pkg/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n  nodes: \"{{ .Params.NODE_COUNT }}\"\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

// chainParent is a KUDO package whose KudoOperator task installs the
// framework at ./dep (pkg/dep).
func chainParent(dep map[string]string) map[string]string {
	files := map[string]string{
		"pkg/operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: parent\noperatorVersion: 0.1.0\ntasks:\n  - name: db\n    kind: KudoOperator\n    spec:\n      package: ./dep\n" +
			"plans:\n  deploy:\n    strategy: serial\n    phases:\n      - {name: p, strategy: serial, steps: [{name: s, tasks: [db]}]}\n",
		"pkg/params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters: []\n",
	}
	for k, v := range chainFramework(nil) {
		files["pkg/dep/"+strings.TrimPrefix(k, "pkg/")] = v
	}
	for k, v := range dep {
		files["pkg/dep/"+k] = v
	}
	return files
}

// TestDiagnosticChain: a located problem of every stage reaches both the
// CLI message and the KRM results with its file, line, field path and
// resource, one KRM result per problem (issue 25.3: a KudoOperator
// dependency's problem was flattened with %v, a schema's several
// problems were one message, an unknown field of framework.yaml had no
// field.path).
func TestDiagnosticChain(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		strict bool
		want   []problem
	}{
		"UnknownFieldInFrameworkYAML": {
			reason: "framework.yaml is strict: an unknown field, at the top level too, is an error whose field path is the key.",
			files: chainFramework(map[string]string{
				"pkg/framework.yaml": "name: cache\nversion: \"1.0.0\"\nmaintainer: me\ntasks:\n  deploy:\n    resourcs: [cm.yaml]\nplans:\n  deploy:\n    steps:\n      - name: deploy\n        tasks: [deploy]\n",
			}),
			want: []problem{{File: "framework.yaml", Line: 3, Field: "maintainer"}, {File: "framework.yaml", Line: 6, Field: "tasks.deploy.resourcs"}},
		},
		"UnknownFieldInOperatorYAML": {
			reason: "An unknown field of a KUDO operator.yaml is an error when strict.",
			files: map[string]string{
				"pkg/operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: app\noperatorVersion: 0.1.0\ntasks:\n  - name: app\n    kind: Apply\n    spec:\n      resources: [cm.yaml]\n      resourcs: [x.yaml]\n" +
					"plans:\n  deploy:\n    strategy: serial\n    phases:\n      - {name: p, strategy: serial, steps: [{name: s, tasks: [app]}]}\n",
				"pkg/params.yaml":       "apiVersion: kudo.dev/v1beta1\nparameters: []\n",
				"pkg/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n",
			},
			strict: true,
			want:   []problem{{File: "operator.yaml", Line: 9, Field: "tasks[0].spec.resourcs"}},
		},
		"DefaultsRefusedBySchema": {
			reason: "Every problem of the defaults against params.schema.json is one result, where params.yaml writes the default.",
			files: chainFramework(map[string]string{
				"pkg/params.yaml":        "NODE_COUNT:\n  description: nodes\n  default: \"9\"\n  type: integer\nMODE:\n  default: fast\n",
				"pkg/params.schema.json": `{"type": "object", "properties": {"NODE_COUNT": {"type": "integer", "maximum": 7, "multipleOf": 2}, "MODE": {"enum": ["slow", "safe"]}}}`,
			}),
			want: []problem{
				{File: "params.yaml", Line: 6, Field: "MODE.default"},
				{File: "params.yaml", Line: 3, Field: "NODE_COUNT.default"},
				{File: "params.yaml", Line: 3, Field: "NODE_COUNT.default"},
			},
		},
		"InsideDependency": {
			reason: "A problem inside a KudoOperator dependency keeps its place, in the dependency's folder.",
			files:  chainParent(map[string]string{"framework.yaml": "name: cache\nverson: \"1.0.0\"\n"}),
			want:   []problem{{File: "dep/framework.yaml", Line: 2, Field: "verson"}},
		},
		"DependencyDefaults": {
			reason: "A dependency's defaults its schema refuses are in its params.yaml.",
			files: chainParent(map[string]string{
				"params.yaml":        "NODE_COUNT:\n  default: \"9\"\n  type: integer\n",
				"params.schema.json": `{"properties": {"NODE_COUNT": {"maximum": 7}}}`,
			}),
			want: []problem{{File: "dep/params.yaml", Line: 2, Field: "NODE_COUNT.default"}},
		},
		"DependencyTemplate": {
			reason: "A template problem of a dependency is in the dependency's template.",
			files:  chainParent(map[string]string{"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n  nodes: \"{{ .Params.NODE_COUNT | nope }}\"\n"}),
			want:   []problem{{File: "dep/templates/cm.yaml", Line: 6}},
		},
		"Template": {
			reason: "A template problem is at its template's line.",
			files:  chainFramework(map[string]string{"pkg/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n  nodes: \"{{ .Params.NODE_COUNT | nope }}\"\n"}),
			want:   []problem{{File: "templates/cm.yaml", Line: 6}},
		},
		"Reference": {
			reason: "A reference that does not resolve is at the field of its object, in its template.",
			files: chainFramework(map[string]string{"pkg/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n" +
				"  nodes: \"{{ .Params.NODE_COUNT }}\"\n  port:\n    getValueFrom: {kind: Service, name: missing, path: '{.spec.ports[0].port}'}\n"}),
			want: []problem{{File: "templates/cm.yaml", Line: 7, Field: "data.port", Resource: "ConfigMap ns/cache"}},
		},
		"References": {
			reason: "Every reference that does not resolve is a problem of its own (they were joined into one result).",
			files: chainFramework(map[string]string{"pkg/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n" +
				"  port:\n    getValueFrom: {kind: Service, name: missing, path: '{.spec.ports[0].port}'}\n" +
				"  host:\n    getValueFrom: {kind: Service, name: gone, path: '{.metadata.name}'}\n"}),
			want: []problem{
				{File: "templates/cm.yaml", Line: 8, Field: "data.host", Resource: "ConfigMap ns/cache"},
				{File: "templates/cm.yaml", Line: 6, Field: "data.port", Resource: "ConfigMap ns/cache"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for p, data := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			config := fmt.Sprintf("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: x, namespace: ns}\nspec:\n  framework: {path: pkg}\n  strict: %t\n", tc.strict)
			os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644)

			stdout, _, err := run("render", filepath.Join(dir, "config.yaml"))
			if err == nil || stdout != "" {
				t.Fatalf("\n%s\nrender: want an error and nothing on stdout, got %v and %d bytes", tc.reason, err, len(stdout))
			}
			checkCLIMessage(t, tc.reason, err.Error(), tc.want)

			got := krmProblems(t, dir, config)
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nKRM results", tc.reason)
		})
	}
}

// checkCLIMessage: each problem has a line of the message that names its
// place (file:line:), its resource and its field.
func checkCLIMessage(t *testing.T, reason, msg string, want []problem) {
	t.Helper()
	for _, p := range want {
		place := fmt.Sprintf("%s:%d: ", p.File, p.Line)
		found := false
		for _, l := range strings.Split(msg, "\n") {
			i := strings.Index(l, place)
			if i < 0 || (i > 0 && l[i-1] != ' ') {
				continue
			}
			rest := l[i+len(place):]
			if p.Resource != "" && !strings.Contains(rest, p.Resource+": ") {
				continue
			}
			if p.Field != "" && !strings.Contains(rest, p.Field+": ") {
				continue
			}
			found = true
		}
		if !found {
			t.Errorf("\n%s\nCLI message: no line names %s%s %s:\n%s", reason, place, p.Resource, p.Field, msg)
		}
	}
}

// krmProblems runs the KRM function in dir with config as functionConfig
// and returns the places of its results, which it must fail with.
func krmProblems(t *testing.T, dir, config string) []problem {
	t.Helper()
	var in bytes.Buffer
	in.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n")
	for _, l := range strings.Split(strings.TrimSpace(config), "\n") {
		in.WriteString("  " + l + "\n")
	}
	out, err := (&fn.Function{Dir: dir}).Output(&in)
	if err == nil {
		t.Fatal("the KRM function succeeded")
	}
	// the results as kpt reads them (kyaml's framework.Result)
	var rl struct {
		Results []struct {
			Message     string            `yaml:"message"`
			Severity    string            `yaml:"severity"`
			Tags        map[string]string `yaml:"tags"`
			File        *struct{ Path string }
			Field       *struct{ Path string }
			ResourceRef *kyaml.ResourceIdentifier `yaml:"resourceRef"`
		} `yaml:"results"`
	}
	if err := kyaml.Unmarshal(out, &rl); err != nil {
		t.Fatalf("output ResourceList: %v\n%s", err, out)
	}
	var got []problem
	for _, r := range rl.Results {
		var p problem
		if r.File != nil {
			p.File = r.File.Path
		}
		if l := r.Tags["line"]; l != "" {
			fmt.Sscan(l, &p.Line)
			if !strings.HasPrefix(r.Message, "line "+l+": ") {
				t.Errorf("result %q: the message does not start with its line", r.Message)
			}
		}
		if r.Field != nil {
			p.Field = r.Field.Path
		}
		if ref := r.ResourceRef; ref != nil {
			p.Resource = ref.Kind + " " + ref.Namespace + "/" + ref.Name
		}
		if r.Severity != "error" {
			t.Errorf("result %q: severity %q, want error", r.Message, r.Severity)
		}
		got = append(got, p)
	}
	return got
}
