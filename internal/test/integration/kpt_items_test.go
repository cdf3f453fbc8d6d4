package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// The files of a kpt package the user keeps in git: a KUDO Instance, a
// Composable and the FunctionConfig that renders them.
var kptItemFiles = map[string]string{
	"instance.yaml": `# The blog, as KUDO users keep it in git.
apiVersion: kudo.dev/v1beta1
kind: Instance
metadata:
  name: blog
  namespace: web
spec:
  operatorVersion:
    name: webapp-1.0.0
  parameters:
    REPLICAS: "5" # busy season
    DEBUG_TOOLS_ENABLED: "true"
`,
	"composable.yaml": `apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata:
  name: blog-port
  namespace: web
spec:
  template:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: blog-port
    data:
      port:
        getValueFrom:
          kind: Service
          name: blog-web
          path: '{.spec.ports[0].port}'
          format-transformers: [ToString]
`,
	"fn.yaml": `apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata:
  name: instances
spec:
  operators:
    webapp-1.0.0: {path: operators/webapp}
  target: plain
`,
	".krmignore": "operators/\n",
}

// kptItemsPackage writes the package, with the Instance's operator from
// fn's test data, and a Kptfile whose pipeline runs the binary when
// kptfile is set.
func kptItemsPackage(t *testing.T, kptfile bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	copyDir(t, "../../../fn/testdata/krm/instance/operators", filepath.Join(dir, "operators"))
	for name, text := range kptItemFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if kptfile {
		k := "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n" +
			"pipeline:\n  mutators:\n    - exec: " + binary + "\n      configPath: fn.yaml\n"
		if err := os.WriteFile(filepath.Join(dir, "Kptfile"), []byte(k), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func decodeYAML(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return m
}

// withLocalConfig is an object plus config.kubernetes.io/local-config: "true".
func withLocalConfig(m map[string]any) map[string]any {
	md, _ := m["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann["config.kubernetes.io/local-config"] = "true"
	return m
}

// TestKptKeepsInputItems (issue 26): kpt deletes from disk the input items
// a function leaves out of its output. After kpt fn eval --exec and kpt fn
// render, instance.yaml, composable.yaml and fn.yaml are still there with
// the same content plus config.kubernetes.io/local-config: "true" (so kpt
// live apply never applies them), the rendered objects are written, and a
// second run changes no file.
func TestKptKeepsInputItems(t *testing.T) {
	kpt := tool(t, "kpt")
	for _, c := range []struct {
		name    string
		kptfile bool
		args    []string
	}{
		{"eval", false, []string{"fn", "eval", "--exec", binary, "--fn-config", "fn.yaml"}},
		{"render", true, []string{"fn", "render", "--allow-exec"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := kptItemsPackage(t, c.kptfile)
			if _, errs, err := run(t, dir, nil, kpt, c.args...); err != nil {
				t.Fatalf("kpt %s: %v\n%s", strings.Join(c.args, " "), err, errs)
			}
			first := snapshot(t, dir)
			for _, f := range []string{"instance.yaml", "composable.yaml", "fn.yaml"} {
				got, ok := first[f]
				if !ok {
					t.Errorf("kpt %s deleted %s", c.name, f)
					continue
				}
				assert.Check(t, is.DeepEqual(withLocalConfig(decodeYAML(t, kptItemFiles[f])), decodeYAML(t, got)), "%s is not what it was plus local-config", f)
			}
			if !strings.Contains(first["instance.yaml"], "# busy season") {
				t.Errorf("instance.yaml lost its comment:\n%s", first["instance.yaml"])
			}
			if !strings.Contains(first["rendered/blog/deployment_blog-web.yaml"], "replicas: 5") {
				t.Errorf("the Instance's parameters were not rendered:\n%s", first["rendered/blog/deployment_blog-web.yaml"])
			}
			if got := first["rendered/_composables/configmap_blog-port.yaml"]; !strings.Contains(got, `port: "80"`) {
				t.Errorf("the Composable's object was not generated:\n%s", got)
			}
			if _, errs, err := run(t, dir, nil, kpt, c.args...); err != nil {
				t.Fatalf("second kpt %s: %v\n%s", strings.Join(c.args, " "), err, errs)
			}
			assert.Check(t, is.DeepEqual(first, snapshot(t, dir)), "the second run changed the package")
		})
	}
}
