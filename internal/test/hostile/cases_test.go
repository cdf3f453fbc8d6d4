package hostile_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// pkg writes a minimal KUDO package into dir/pkg whose deploy plan applies
// every template given, and returns its folder.
func pkg(t *testing.T, dir string, templates map[string]string, extra map[string]string) string {
	t.Helper()
	write(t, dir, pkgFiles(templates, extra))
	return filepath.Join(dir, "pkg")
}

// pkgFiles are the files pkg writes: path below dir -> content.
func pkgFiles(templates map[string]string, extra map[string]string) map[string]string {
	var names []string
	files := map[string]string{}
	for name, content := range templates {
		names = append(names, name)
		files["pkg/templates/"+name] = content
	}
	sort.Strings(names)
	files["pkg/operator.yaml"] = `apiVersion: kudo.dev/v1beta1
name: hostile
operatorVersion: 0.1.0
tasks:
  - name: app
    kind: Apply
    spec:
      resources: [` + strings.Join(names, ", ") + `]
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: app
            tasks: [app]
`
	files["pkg/params.yaml"] = "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: X\n    default: \"1\"\n"
	for k, v := range extra {
		files["pkg/"+k] = v
	}
	return files
}

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Name }}-cm\ndata:\n  x: y\n"

// TestOutputWriting: --output-dir is written all or nothing and never through
// a link; names made from objects never leave DIR.
func TestOutputWriting(t *testing.T) {
	runCases(t, map[string]hostileCase{
		"LinkInDIR": {
			class:  "writing output",
			reason: "a symbolic link kudo-render does not own, where a file would go, is never followed or replaced",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"secret.txt": "outside"})
				os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "out", "configmap_inst-cm.yaml"))
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `in the way`,
		},
		"ObjectNameEscapes": {
			class:   "writing output",
			reason:  "an object name full of separators and .. stays a file name inside DIR (a kind of a group kudo-render cannot validate: a built-in kind with such a name is refused first)",
			succeed: true,
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "apiVersion: example.com/v1\nkind: ConfigMap\nmetadata:\n  name: ../../../escaped\n"}, nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			check: func(t *testing.T, dir, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "escaped")); err == nil {
					t.Error("a file was written outside --output-dir")
				}
				if _, err := os.Stat(filepath.Join(dir, "out", "configmap_..-..-..-escaped.yaml")); err != nil {
					t.Errorf("the object's file is missing: %v", err)
				}
				if data, _ := os.ReadFile(filepath.Join(dir, "out", "keep", "mine.txt")); string(data) != "not kudo-render's" {
					t.Error("a file kudo-render does not own was changed")
				}
			},
		},
		"FailedRenderKeepsDIR": {
			class:  "writing output",
			reason: "a render that fails writes nothing",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "{{ fail \"boom\" }}"}, nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: `boom`,
		},
	})
}

// TestNamesAndFlags: names are Kubernetes names wherever they come from;
// flags are checked.
func TestNamesAndFlags(t *testing.T) {
	simple := func(args ...string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
			return append([]string{"render", p}, args...)
		}
	}
	runCases(t, map[string]hostileCase{
		"PathAsName":      {class: "names and flags", reason: "an instance name with a path is refused", setup: simple("--name", "../x"), stderr: `--name "../x" is not a DNS-1123`},
		"UpperNamespace":  {class: "names and flags", reason: "a namespace that is not a DNS-1123 label is refused", setup: simple("--name", "x", "-n", "Prod"), stderr: `--namespace "Prod" is not a DNS-1123 label`},
		"LongName":        {class: "names and flags", reason: "an instance name longer than a label value is refused", setup: simple("--name", strings.Repeat("a", 64)), stderr: `longer than 63`},
		"NegativeTimeout": {class: "names and flags", reason: "--timeout may not be negative", setup: simple("--name", "x", "--timeout", "-1s"), stderr: `must not be negative`},
		"ZeroLimit":       {class: "names and flags", reason: "a limit of 0 is refused", setup: simple("--name", "x", "--max-template-bytes", "0"), stderr: `positive whole number`},
		"BadLimitEnv": {
			class: "names and flags", reason: "a limit from the environment is checked like a flag",
			setup: simple("--name", "x"), env: []string{"KUDO_RENDER_MAX_YAML_DEPTH=lots"}, stderr: `KUDO_RENDER_MAX_YAML_DEPTH`,
		},
		"ArgoAppName": {
			class: "names and flags", reason: "Argo CD's application name is checked as an instance name",
			setup: func(t *testing.T, dir string) []string {
				pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"kudo-render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: pkg}\n"})
				return []string{"cmp", "generate"}
			},
			env:    []string{"ARGOCD_APP_NAME=Bad_Name", "ARGOCD_APP_NAMESPACE=ns"},
			stderr: `metadata.name: "Bad_Name" is not a DNS-1123`,
		},
		"TimeoutLoop": {
			class:  "names and flags",
			reason: "a render that runs past --timeout ends with exit 1 and nothing on stdout",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "{{ range $i := until 100000 }}{{ range $j := until 100000 }}{{ end }}{{ end }}" + cm}, nil)
				return []string{"render", p, "--name", "inst", "--timeout", "2s"}
			},
			stderr: `gave up after 2s`,
		},
	})
}

