package validate_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// objects decodes a YAML stream as kudo-render decodes rendered templates.
func objects(t testing.TB, src string) []*object.Object {
	t.Helper()
	out, err := tmpl.Render("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := tmpl.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	objs := make([]*object.Object, len(docs))
	for i, d := range docs {
		objs[i] = object.New(d.Map)
	}
	return objs
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: data
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 8080}]
        resources: {limits: {cpu: "2"}}
`

func TestObject(t *testing.T) {
	cases := []struct {
		reason string
		src    string
		want   []string // "field: message part"; none: valid
	}{
		{reason: "a valid deployment", src: deployment},
		{reason: "a service port as a string", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports: [{port: \"3888\"}]\n",
			want: []string{`spec.ports[0].port: Invalid value: "3888": expected an integer`}},
		{reason: "a name with an underscore", src: "apiVersion: v1\nkind: Service\nmetadata: {name: zk_HS}\nspec:\n  ports: [{port: 3888}]\n",
			want: []string{`metadata.name: Invalid value: "zk_HS"`}},
		{reason: "a misspelt kind", src: "apiVersion: v1\nkind: Servic\nmetadata: {name: s}\n",
			want: []string{`kind: no kind "Servic" is served in v1; did you mean "Service"?`}},
		{reason: "replicas as a string", src: strings.Replace(deployment, "replicas: 3", `replicas: "3"`, 1),
			want: []string{`spec.replicas: Invalid value: "3": expected an integer`}},
		{reason: "a container without a name", src: strings.Replace(deployment, "- name: web\n        image", "- image", 1),
			want: []string{"spec.template.spec.containers[0].name: Required value"}},
		{reason: "a label value of 70 characters", src: strings.Replace(deployment, "  namespace: data\n", "  namespace: data\n  labels: {a: "+strings.Repeat("x", 70)+"}\n", 1),
			want: []string{"metadata.labels: Invalid value: \"" + strings.Repeat("x", 70) + "\": must be no more than 63 bytes"}},
		{reason: "a label key with two slashes", src: strings.Replace(deployment, "  namespace: data\n", "  namespace: data\n  labels: {a/b/c: x}\n", 1),
			want: []string{`metadata.labels: Invalid value: "a/b/c"`}},
		{reason: "a port out of range", src: strings.Replace(deployment, "8080", "70000", 1),
			want: []string{"spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535"}},
		{reason: "a quantity that is no quantity", src: strings.Replace(deployment, `cpu: "2"`, "cpu: 2 cores", 1),
			want: []string{`spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "2 cores"`}},
		{reason: "a selector that does not match the template", src: strings.Replace(deployment, "labels: {app: web}", "labels: {app: api}", 1),
			want: []string{"spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"}},
		{reason: "an apiVersion no longer served", src: "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {minAvailable: 1, selector: {matchLabels: {a: b}}}\n",
			want: []string{"apiVersion: policy/v1beta1 is not served by Kubernetes 1.37; PodDisruptionBudget is served as policy/v1"}},
		{reason: "a Secret's values never appear in messages", src: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: hunter2!}\nstringData: {\"a b\": hunter3}\n",
			want: []string{"data[a b]: Invalid value: a valid config key", "data[password]: Invalid value: expected base64 data"}},
		{reason: "a List is no resource of the API server", src: "apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n",
			want: []string{`kind: no kind "List" is served in v1; a list is read by clients`}},
		{reason: "nor a ConfigMapList", src: "apiVersion: v1\nkind: ConfigMapList\nitems: []\n",
			want: []string{`kind: no kind "ConfigMapList" is served in v1; a list is read by clients`}},
		{reason: "kinds of unknown groups are not validated", src: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: Not_Valid}\nspec: {size: x}\n"},
		{reason: "a Job gets its generated selector", src: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n"},
		{reason: "two env vars of one name: server-side apply refuses them", src: strings.Replace(deployment, "ports: [{containerPort: 8080}]", "env: [{name: A, value: x}, {name: A, value: y}]", 1),
			want: []string{`spec.template.spec.containers[0].env[1]: Invalid value: server-side apply refuses it (Argo CD, Flux and kubectl --server-side apply so): duplicate entries for key [name="A"]`}},
		{reason: "two container ports of one number and protocol (TCP, its default)", src: strings.Replace(deployment, "[{containerPort: 8080}]", "[{containerPort: 8080}, {containerPort: 8080, protocol: TCP, name: b}]", 1),
			want: []string{`spec.template.spec.containers[0].ports[1]: Invalid value: server-side apply refuses it (Argo CD, Flux and kubectl --server-side apply so): duplicate entries for key [containerPort=8080,protocol="TCP"]`}},
		{reason: "a finalizer twice: a set", src: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, finalizers: [example.com/a, example.com/a]}\n",
			want: []string{`metadata.finalizers[1]: Invalid value: server-side apply refuses it (Argo CD, Flux and kubectl --server-side apply so): duplicate entries for key [="example.com/a"]`}},
		{reason: "a LoadBalancer with local traffic gets its health check port from the server", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  ports: [{port: 9042}]\n"},
		{reason: "a node port outside the default range", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 80}]\n",
			want: []string{"spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767 (kube-apiserver's default --service-node-port-range"}},
		{reason: "a health check port outside the default range", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 80\n  ports: [{port: 80}]\n",
			want: []string{"spec.healthCheckNodePort: Invalid value: 80: failed to allocate the requested health check node port: provided port is not in the valid range"}},
		{reason: "one node port for two port numbers", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  type: NodePort\n  ports: [{name: a, port: 80, nodePort: 30080}, {name: b, port: 81, nodePort: 30080}]\n",
			want: []string{"spec.ports[1].nodePort: Duplicate value: 30080", "spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated"}},
		{reason: "a PodDisruptionBudget's metadata: its validation covers the spec only", src: "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, labels: {a/b/c: x}}\nspec: {minAvailable: 1, selector: {matchLabels: {a: b}}}\n",
			want: []string{`metadata.labels: Invalid value: "a/b/c"`}},
		{reason: "an integer too large for its int32: the server cuts it, a warning", src: "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: p}\nvalue: 2147483648\n",
			want: []string{"value: Invalid value: 2147483648: does not fit in a int32: the API server accepts it and stores -2147483648"}},
		{reason: "and validated as cut", src: strings.Replace(deployment, "replicas: 3", "replicas: 4294967295", 1),
			want: []string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0", "spec.replicas: Invalid value: 4294967295: does not fit in a int32: the API server accepts it and stores -1"}},
		{reason: "a field whose feature gate is off is dropped as the server drops it, not refused (lifecycle.stopSignal)", src: strings.Replace(deployment, "ports: [{containerPort: 8080}]", "lifecycle: {stopSignal: SIGUSR1}", 1)},
		{reason: "a Lease's strategy, behind CoordinatedLeaderElection", src: "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l}\nspec: {strategy: x}\n"},
		{reason: "a status is the server's to fill", src: strings.Replace(deployment, "spec:\n  replicas: 3", "status: {replicas: -1, conditions: [{type: \"\"}]}\nspec:\n  replicas: 3", 1)},
		{reason: "a Pod giving spec.priority: the Priority admission plugin computes it", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priority: 100\n  containers: [{name: c, image: busybox}]\n",
			want: []string{"spec.priority: Forbidden: the integer value of priority (100) must not be provided in pod spec; priority admission controller computed 0"}},
		{reason: "the priority of a system class", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: system-node-critical\n  priority: 2000001000\n  containers: [{name: c, image: busybox}]\n"},
		{reason: "the priority of a class of the render", src: "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: high\n  priority: 999\n  containers: [{name: c, image: busybox}]\n",
			want: []string{"spec.priority: Forbidden: the integer value of priority (999) must not be provided in pod spec; priority admission controller computed 1000"}},
		{reason: "a class only the cluster may hold is not known", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: elsewhere\n  priority: 5\n  containers: [{name: c, image: busybox}]\n"},
		{reason: "an overhead without a RuntimeClass", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  overhead: {cpu: 10m}\n  containers: [{name: c, image: busybox}]\n",
			want: []string{"spec.overhead: Forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"}},
		{reason: "a Namespace's Pod Security labels", src: "apiVersion: v1\nkind: Namespace\nmetadata: {name: n, labels: {pod-security.kubernetes.io/enforce: strict}}\n",
			want: []string{"metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"strict\""}},
		{reason: "two IP families with the policy defaulted to SingleStack", src: "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ipFamilies: [IPv4, IPv6]\n  ports: [{port: 80}]\n",
			want: []string{`spec.ipFamilyPolicy: Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`}},
		{reason: "a Pod giving preemptionPolicy: without a class, PreemptLowerPriority", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  preemptionPolicy: Never\n  containers: [{name: c, image: busybox}]\n",
			want: []string{"spec.preemptionPolicy: Forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority"}},
		{reason: "a node port two Services of the render ask for", src: "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: n}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 30080}]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b, namespace: n}\nspec:\n  type: LoadBalancer\n  ports: [{port: 80, nodePort: 30080}]\n",
			want: []string{"spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated: Service n/a of the render asks for it too"}},
		{reason: "a custom resource is validated against its definition", src: crd + "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: big}\n",
			want: []string{`spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`}},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			objs := objects(t, c.src)
			got := validate.Objects(objs, validate.Options{})
			var msgs []string
			for _, ds := range got {
				for _, d := range ds {
					msgs = append(msgs, d.Field+": "+d.Msg)
				}
			}
			if strings.Contains(strings.Join(msgs, "\n"), "hunter") {
				t.Errorf("a Secret value in a message:\n%s", strings.Join(msgs, "\n"))
			}
			if len(msgs) != len(c.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(msgs), len(c.want), strings.Join(msgs, "\n"))
			}
			for i, w := range c.want {
				if !strings.Contains(msgs[i], w) {
					t.Errorf("problem %d:\n got %s\nwant %s", i, msgs[i], w)
				}
			}
		})
	}
}

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
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
              size: {type: integer}
`

