package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
