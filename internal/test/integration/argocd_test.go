package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// plugin reads examples/argocd/install/plugin.yaml.
func plugin(t *testing.T) (generate, parameters []string, discover string) {
	t.Helper()
	data, err := os.ReadFile("../../../examples/argocd/install/plugin.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Kind string
		Spec struct {
			Discover struct{ FileName string } `json:"discover"`
			Generate struct {
				Command []string `json:"command"`
				Args    []string `json:"args"`
			} `json:"generate"`
			Parameters struct {
				Dynamic struct {
					Command []string `json:"command"`
				} `json:"dynamic"`
			} `json:"parameters"`
		}
	}
	if err := yaml.UnmarshalStrict(data, &p); err != nil && !strings.Contains(err.Error(), "unknown field") {
		t.Fatal(err)
	}
	if p.Kind != "ConfigManagementPlugin" {
		t.Fatalf("kind = %q", p.Kind)
	}
	return append(p.Spec.Generate.Command, p.Spec.Generate.Args...), p.Spec.Parameters.Dynamic.Command, p.Spec.Discover.FileName
}

// argoEnv is what Argo CD's repo server sets for a plugin.
func argoEnv(extra ...string) []string {
	return append([]string{
		"ARGOCD_APP_NAME=sessions",
		"ARGOCD_APP_NAMESPACE=web",
		"ARGOCD_APP_REVISION=0123456789abcdef0123456789abcdef01234567",
		"ARGOCD_APP_REVISION_SHORT=0123456",
		"ARGOCD_APP_SOURCE_PATH=examples/argocd",
		"ARGOCD_APP_SOURCE_REPO_URL=https://git.example.com/platform/apps.git",
		"ARGOCD_APP_SOURCE_TARGET_REVISION=main",
		"KUBE_VERSION=1.31.0",
		"KUBE_API_VERSIONS=v1,apps/v1,batch/v1",
	}, extra...)
}

func argoApp(t *testing.T, discover string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	copyDir(t, "../../../examples/argocd", dir)
	if _, err := os.Stat(filepath.Join(dir, discover)); err != nil {
		t.Fatalf("the plugin discovers %s, which the example lacks: %v", discover, err)
	}
	return dir
}

// cmd replaces the plugin's kudo-render by the test binary.
func cmd(command []string) (string, []string) {
	if command[0] == "kudo-render" {
		return binary, command[1:]
	}
	return command[0], command[1:]
}

func TestArgoCDGenerate(t *testing.T) {
	generate, _, discover := plugin(t)
	name, args := cmd(generate)
	cases := map[string]struct {
		reason string
		env    []string
		want   []string
	}{
		"Defaults": {
			reason: "The Application's name and namespace are the instance's.",
			want:   []string{"name: sessions", "namespace: web", "replicas: 2", "argocd.argoproj.io/sync-wave"},
		},
		"Parameters": {
			reason: "ARGOCD_APP_PARAMETERS: a package parameter by name, the params map, the target.",
			env: []string{`ARGOCD_APP_PARAMETERS=[{"name":"replicas","string":"3"},{"name":"params","map":{"memory":"512Mi"}},{"name":"target","string":"plain"},{"name":"plan","array":["deploy"]}]`,
				"PARAM_REPLICAS=9"},
			want: []string{"replicas: 3", "memory: 512Mi"},
		},
		"ParamEnv": {
			reason: "Without ARGOCD_APP_PARAMETERS, the PARAM_* variables.",
			env:    []string{"PARAM_REPLICAS=4", "PARAM_PARAMS_MEMORY=1Gi"},
			want:   []string{"replicas: 4", "memory: 1Gi"},
		},
		"PluginEnv": {
			reason: "ARGOCD_ENV_* from the Application's plugin env.",
			env:    []string{"ARGOCD_ENV_replicas=5", "ARGOCD_ENV_PLAN=deploy"},
			want:   []string{"replicas: 5"},
		},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) {
			dir := argoApp(t, discover)
			out, errs, err := run(t, dir, argoEnv(tc.env...), name, args...)
			if err != nil {
				t.Fatalf("%s\ngenerate: %v\n%s", tc.reason, err, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s\noutput lacks %q", tc.reason, w)
				}
			}
			if n == "Parameters" && strings.Contains(out, "argocd.argoproj.io/") {
				t.Error("target plain still wrote Argo CD annotations")
			}
		})
	}
}