// TestReadingInput: files outside the bundle or the application's
// repository are never read.
func TestReadingInput(t *testing.T) {
	runCases(t, map[string]hostileCase{
		"PluginConfigLink": {
			class:  "reading input",
			reason: "the Argo CD plugin's kudo-render.yaml may not be a link that leaves the repository, and its content is never echoed",
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"private/creds": "root:x:0:0:TOPSECRET\n", "repo/app/.keep": ""})
				os.Symlink(filepath.Join(dir, "private", "creds"), filepath.Join(dir, "repo", "app", "kudo-render.yaml"))
				return []string{"cmp", "generate"}
			},
			wd:     "repo/app",
			env:    []string{"ARGOCD_APP_NAME=x", "ARGOCD_APP_SOURCE_PATH=app"},
			stderr: `cannot read FunctionConfig`,
		},
		"ParamsLinkOutside": {
			class:  "reading input",
			reason: "a params.yaml that is a link leaving the bundle is an error, never absent, and its content is never echoed",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"secret.yaml": "TOPSECRET: [\n"})
				os.Remove(filepath.Join(p, "params.yaml"))
				os.Symlink(filepath.Join(dir, "secret.yaml"), filepath.Join(p, "params.yaml"))
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `params.yaml: cannot read: symbolic link points outside the bundle`,
		},
		"OperatorLinkOutside": {
			class:  "reading input",
			reason: "an operator.yaml that is a link leaving the bundle is an error naming it",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				data, _ := os.ReadFile(filepath.Join(p, "operator.yaml"))
				write(t, dir, map[string]string{"elsewhere.yaml": string(data)})
				os.Remove(filepath.Join(p, "operator.yaml"))
				os.Symlink(filepath.Join(dir, "elsewhere.yaml"), filepath.Join(p, "operator.yaml"))
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `operator.yaml: cannot read: symbolic link points outside the bundle`,
		},
		"TemplateLinkOutside": {
			class:  "reading input",
			reason: "a template that is a link leaving the bundle is an error",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"x.yaml": "TOPSECRET"})
				os.Remove(filepath.Join(p, "templates", "cm.yaml"))
				os.Symlink(filepath.Join(dir, "x.yaml"), filepath.Join(p, "templates", "cm.yaml"))
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `templates/cm.yaml: symbolic link points outside the bundle`,
		},
		"HugeUsedTemplate": {
			class:  "reading input",
			reason: "a template larger than --max-file-bytes that a task uses is refused without reading it",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				f, _ := os.OpenFile(filepath.Join(p, "templates", "cm.yaml"), os.O_WRONLY|os.O_APPEND, 0)
				f.Truncate(2 << 30) // a sparse 2 GiB file
				f.Close()
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `templates/cm.yaml: task "app" uses it: file size exceeds the limit of 8388608 bytes \(raise it with --max-file-bytes`,
		},
		"HugeUnusedTemplate": {
			class:   "reading input",
			reason:  "a huge template no task uses costs nothing",
			succeed: true,
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				f, _ := os.Create(filepath.Join(p, "templates", "unused.yaml"))
				f.Truncate(2 << 30)
				f.Close()
				return []string{"render", p, "--name", "inst"}
			},
			check: func(t *testing.T, _, stdout string) {
				if !strings.Contains(stdout, "name: inst-cm") {
					t.Errorf("the render is missing its ConfigMap:\n%s", stdout)
				}
			},
		},
		"PluginPathOutsideRepo": {
			class:  "reading input",
			reason: "a framework path of the plugin's config may not leave the application's repository",
			setup: func(t *testing.T, dir string) []string {
				pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"repo/app/kudo-render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: ../../pkg}\n"})
				return []string{"cmp", "generate"}
			},
			wd:     "repo/app",
			env:    []string{"ARGOCD_APP_NAME=x", "ARGOCD_APP_SOURCE_PATH=app"},
			stderr: `outside .*may not leave it`,
		},
	})
}

// TestDeterminismOfErrors keeps the promise that the same hostile input
// fails the same way twice.
func TestDeterminismOfErrors(t *testing.T) {
	dir := t.TempDir()
	p := pkg(t, dir, map[string]string{"a.yaml": "{{ fail \"a\" }}", "b.yaml": cm}, nil)
	first := runCase(t, dir, "", []string{"render", p, "--name", "x"}, nil, nil)
	for i := 0; i < 3; i++ {
		if r := runCase(t, dir, "", []string{"render", p, "--name", "x"}, nil, nil); r.stderr != first.stderr {
			t.Fatalf("stderr changed between runs:\n%s\n---\n%s", first.stderr, r.stderr)
		}
	}
}
