package differential

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// TestReduceKeepsWhatDisagrees: a verdict that refuses every object with
// spec.replicas (which the server accepts) disagrees on a Deployment;
// the reproducer keeps the object's identity, spec.replicas and what the
// server needs to accept a Deployment (a selector, a template with its
// labels and a container's name and image), and nothing else.
func TestReduceKeepsWhatDisagrees(t *testing.T) {
	srv := kubetest.Start(t)
	defer func(o func([]byte) ([]map[string]any, string)) { oursOf = o }(oursOf)
	oursOf = func(doc []byte) ([]map[string]any, string) {
		emit, why := Ours(doc)
		if why == "" && strings.Contains(string(doc), "replicas:") {
			why = "a refusal of spec.replicas"
		}
		return emit, why
	}
	seeds, err := ParseSeeds("test", []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx:1.27, ports: [{containerPort: 80}]}]
`), "differential")
	if err != nil || len(seeds) != 1 {
		t.Fatalf("%d seeds, %v", len(seeds), err)
	}
	c := Cases(seeds[0], nil)[0]
	r, err := Judge(t.Context(), srv, c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Agrees() || r.Class != nil {
		t.Fatalf("no unclassified disagreement: kudo-render %q, server %q", r.Ours, r.Theirs)
	}
	reduced, err := Reduce(t.Context(), srv, r, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := yaml.Unmarshal(reduced.Doc, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "differential"},
		"spec": map[string]any{
			"replicas": 2.0,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "app", "image": "nginx:1.27"}}},
			},
		}}
	if string(document(got)) != string(document(want)) {
		t.Errorf("reproducer:\n%s\nwant:\n%s", reduced.Doc, document(want))
	}
}

// TestClassify: a disagreement is classified only when every refusal of
// kudo-render's is of the class, or the server's refusal is.
func TestClassify(t *testing.T) {
	svc := docKind([]byte("apiVersion: v1\nkind: Service\n"))
	slice := docKind([]byte("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"))
	nodePort := "Service n/s: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767 (...)"
	cases := []struct {
		reason, ours, theirs, class string
	}{
		{"a node port a dry run lets through", nodePort, "", "dry run"},
		{"with another refusal beside it", nodePort + "\nService n/s: spec.type: Unsupported value", "", ""},
		{"a refusal of kudo-render's of no class", "Service n/s: spec.ports: Required value", "", ""},
		{"a cluster IP of another range", "", `refused: Service "s" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: the provided IP (10.96.0.10) is not in the valid range`, "service range"},
		{"a server refusal of no class", "", "refused: spec.ports[0].port: Invalid value: 0", ""},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			got := ""
			if cl := Classify(svc, c.ours, c.theirs); cl != nil {
				got = cl.Name
			}
			if got != c.class {
				t.Errorf("class %q, want %q", got, c.class)
			}
		})
	}
	if cl := Classify(slice, "", "refused: anything"); cl == nil || !strings.HasPrefix(cl.Name, "not checked") {
		t.Errorf("a kind listed as not checked: class %v", cl)
	}
}