// TestArgoCDGenerateErrors: on any error nothing on stdout (Argo CD would
// prune everything on an empty stream) and a non-zero exit.
func TestArgoCDGenerateErrors(t *testing.T) {
	generate, _, discover := plugin(t)
	name, args := cmd(generate)
	for _, env := range [][]string{
		{"PARAM_REPLICAS=many"},
		{"PARAM_NOT_A_PARAMETER=1"},
		{`ARGOCD_APP_PARAMETERS=[{"name":"plan","array":["nope"]}]`},
		{`ARGOCD_APP_PARAMETERS={not json`},
	} {
		dir := argoApp(t, discover)
		out, errs, err := run(t, dir, argoEnv(env...), name, args...)
		if err == nil {
			t.Errorf("%v: succeeded", env)
		}
		if out != "" {
			t.Errorf("%v: stdout not empty: %q", env, out)
		}
		if errs == "" {
			t.Errorf("%v: no message on stderr", env)
		}
	}
}

// TestArgoCDRefusals: what the plugin refuses, with the exact environment
// the repo-server sets, each with its reason on stderr and nothing on
// stdout.
func TestArgoCDRefusals(t *testing.T) {
	generate, _, discover := plugin(t)
	name, args := cmd(generate)
	cases := map[string]struct {
		reason string
		env    []string
		config string // replaces kudo-render.yaml when set
		want   string
	}{
		"EnvTypo": {
			reason: "an ARGOCD_ENV_ name that is neither a parameter nor the plugin's is a typo",
			env:    []string{"ARGOCD_ENV_REPLICA=5"},
			want:   "REPLICA (ARGOCD_ENV_REPLICA) is neither a parameter of the package nor one of the plugin's variables (KUBE_VERSION, PLAN, PLANS, TARGET); did you mean replicas?",
		},
		"ParameterTypo": {
			reason: "a plugin parameter of an unknown name fails like an unknown -p",
			env:    []string{`ARGOCD_APP_PARAMETERS=[{"name":"replica","string":"3"}]`},
			want:   "replica: is not defined by the package; did you mean replicas?",
		},
		"FluxTarget": {
			reason: "target flux makes no sense in the plugin",
			env:    []string{"ARGOCD_ENV_TARGET=flux"},
			want:   "target flux writes folders",
		},
		"Empty": {
			reason: "a render without objects would prune the whole application",
			config: "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: empty}\n",
			want:   "the render has no objects",
		},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) {
			dir := argoApp(t, discover)
			if tc.config != "" {
				os.WriteFile(filepath.Join(dir, discover), []byte(tc.config), 0o644)
				emptyFramework(t, filepath.Join(dir, "empty"))
			}
			out, errs, err := run(t, dir, argoEnv(tc.env...), name, args...)
			if err == nil || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("%s: err=%v stdout=%q stderr=%q, want %q", tc.reason, err, out, errs, tc.want)
			}
		})
	}
	// allowEmpty allows an empty render on purpose.
	dir := argoApp(t, discover)
	emptyFramework(t, filepath.Join(dir, "empty"))
	os.WriteFile(filepath.Join(dir, discover), []byte("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: empty}\n  allowEmpty: true\n"), 0o644)
	if out, errs, err := run(t, dir, argoEnv(), name, args...); err != nil || out != "" {
		t.Errorf("allowEmpty: err=%v stdout=%q stderr=%q", err, out, errs)
	}
}