func TestTypeErrorsDoNotHideTheRest(t *testing.T) {
	src := strings.Replace(strings.Replace(deployment, "replicas: 3", `replicas: "3"`, 1), "8080", "70000", 1)
	src = strings.Replace(src, "labels: {app: web}\n    spec", "labels: {app: web, app.kubernetes.io/part: 1}\n    spec", 1)
	var msgs []string
	for _, d := range validate.Objects(objects(t, src), validate.Options{})[0] {
		msgs = append(msgs, d.Field+": "+d.Msg)
	}
	want := []string{
		`spec.replicas: Invalid value: "3": expected an integer`,
		`spec.template.metadata.labels[app.kubernetes.io/part]: Invalid value: 1: expected a string`,
		`spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000`,
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(msgs), len(want), strings.Join(msgs, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(msgs[i], w) {
			t.Errorf("problem %d:\n got %s\nwant %s", i, msgs[i], w)
		}
	}
}

// TestGoNumbers: values a patch or a parameter gives as Go int (not
// int64) are numbers.
func TestGoNumbers(t *testing.T) {
	svc := object.New(map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "s"},
		"spec":     map[string]any{"ports": []any{map[string]any{"port": 3306, "targetPort": int32(3306)}}, "sessionAffinityConfig": map[string]any{"clientIP": map[string]any{"timeoutSeconds": uint16(10)}}},
	})
	if ds := validate.Objects([]*object.Object{svc}, validate.Options{})[0]; len(ds) > 0 {
		t.Errorf("a Go int is refused: %v", ds)
	}
}

// TestDeterministicOrder: problems of map entries (labels) come in the
// same order every time, though Kubernetes walks the map.
func TestDeterministicOrder(t *testing.T) {
	src := strings.Replace(deployment, "  namespace: data\n", "  namespace: data\n  labels: {a/b/c: x, d/e/f: y, g/h/i: z, j/k/l: w, -x: v, y-: u}\n", 1)
	var first string
	for i := 0; i < 20; i++ {
		var msgs []string
		for _, d := range validate.Objects(objects(t, src), validate.Options{})[0] {
			msgs = append(msgs, d.Error())
		}
		got := strings.Join(msgs, "\n")
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}
