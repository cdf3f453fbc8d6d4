package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
)

// cmpApp writes an application folder whose kudo-render.yaml sets
// replicas to 2 over the package default 1, makes it the working directory
// and sets the environment Argo CD gives the plugin, plus env.
func cmpApp(t *testing.T, env ...string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"kudo-render.yaml":                "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: framework}\n  params:\n    replicas: \"2\"\n",
		"framework/framework.yaml":        "name: cache\nversion: \"1\"\nappVersion: \"8\"\ntasks:\n  app: {kind: Apply, resources: [deploy.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n",
		"framework/params.yaml":           "replicas:\n  description: Number of cache pods.\n  default: \"1\"\n  type: integer\nmemory:\n  default: 256Mi\n",
		"framework/templates/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Name }}\nspec:\n  replicas: {{ .Params.replicas }}\n  selector: {matchLabels: {app: cache}}\n  template:\n    metadata: {labels: {app: cache}}\n    spec:\n      containers:\n        - name: cache\n          image: valkey/valkey:8\n          resources: {limits: {memory: {{ .Params.memory }}}}\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("KUDO_RENDER_CACHE", t.TempDir())
	for _, kv := range append([]string{"ARGOCD_APP_NAME=sessions", "ARGOCD_APP_NAMESPACE=web", "KUBE_VERSION=1.31.0"}, env...) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// announcement runs cmp parameters, which must succeed with JSON.
func announcement(t *testing.T) (map[string]argocd.Announcement, []argocd.Announcement, string) {
	t.Helper()
	out, errs, err := run("cmp", "parameters")
	if err != nil {
		t.Fatalf("cmp parameters failed (Argo CD would show no parameters): %v\n%s", err, errs)
	}
	var list []argocd.Announcement
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	byName := map[string]argocd.Announcement{}
	for _, a := range list {
		byName[a.Name] = a
	}
	return byName, list, errs
}

// TestCMPAnnouncesRenderValues: the announcement shows the values the
// render uses (the app's kudo-render.yaml, then the plugin env), not the
// package's defaults.
func TestCMPAnnouncesRenderValues(t *testing.T) {
	cmpApp(t, "ARGOCD_ENV_memory=1Gi")
	ann, list, _ := announcement(t)
	if got := ann["replicas"].String; got != "2" {
		t.Errorf("replicas announced as %q; kudo-render.yaml sets 2", got)
	}
	if got := ann["memory"].String; got != "1Gi" {
		t.Errorf("memory announced as %q; ARGOCD_ENV_memory sets 1Gi", got)
	}
	if _, ok := ann[argocd.ProblemParameter]; ok || len(list) != 2 {
		t.Errorf("announcement = %+v, want replicas and memory only", list)
	}
	out, errs, err := run("cmp", "generate")
	if err != nil || !strings.Contains(out, "replicas: 2") || !strings.Contains(out, "memory: 1Gi") {
		t.Errorf("generate does not use the announced values: %v\n%s%s", err, out, errs)
	}
}

// TestCMPTypos: a mistyped ARGOCD_ENV_* or PARAM_* name does not blank
// Argo CD's parameter panel: the parameters are listed, after an entry
// with the error (the "did you mean" as the user writes the name); generate
// fails on it, exit non-zero and nothing on stdout.
func TestCMPTypos(t *testing.T) {
	cases := map[string]struct {
		reason string
		env    []string
		want   string
	}{
		"Env": {
			reason: "a plugin env name is suggested as written in plugin.env, without ARGOCD_ENV_",
			env:    []string{"ARGOCD_ENV_REPLICA=5"},
			want:   "REPLICA (ARGOCD_ENV_REPLICA) is neither a parameter of the package nor one of the plugin's variables (KUBE_VERSION, PLAN, PLANS, TARGET); did you mean replicas?",
		},
		"ParamEnv": {
			reason: "a PARAM_* name gets a suggestion too",
			env:    []string{"PARAM_REPLICA=3"},
			want:   "PARAM_REPLICA: the package has no such parameter; did you mean replicas (PARAM_REPLICAS)?",
		},
		"Parameters": {
			reason: "a plugin parameter of ARGOCD_APP_PARAMETERS",
			env:    []string{`ARGOCD_APP_PARAMETERS=[{"name":"replica","string":"3"}]`},
			want:   "replica: is not defined by the package; did you mean replicas?",
		},
		"BadValue": {
			reason: "a value the package refuses",
			env:    []string{"ARGOCD_ENV_replicas=many"},
			want:   `replicas: "many" is not an integer`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmpApp(t, tc.env...)
			ann, list, errs := announcement(t)
			if ann["replicas"].Name == "" || ann["memory"].Name == "" {
				t.Errorf("%s\nthe parameters are not listed: %+v", tc.reason, list)
			}
			if list[0].Name != argocd.ProblemParameter || !strings.Contains(list[0].String, tc.want) || !strings.Contains(list[0].Title, "ERROR") {
				t.Errorf("%s\nfirst entry = %+v\nwant the error %q", tc.reason, list[0], tc.want)
			}
			if strings.Contains(list[0].String, "did you mean ARGOCD_ENV_") {
				t.Errorf("%s\nthe suggestion names the variable, not the plugin env name: %s", tc.reason, list[0].String)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("%s\nstderr lacks the error: %q", tc.reason, errs)
			}
			out, errs, err := run("cmp", "generate")
			if err == nil || out != "" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s\ngenerate: err=%v stdout=%q stderr=%q, want exit non-zero with %q and nothing on stdout", tc.reason, err, out, errs, tc.want)
			}
		})
	}
}

// TestCMPAppsInAnyNamespace: an Application outside Argo CD's namespace
// comes as <namespace>_<name> (generate) or <namespace>/<name> (the UI's
// parameters); the instance is named after the Application's name.
func TestCMPAppsInAnyNamespace(t *testing.T) {
	for _, name := range []string{"team-a_sessions", "team-a/sessions"} {
		t.Run(strings.ReplaceAll(name, "/", "-"), func(t *testing.T) {
			cmpApp(t, "ARGOCD_APP_NAME="+name)
			out, errs, err := run("cmp", "generate")
			if err != nil {
				t.Fatalf("ARGOCD_APP_NAME=%s: %v\n%s", name, err, errs)
			}
			if !strings.Contains(out, "name: sessions\n") || strings.Contains(out, "team-a") {
				t.Errorf("ARGOCD_APP_NAME=%s: the instance is not named sessions:\n%s", name, out)
			}
		})
	}
}
