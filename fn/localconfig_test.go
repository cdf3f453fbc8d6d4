package fn

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// kptAnnotations are the annotations kpt fn eval and kpt fn render add to
// an input item of file (as the real kpt 1.0 writes them).
func kptAnnotations(file, id string) string {
	return "      config.kubernetes.io/index: '0'\n" +
		"      config.kubernetes.io/path: '" + file + "'\n" +
		"      internal.config.kubernetes.io/index: '0'\n" +
		"      internal.config.kubernetes.io/path: '" + file + "'\n" +
		"      internal.config.kubernetes.io/seqindent: 'compact'\n" +
		"      internal.config.kubernetes.io/id: '" + id + "'\n" +
		"      config.k8s.io/id: '" + id + "'\n"
}

const (
	instanceItem = "- apiVersion: kudo.dev/v1beta1\n  kind: Instance\n  metadata:\n    name: blog\n    namespace: web\n    annotations:\n" +
		"  # kpt annotations\n" +
		"  spec:\n    operatorVersion:\n      name: webapp-1.0.0\n    parameters:\n      REPLICAS: \"5\" # busy\n      DEBUG_TOOLS_ENABLED: \"true\"\n"
	instancesConfig = "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata:\n  name: instances\nspec:\n  operators:\n    webapp-1.0.0: {path: operators/webapp}\n  target: plain\n"
	sessionsConfig  = "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata:\n  name: sessions\n  namespace: web\nspec:\n  framework: {path: framework}\n  target: plain\n"
)

// withKpt puts kpt's annotations of file into an item that has an
// "annotations:" line followed by the "# kpt annotations" placeholder.
func withKpt(item, file, id string) string {
	return strings.Replace(item, "  # kpt annotations\n", kptAnnotations(file, id), 1)
}

