package fn

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"
)

func runKRM(t *testing.T, dir string, input []byte) (string, error) {
	t.Helper()
	var out bytes.Buffer
	f := &Function{Dir: dir}
	err := f.Run(bytes.NewReader(input), &out)
	return out.String(), err
}

// TestKRMGolden: testdata/krm/<case>/input.yaml is a ResourceList run in
// that folder; expected.yaml is the output ResourceList. Cases named
// error-* must fail (and still write the ResourceList with results).
func TestKRMGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/krm/*")
	if len(dirs) == 0 {
		t.Fatal("no cases")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := runKRM(t, dir, in)
			if wantErr := strings.HasPrefix(filepath.Base(dir), "error-"); wantErr != (err != nil) {
				t.Fatalf("error = %v, want error: %v\n%s", err, wantErr, got)
			}
			golden.Assert(t, got, filepath.Join("krm", filepath.Base(dir), "expected.yaml"))
		})
	}
}

// TestKRMIdempotent: running the function on its own output replaces the
// generated objects instead of duplicating them, and changes nothing.
func TestKRMIdempotent(t *testing.T) {
	for _, c := range []string{"framework-render", "configmap", "instance", "definitions", "references"} {
		dir := filepath.Join("testdata/krm", c)
		in, _ := os.ReadFile(filepath.Join(dir, "input.yaml"))
		first, err := runKRM(t, dir, in)
		if err != nil {
			t.Fatal(err)
		}
		second, err := runKRM(t, dir, []byte(first))
		if err != nil {
			t.Fatal(err)
		}
		assert.Check(t, is.DeepEqual(first, second), "%s: second run changed the output", c)
	}
}

// TestKRMProcessedUntouched: objects that carry the processed-markers a
// render gives them are left as they are, even when they differ from a
// fresh render: no churn, no update loop. An object the render makes that
// the input lacks is rendered again.
func TestKRMProcessedUntouched(t *testing.T) {
	dir := filepath.Join("testdata/krm", "framework-render")
	in, _ := os.ReadFile(filepath.Join(dir, "input.yaml"))
	first, err := runKRM(t, dir, in)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(first, "replicas: 3", "replicas: 7", 1)
	if edited == first {
		t.Fatal("test setup: no replicas: 3 in the output")
	}
	second, err := runKRM(t, dir, []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.Equal(edited, second), "processed objects were changed")
	// A different input (another parameter value) renders again.
	changed := strings.Replace(edited, `params: {replicas: "3"}`, `params: {replicas: "4"}`, 1)
	third, err := runKRM(t, dir, []byte(changed))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(third, "replicas: 4") || strings.Contains(third, "replicas: 7") {
		t.Error("a changed input did not re-render")
	}
	// An object deleted from the output comes back (its sibling's marker
	// is still current).
	deleted := withoutItem(t, edited, "kind: Service\n")
	fourth, err := runKRM(t, dir, []byte(deleted))
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.Equal(first, fourth), "the deleted Service was not rendered again")
}

// withoutItem removes from a ResourceList's text the item (a top-level
// "- " entry of items:) holding text.
func withoutItem(t *testing.T, list, text string) string {
	t.Helper()
	parts := strings.Split(list, "\n- ")
	for i, p := range parts {
		if i > 0 && strings.Contains(p, text) {
			return strings.Join(append(parts[:i:i], parts[i+1:]...), "\n- ")
		}
	}
	t.Fatalf("test setup: no item holds %q", text)
	return ""
}

// TestResourceSource: a resource's source is where the orchestrator says
// the input item came from.
func TestResourceSource(t *testing.T) {
	cases := map[string]struct {
		reason      string
		annotations map[string]any
		want        string
	}{
		"Path":         {reason: "config.kubernetes.io/path alone.", annotations: map[string]any{"config.kubernetes.io/path": "topics.yaml"}, want: "topics.yaml"},
		"PathAndIndex": {reason: "The index follows the path.", annotations: map[string]any{"config.kubernetes.io/path": "topics.yaml", "config.kubernetes.io/index": "2"}, want: "topics.yaml #2"},
		"IndexZero":    {reason: "Index 0 is left out.", annotations: map[string]any{"config.kubernetes.io/path": "topics.yaml", "config.kubernetes.io/index": "0"}, want: "topics.yaml"},
		"Internal":     {reason: "internal.config.kubernetes.io/path when the other is absent.", annotations: map[string]any{"internal.config.kubernetes.io/path": "a/b.yaml"}, want: "a/b.yaml"},
		"Both":         {reason: "config.kubernetes.io/path wins.", annotations: map[string]any{"internal.config.kubernetes.io/path": "a.yaml", "config.kubernetes.io/path": "b.yaml"}, want: "b.yaml"},
		"IndexOnly":    {reason: "An index without a path says nothing.", annotations: map[string]any{"config.kubernetes.io/index": "3"}},
		"None":         {reason: "No annotations.", annotations: nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := map[string]any{"metadata": map[string]any{"name": "x", "annotations": tc.annotations}}
			if got := resourceSource(obj); got != tc.want {
				t.Errorf("%s\nresourceSource(%v) = %q, want %q", tc.reason, tc.annotations, got, tc.want)
			}
		})
	}
}

// TestKRMWarningsInResults: the warnings of a run, the render's and those
// of the input items' references (a value copied out of a Secret into a
// Composable's object), are results of the ResourceList, each problem
// once, and ride on the objects concerned (issue 33.3).
func TestKRMWarningsInResults(t *testing.T) {
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Secret
  metadata: {name: db, namespace: web}
  stringData: {password: hunter2-hunter2}
- apiVersion: ibmcloud.ibm.com/v1alpha1
  kind: Composable
  metadata: {name: derived, namespace: web}
  spec:
    template:
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: derived}
      data:
        pw: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}'}}
functionConfig:
  apiVersion: kudorender.dev/v1alpha1
  kind: FrameworkRender
  metadata: {name: sessions, namespace: web}
  spec:
    framework: {path: framework}
    target: plain
`
	out, err := runKRM(t, filepath.Join("testdata/krm", "references"), []byte(in))
	assert.NilError(t, err)
	var rl struct {
		Items   []map[string]any `yaml:"items"`
		Results []struct {
			Message  string `yaml:"message"`
			Severity string `yaml:"severity"`
		} `yaml:"results"`
	}
	assert.NilError(t, yaml.Unmarshal([]byte(out), &rl))
	assert.Equal(t, len(rl.Results), 1, "%v", rl.Results)
	assert.Check(t, is.Equal(rl.Results[0].Severity, "warning"))
	assert.Check(t, is.Contains(rl.Results[0].Message, "value copied out of Secret web/db"))
	var derived map[string]any
	for _, it := range rl.Items {
		if md := it["metadata"].(map[string]any); md["name"] == "derived" && it["kind"] == "ConfigMap" {
			derived = md
		}
	}
	assert.Assert(t, derived != nil, "no ConfigMap derived in the output")
	ann, _ := derived["annotations"].(map[string]any)
	assert.Check(t, is.Contains(ann["kudorender.dev/warnings"], "data.pw: "), "%v", ann)
	assert.Check(t, !strings.Contains(fmt.Sprint(rl.Results, ann), "hunter2"), "a Secret's value in a warning")
}

// TestKRMDependenciesReplaced: the objects of an instance a KudoOperator
// task installs are owned by the request that renders it, so a run after
// a parameter change replaces them instead of keeping the old ones beside
// the new (they had no owner: every change duplicated them).
func TestKRMDependenciesReplaced(t *testing.T) {
	list := func(params string) string {
		return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n" +
			"  kind: FrameworkRender\n  metadata: {name: blog, namespace: web}\n  spec:\n    framework: {path: dependencies}\n" + params
	}
	first, err := runKRM(t, "../examples", []byte(list("")))
	assert.NilError(t, err)
	count := func(out string) int { return strings.Count(out, "\n- apiVersion: ") }
	n := count(first)
	assert.Assert(t, n > 1 && !strings.Contains(first, `kudorender.dev/owner: ""`), "every object owned:\n%s", first)
	changed := strings.Replace(first, "    framework: {path: dependencies}\n", "    framework: {path: dependencies}\n    params: {WEB_REPLICAS: \"5\"}\n", 1)
	second, err := runKRM(t, "../examples", []byte(changed))
	assert.NilError(t, err)
	assert.Equal(t, count(second), n, "the dependency's objects are kept beside their new versions:\n%s", second)
	assert.Check(t, is.Contains(second, "replicas: 5"))
}