// emptyFramework writes a framework whose only object is toggled off.
func emptyFramework(t *testing.T, dir string) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "framework.yaml"), []byte("name: empty\nversion: \"1\"\ntasks:\n  debug: {kind: Toggle, parameter: DEBUG, resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: debug, tasks: [debug]}]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "params.yaml"), []byte("DEBUG: {default: \"false\"}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "templates", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: debug}\n"), 0o644)
}

// TestArgoCDFolderLocally: an application folder written for Argo CD
// (metadata: {}) renders, verifies and locks on a laptop with
// --name/--namespace, exactly as the plugin generates it.
func TestArgoCDFolderLocally(t *testing.T) {
	generate, _, discover := plugin(t)
	name, args := cmd(generate)
	dir := argoApp(t, discover)
	fromPlugin, errs, err := run(t, dir, argoEnv(), name, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	// The plugin renders for the cluster's KUBE_VERSION (argoEnv's 1.31.0).
	local, errs, err := run(t, dir, nil, binary, "render", discover, "--name", "sessions", "--namespace", "web", "--kube-version", "1.31.0")
	if err != nil {
		t.Fatalf("render: %v\n%s", err, errs)
	}
	if local != fromPlugin {
		t.Errorf("a local render differs from the plugin's")
	}
	if _, errs, err := run(t, dir, nil, binary, "render", discover); err == nil || !strings.Contains(errs, "give --name") {
		t.Errorf("without --name: want the hint, got %v %s", err, errs)
	}
	for _, c := range [][]string{{"verify", discover}, {"schema", "--params", discover}, {"lock", discover}} {
		if out, errs, err := run(t, dir, nil, binary, c...); err != nil {
			t.Errorf("%v: %v\n%s%s", c, err, out, errs)
		}
	}
}

// TestArgoCDParameters: the panel announces the values the render uses:
// examples/argocd/kudo-render.yaml sets replicas to 2 (the default is 1).
func TestArgoCDParameters(t *testing.T) {
	_, parameters, discover := plugin(t)
	name, args := cmd(parameters)
	out, errs, err := run(t, argoApp(t, discover), argoEnv(), name, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	var ann []map[string]any
	if err := json.Unmarshal([]byte(out), &ann); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(ann) != 2 || ann[0]["name"] != "replicas" || ann[0]["string"] != "2" || ann[0]["tooltip"] != "Number of cache pods." {
		t.Errorf("announcement = %v", ann)
	}
}

// TestArgoCDConfined: a framework path that leaves the application's
// repository is refused.
func TestArgoCDConfined(t *testing.T) {
	generate, _, discover := plugin(t)
	name, args := cmd(generate)
	repo := t.TempDir()
	app := filepath.Join(repo, "apps", "web")
	copyDir(t, "../../../examples/argocd", app)
	outside := filepath.Join(t.TempDir(), "framework")
	copyDir(t, "../../../examples/argocd/framework", outside)
	rel, _ := filepath.Rel(app, outside)
	os.WriteFile(filepath.Join(app, discover), []byte("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: "+rel+"}\n"), 0o644)
	out, errs, err := run(t, app, argoEnv("ARGOCD_APP_SOURCE_PATH=apps/web"), name, args...)
	if err == nil || out != "" || !strings.Contains(errs, "outside") {
		t.Errorf("a framework outside the repository: err=%v stderr=%q", err, errs)
	}
	// Inside the repository, another folder is fine.
	copyDir(t, "../../../examples/argocd/framework", filepath.Join(repo, "frameworks", "cache"))
	os.WriteFile(filepath.Join(app, discover), []byte("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: ../../frameworks/cache}\n"), 0o644)
	if _, errs, err := run(t, app, argoEnv("ARGOCD_APP_SOURCE_PATH=apps/web"), name, args...); err != nil {
		t.Errorf("a framework elsewhere in the repository: %v\n%s", err, errs)
	}
}
