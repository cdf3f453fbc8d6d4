package kube_test

import (
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/kube"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// decode renders YAML text as a template would be, keeping what YAML 1.1
// would read differently.
func decode(t *testing.T, text string) []*object.Object {
	t.Helper()
	out, err := tmpl.Render("templates/t.yaml", []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := tmpl.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	var objs []*object.Object
	for _, d := range docs {
		o := object.New(d.Map)
		o.Bool11 = d.Bool11
		objs = append(objs, o)
	}
	return objs
}

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: caches.example.com}
spec:
  group: example.com
  names: {kind: Cache, plural: caches}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                enabled: {type: boolean}
                mode: {type: string}
                extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
`

func TestNormalizeTypes(t *testing.T) {
	cases := []struct {
		reason, text string
		path         []string
		want         any
	}{
		{"a boolean field of a built-in kind gets the boolean (Kubernetes reads yes as true)",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      volumeMounts:\n        - {name: v, mountPath: /v, readOnly: yes}\n",
			[]string{"spec", "containers", "0", "volumeMounts", "0", "readOnly"}, true},
		{"off is false",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  paused: off\n",
			[]string{"spec", "paused"}, false},
		{"a string field keeps the string (kubectl would fail on value: yes)",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      env:\n        - {name: DEBUG, value: yes}\n",
			[]string{"spec", "containers", "0", "env", "0", "value"}, "yes"},
		{"a label value is a string",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {enabled: on}}\n",
			[]string{"metadata", "labels", "enabled"}, "on"},
		{"an IntOrString field takes strings: it stays",
			"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n    - {port: 80, targetPort: y}\n",
			[]string{"spec", "ports", "0", "targetPort"}, "y"},
		{"a quoted yes is always a string",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  paused: \"yes\"\n",
			[]string{"spec", "paused"}, "yes"},
		{"a kind with no known schema is read as Kubernetes reads it",
			"apiVersion: example.org/v1\nkind: Widget\nmetadata: {name: w}\nspec: {enabled: yes}\n",
			[]string{"spec", "enabled"}, true},
		{"a boolean of a CRD of the same render",
			crd + "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: c}\nspec: {enabled: on, mode: on}\n",
			[]string{"spec", "enabled"}, true},
		{"a string of a CRD of the same render stays",
			crd + "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: c}\nspec: {enabled: on, mode: on}\n",
			[]string{"spec", "mode"}, "on"},
		{"a free-form field of a CRD is read as Kubernetes reads it",
			crd + "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: c}\nspec: {extra: {x: no}}\n",
			[]string{"spec", "extra", "x"}, false},
	}
	for _, tc := range cases {
		objs := decode(t, tc.text)
		if _, err := kube.Normalize(objs, kube.Options{}); err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		o := objs[len(objs)-1]
		var v any = o.Map
		for _, p := range tc.path {
			switch c := v.(type) {
			case map[string]any:
				v = c[p]
			case []any:
				var i int
				fmt.Sscan(p, &i)
				v = c[i]
			}
		}
		assert.Check(t, is.DeepEqual(tc.want, v), "%s", tc.reason)
	}
}

func TestNormalizePrunes(t *testing.T) {
	text := `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ns}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata:
      labels: {app: d}
      initializers: {pending: []}
    spec:
      containers:
        - name: c
          image: nginx
          resources: {limits: {cpu: "1"}}
          imagePullPolice: Always
`
	objs := decode(t, text)
	found, err := kube.Normalize(objs, kube.Options{Where: func(int) string { return "templates/t.yaml" }})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range found {
		got = append(got, d.Error())
	}
	want := []string{
		"templates/t.yaml: Deployment ns/d: spec.template.metadata.initializers: removed: apps/v1 Deployment has no such field (the API server refuses it with strict field validation; KUDO dropped it)",
		"templates/t.yaml: Deployment ns/d: spec.template.spec.containers[0].imagePullPolice: removed: apps/v1 Deployment has no such field (the API server refuses it with strict field validation; KUDO dropped it)",
	}
	assert.Check(t, is.DeepEqual(want, got))
	data, _ := objs[0].Marshal()
	if strings.Contains(string(data), "initializers") || strings.Contains(string(data), "imagePullPolice") || !strings.Contains(string(data), "cpu: \"1\"") {
		t.Errorf("the fields must be gone, the rest untouched:\n%s", data)
	}
	if _, err := kube.Normalize(decode(t, text), kube.Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "strict") {
		t.Errorf("strict: want an error, got %v", err)
	}
}

// TestNormalizeLeavesCleanObjects: an object with only known fields is
// not changed at all (no round trip through the Go types).
func TestNormalizeLeavesCleanObjects(t *testing.T) {
	text := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  serviceName: s\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: c, image: i, ports: [{containerPort: 80}]}]\n  volumeClaimTemplates:\n    - metadata: {name: d}\n      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
	objs := decode(t, text)
	before, _ := objs[0].Marshal()
	found, err := kube.Normalize(objs, kube.Options{})
	after, _ := objs[0].Marshal()
	assert.Check(t, err)
	assert.Check(t, is.Len(found, 0), "unknown fields found in a clean object")
	assert.Check(t, is.Equal(string(before), string(after)), "a clean object changed")
}

func ExampleNormalize() {
	o := object.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web"},
		"spec":     map[string]any{"paused": "yes", "templateGeneration": 3}})
	o.Bool11 = []string{"/spec/paused"} // written as a plain yes
	found, _ := kube.Normalize([]*object.Object{o}, kube.Options{})
	fmt.Println(o.Map["spec"], len(found), found[0].Field)
	// Output: map[paused:true] 1 spec.templateGeneration
}