// asItem indents an object's YAML as an item of a ResourceList.
func asItem(obj string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSuffix(obj, "\n"), "\n") {
		if i == 0 {
			b.WriteString("- " + l + "\n")
		} else {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

func krmList(items, functionConfig string) string {
	fc := ""
	for _, l := range strings.Split(strings.TrimSuffix(functionConfig, "\n"), "\n") {
		fc += "  " + l + "\n"
	}
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items + "functionConfig:\n" + fc
}

// listItems decodes the items of a ResourceList.
func listItems(t *testing.T, list string) []map[string]any {
	t.Helper()
	var rl struct {
		Items []map[string]any `yaml:"items"`
	}
	if err := yaml.Unmarshal([]byte(list), &rl); err != nil {
		t.Fatalf("output is no ResourceList: %v\n%s", err, list)
	}
	return rl.Items
}

// key names an item: kind/namespace/name, with its path.
func key(m map[string]any) string {
	md, _ := m["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	p, _ := ann["config.kubernetes.io/path"].(string)
	if p == "" {
		p, _ = ann["internal.config.kubernetes.io/path"].(string)
	}
	return fmt.Sprintf("%v/%v/%v@%s", m["kind"], md["namespace"], md["name"], p)
}

// TestKRMKeepsConsumedItems: kpt deletes from disk every input item that
// is not in the output (issue 26). The input items the function consumes
// (the Instances it renders, the functionConfig passed as an item, the
// resources of the framework's definitions, Composables) come back with
// config.kubernetes.io/local-config: "true" and otherwise as they were,
// kpt's path and index annotations included; other items come back
// unchanged; objects an earlier run generated are replaced.
func TestKRMKeepsConsumedItems(t *testing.T) {
	cases := map[string]struct {
		reason   string
		dir      string // testdata/krm/<dir>: the packages the case renders
		in       string
		consumed []string // keys of the items that must come back marked
		same     []string // keys of the items that must come back unchanged
		gone     []string // keys of the items that must not come back
		added    []string // keys of generated items that must be there
	}{
		"Instance": {
			reason:   "An Instance item that kpt read from instance.yaml is rendered and stays, or kpt deletes instance.yaml.",
			dir:      "instance",
			in:       krmList(withKpt(instanceItem, "instance.yaml", "2"), instancesConfig),
			consumed: []string{"Instance/web/blog@instance.yaml"},
			added:    []string{"Deployment/web/blog-web@rendered/blog/deployment_blog-web.yaml"},
		},
		"InstanceFlowStyle": {
			reason:   "An Instance whose metadata is a flow mapping is marked too (edited as YAML, not as lines).",
			dir:      "instance",
			in:       krmList("- {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: blog, namespace: web}, spec: {operatorVersion: {name: webapp-1.0.0}, parameters: {REPLICAS: \"5\"}}}\n", instancesConfig),
			consumed: []string{"Instance/web/blog@"},
		},
		"InstanceLocalConfigFalse": {
			reason:   "An Instance is never applied by kpt: local-config \"false\" becomes \"true\".",
			dir:      "instance",
			in:       krmList(strings.Replace(withKpt(instanceItem, "instance.yaml", "1"), "    annotations:\n", "    annotations:\n      config.kubernetes.io/local-config: \"false\"\n", 1), instancesConfig),
			consumed: []string{"Instance/web/blog@instance.yaml"},
		},
		"InstanceAlreadyMarked": {
			reason: "An Instance already marked comes back byte for byte.",
			dir:    "instance",
			in:     krmList(strings.Replace(withKpt(instanceItem, "instance.yaml", "1"), "    annotations:\n", "    annotations:\n      config.kubernetes.io/local-config: \"true\"\n", 1), instancesConfig),
			same:   []string{"Instance/web/blog@instance.yaml"},
		},
		"FunctionConfigItem": {
			reason:   "kpt passes the file of --fn-config (or configPath) as an item too: it is the render's config, kept and marked.",
			dir:      "instance",
			in:       krmList(withKpt(asItem(strings.Replace(instancesConfig, "  name: instances\n", "  name: instances\n  annotations:\n# kpt annotations\n", 1)), "fn.yaml", "1")+withKpt(instanceItem, "instance.yaml", "2"), instancesConfig),
			consumed: []string{"FrameworkRender/<nil>/instances@fn.yaml", "Instance/web/blog@instance.yaml"},
		},
		"OtherFrameworkRender": {
			reason: "A FrameworkRender item that is not this run's config is not consumed: unchanged.",
			dir:    "instance",
			in:     krmList(asItem(strings.Replace(instancesConfig, "name: instances", "name: other", 1))+withKpt(instanceItem, "instance.yaml", "2"), instancesConfig),
			same:   []string{"FrameworkRender/<nil>/other@"},
		},
		"ConfigMapFunctionConfigItem": {
			reason:   "A ConfigMap functionConfig passed as an item is kept and marked.",
			dir:      "configmap",
			in:       krmList(withKpt("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: sessions\n    annotations:\n  # kpt annotations\n  data:\n    framework: framework\n    namespace: cache\n    target: plain\n", "fn.yaml", "1"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sessions\ndata:\n  framework: framework\n  namespace: cache\n  target: plain\n"),
			consumed: []string{"ConfigMap/<nil>/sessions@fn.yaml"},
		},
		"DefinitionResource": {
			reason:   "A resource of the framework's definitions is rendered into Jobs and stays, marked.",
			dir:      "definitions",
			in:       krmList(withKpt("- apiVersion: events.kudorender.dev/v1\n  kind: Topic\n  metadata:\n    name: orders\n    annotations:\n  # kpt annotations\n  spec:\n    topicName: shop.orders\n    partitions: 6\n", "topics/orders.yaml", "1"), "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: orders, namespace: streaming}\nspec:\n  framework: {path: framework}\n  target: plain\n"),
			consumed: []string{"Topic/<nil>/orders@topics/orders.yaml"},
		},
		"Composable": {
			reason:   "A Composable stays, marked, and the object it makes is generated below rendered/_composables/ (it replaced the Composable, whose file kpt deleted).",
			dir:      "references",
			in:       krmList(withKpt("- apiVersion: ibmcloud.ibm.com/v1alpha1\n  kind: Composable\n  metadata:\n    name: derived\n    namespace: web\n    annotations:\n  # kpt annotations\n  spec:\n    template:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: derived\n      data:\n        port:\n          getValueFrom: {kind: Service, name: sessions, path: '{.spec.ports[0].port}'}\n", "composable.yaml", "1"), sessionsConfig),
			consumed: []string{"Composable/web/derived@composable.yaml"},
			added:    []string{"ConfigMap/web/derived@rendered/_composables/configmap_derived.yaml"},
		},
		"Unrelated": {
			reason: "An item the render does not consume comes back as it was, not marked.",
			dir:    "framework-render",
			in:     krmList(withKpt("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: unrelated\n    annotations:\n  # kpt annotations\n  data: {a: b}\n", "unrelated.yaml", "1"), "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: sessions, namespace: web}\nspec:\n  framework: {path: framework}\n  params: {replicas: \"3\"}\n"),
			same:   []string{"ConfigMap/<nil>/unrelated@unrelated.yaml"},
		},
		"EarlierRender": {
			reason:   "An object this render generated in an earlier run (owner marker, older processed-marker) is replaced, as before.",
			dir:      "instance",
			in:       krmList(withKpt(instanceItem, "instance.yaml", "2")+"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: blog-stale\n    namespace: web\n    annotations:\n      kudorender.dev/owner: webapp/web/blog\n      config.kubernetes.io/path: rendered/blog/configmap_blog-stale.yaml\n", instancesConfig),
			consumed: []string{"Instance/web/blog@instance.yaml"},
			gone:     []string{"ConfigMap/web/blog-stale@rendered/blog/configmap_blog-stale.yaml"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := runKRM(t, filepath.Join("testdata/krm", tc.dir), []byte(tc.in))
			if err != nil {
				t.Fatalf("%s\nrun: %v\n%s", tc.reason, err, out)
			}
			in := map[string]map[string]any{}
			for _, m := range listItems(t, tc.in) {
				in[key(m)] = m
			}
			got := map[string]map[string]any{}
			for _, m := range listItems(t, out) {
				got[key(m)] = m
			}
			for _, k := range tc.consumed {
				want := in[k]
				if want == nil {
					t.Fatalf("test setup: no input item %s among %v", k, keysOf(in))
				}
				setLocalConfig(want)
				if got[k] == nil {
					t.Errorf("%s\n%s is not in the output (kpt deletes its file); output items: %v", tc.reason, k, keysOf(got))
					continue
				}
				assert.Check(t, is.DeepEqual(want, got[k]), "%s\n%s: want the input item plus local-config", tc.reason, k)
			}
			for _, k := range tc.same {
				assert.Check(t, is.DeepEqual(in[k], got[k]), "%s\n%s changed", tc.reason, k)
			}
			for _, k := range tc.gone {
				if got[k] != nil {
					t.Errorf("%s\n%s is still in the output", tc.reason, k)
				}
			}
			for _, k := range tc.added {
				if got[k] == nil {
					t.Errorf("%s\n%s is not generated; output items: %v", tc.reason, k, keysOf(got))
				}
			}
			again, err := runKRM(t, filepath.Join("testdata/krm", tc.dir), []byte(out))
			if err != nil {
				t.Fatalf("second run: %v", err)
			}
			assert.Check(t, is.DeepEqual(out, again), "%s\nthe second run changed the output", tc.reason)
		})
	}
}

func keysOf(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKRMInstanceTextKept: a marked Instance keeps its text (comments,
// quoting, kpt's annotations) but for the one line the marker adds.
func TestKRMInstanceTextKept(t *testing.T) {
	in := krmList(withKpt(instanceItem, "instance.yaml", "2"), instancesConfig)
	out, err := runKRM(t, filepath.Join("testdata/krm", "instance"), []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(withKpt(instanceItem, "instance.yaml", "2"), "    annotations:\n", "    annotations:\n      config.kubernetes.io/local-config: \"true\"\n", 1)
	if !strings.Contains(out, want) {
		t.Errorf("the Instance item is not its input text plus the marker; want\n%s\nin\n%s", want, out)
	}
}

// TestKRMBlockAndWholeAgree: a ResourceList read line by line (block
// style, the fast path for large lists) and the same list as JSON (decoded
// whole) give outputs whose items and functionConfig are the same objects.
func TestKRMBlockAndWholeAgree(t *testing.T) {
	for _, c := range []struct{ dir, in string }{
		{"instance", krmList(withKpt(instanceItem, "instance.yaml", "2"), instancesConfig)},
		{"references", krmList(withKpt("- apiVersion: ibmcloud.ibm.com/v1alpha1\n  kind: Composable\n  metadata:\n    name: derived\n    namespace: web\n    annotations:\n  # kpt annotations\n  spec:\n    template:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: derived}\n      data:\n        port:\n          getValueFrom: {kind: Service, name: sessions, path: '{.spec.ports[0].port}'}\n", "composable.yaml", "1"), sessionsConfig)},
	} {
		var v any
		if err := yaml.Unmarshal([]byte(c.in), &v); err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("testdata/krm", c.dir)
		block, err := runKRM(t, dir, []byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		whole, err := runKRM(t, dir, js)
		if err != nil {
			t.Fatal(err)
		}
		var b, w any
		yaml.Unmarshal([]byte(block), &b)
		yaml.Unmarshal([]byte(whole), &w)
		assert.Check(t, is.DeepEqual(b, w), "%s: block and whole outputs differ", c.dir)
	}
}

// TestMarkLocalConfig: the marker is added to any layout of an object, and
// the result decodes to the object plus the marker.
func TestMarkLocalConfig(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		exact  string // the text expected, when it must be exact
	}{
		"BlockAnnotations":   {reason: "one line above the first annotation", in: "kind: Instance\nmetadata:\n  name: a\n  annotations:\n    x: 'y'\n", exact: "kind: Instance\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n    x: 'y'\n"},
		"BlockNoAnnotations": {reason: "annotations added above metadata's first key", in: "kind: Instance\nmetadata:\n  # the name\n  name: a\nspec: {}\n", exact: "kind: Instance\nmetadata:\n  # the name\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n  name: a\nspec: {}\n"},
		"WideIndent":         {reason: "four-space indentation", in: "kind: Instance\nmetadata:\n    annotations:\n        x: y\n    name: a\n", exact: "kind: Instance\nmetadata:\n    annotations:\n        config.kubernetes.io/local-config: \"true\"\n        x: y\n    name: a\n"},
		"FlowMetadata":       {reason: "a flow mapping is edited as YAML", in: "kind: Instance\nmetadata: {name: a}\n"},
		"FlowAnnotations":    {reason: "flow annotations", in: "kind: Instance\nmetadata:\n  annotations: {x: y}\n"},
		"NullAnnotations":    {reason: "annotations without a value", in: "kind: Instance\nmetadata:\n  annotations:\n  name: a\n"},
		"EmptyAnnotations":   {reason: "annotations: {}", in: "kind: Instance\nmetadata:\n  annotations: {}\n"},
		"NoMetadata":         {reason: "no metadata at all", in: "kind: Instance\nspec: {a: 1}\n"},
		"ExistingFalse":      {reason: "an existing marker is set to true", in: "kind: Instance\nmetadata:\n  annotations:\n    config.kubernetes.io/local-config: \"false\"\n"},
		"AliasedMetadata":    {reason: "metadata through an alias", in: "x: &m {name: a}\nmetadata: *m\n"},
		"BlockScalar":        {reason: "a block scalar annotation stays whole", in: "metadata:\n  annotations:\n    id: |\n      kind: ConfigMap\n      name: a\n  name: a\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := markLocalConfig([]byte(tc.in))
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			var want, have map[string]any
			yaml.Unmarshal([]byte(tc.in), &want)
			setLocalConfig(want)
			if err := yaml.Unmarshal(got, &have); err != nil {
				t.Fatalf("%s: the result is not YAML: %v\n%s", tc.reason, err, got)
			}
			assert.Check(t, is.DeepEqual(want, have), "%s", tc.reason)
			if tc.exact != "" && string(got) != tc.exact {
				t.Errorf("%s: got\n%s\nwant\n%s", tc.reason, got, tc.exact)
			}
		})
	}
}

// TestKRMUpToDateStillMarks: when the rendered objects are up to date
// (nothing is rendered again) an Instance without the marker still gets
// it, and nothing else changes.
func TestKRMUpToDateStillMarks(t *testing.T) {
	dir := filepath.Join("testdata/krm", "instance")
	first, err := runKRM(t, dir, []byte(krmList(withKpt(instanceItem, "instance.yaml", "2"), instancesConfig)))
	if err != nil {
		t.Fatal(err)
	}
	unmarked := strings.Replace(first, "      config.kubernetes.io/local-config: \"true\"\n", "", 1)
	if unmarked == first {
		t.Fatal("test setup: the first run did not mark the Instance")
	}
	second, err := runKRM(t, dir, []byte(unmarked))
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.DeepEqual(first, second))
}

// FuzzMarkLocalConfig: whatever the layout of an object, the marked text
// decodes to the object plus the marker.
func FuzzMarkLocalConfig(f *testing.F) {
	f.Add("kind: Instance\nmetadata:\n  name: a\n  annotations:\n    x: 'y'\n")
	f.Add("kind: Instance\nmetadata:\n  # c\n  name: a\nspec: {}\n")
	f.Add("metadata: {name: a, annotations: {x: y}}\n")
	f.Add("x: &m {name: a}\nmetadata: *m\n")
	f.Add("metadata:\n  annotations:\n    id: |\n      kind: A\n  name: a\n")
	f.Fuzz(func(t *testing.T, in string) {
		if strictyaml.CheckValues([]byte(in), "the item") != nil {
			return
		}
		var want map[string]any
		if yaml.Unmarshal([]byte(in), &want) != nil || want == nil {
			return
		}
		if _, ok := want["metadata"].(map[string]any); !ok && want["metadata"] != nil {
			return // not an object: metadata is no mapping
		}
		if md, _ := want["metadata"].(map[string]any); md != nil {
			if _, ok := md["annotations"].(map[string]any); !ok && md["annotations"] != nil {
				return
			}
		}
		got, err := markLocalConfig([]byte(in))
		if err != nil {
			t.Fatalf("%v\ninput:\n%q", err, in)
		}
		setLocalConfig(want)
		var have map[string]any
		if err := yaml.Unmarshal(got, &have); err != nil {
			t.Fatalf("the result is not YAML: %v\ninput:\n%q\nresult:\n%s", err, in, got)
		}
		assert.Assert(t, is.DeepEqual(want, have), "input:\n%q\nresult:\n%s", in, got)
	})
}
