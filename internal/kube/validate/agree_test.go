package validate_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/test/differential"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// refusal is kudo-render's verdict on a template: the reason it refuses
// it, "" when it renders. It runs what a render runs on rendered text
// (differential.Ours): decoding (duplicate keys), typing, conversion of
// removed API versions, validation.
func refusal(src string) string {
	out, err := tmpl.Render("case.yaml", []byte(src), nil)
	if err != nil {
		return err.Error()
	}
	_, why := differential.Ours(out.Text)
	return why
}

// TestAgreesWithAPIServer: for every template of the table, kudo-render
// refuses it exactly when a real kube-apiserver refuses it (server-side
// apply, dry run, strict field validation, as Argo CD and kubectl send
// it). Objects of API versions the server no longer serves are the
// exception kudo-render makes on purpose: it converts them (see
// TestConvertedObjectsAreAccepted).
func TestAgreesWithAPIServer(t *testing.T) {
	srv := kubetest.Start(t)
	for _, c := range agreeCases {
		t.Run(c.reason, func(t *testing.T) {
			ours := refusal(c.src)
			results, err := srv.ApplyYAML(context.Background(), []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var theirs []string
			for _, r := range results {
				if !r.Accepted() {
					theirs = append(theirs, r.String())
				}
			}
			switch {
			case ours != "" && len(theirs) == 0:
				t.Errorf("kudo-render refuses what the API server accepts:\n%s", ours)
			case ours == "" && len(theirs) > 0:
				t.Errorf("kudo-render accepts what the API server refuses:\n%s", strings.Join(theirs, "\n"))
			case ours != "" && c.refused == "":
				t.Errorf("both refuse a case the table says is valid:\nkudo-render: %s\nserver: %s", ours, strings.Join(theirs, "\n"))
			case ours == "" && c.refused != "":
				t.Errorf("both accept a case the table says is refused (%s)", c.refused)
			case ours != "" && !strings.Contains(ours, c.refused):
				t.Errorf("kudo-render refuses for another reason than %q:\n%s", c.refused, ours)
			}
		})
	}
}

// TestConvertedObjectsAreAccepted: what kudo-render makes of objects of
// removed API versions is accepted by the server, which refuses them as
// written.
func TestConvertedObjectsAreAccepted(t *testing.T) {
	srv := kubetest.Start(t)
	for _, src := range []string{removedPDB, removedRole, removedCRD} {
		out, err := tmpl.Render("case.yaml", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := tmpl.Decode(out)
		if err != nil {
			t.Fatal(err)
		}
		o := object.New(docs[0].Map)
		note, err := versions.Convert(o, kubeversion.Default)
		if err != nil || note == nil || note.Severity != diag.SeverityInfo {
			t.Fatalf("conversion: note %v, error %v", note, err)
		}
		if ds := validate.Objects([]*object.Object{o}, validate.Options{})[0]; len(ds) > 0 {
			t.Errorf("kudo-render refuses its own conversion: %v", ds)
		}
		results, err := srv.Apply(context.Background(), []map[string]any{o.Map})
		if err != nil {
			t.Fatal(err)
		}
		kubetest.RequireAccepted(t, results)
		raw, err := srv.ApplyYAML(context.Background(), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if raw[0].Accepted() {
			t.Errorf("the server accepts %s as written: the case tests nothing", o.Kind())
		}
	}
}

const removedPDB = `apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: agree}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: zk}}}
`

// removedCRD is a v1beta1 definition of a protected group with a schema
// that names the root metadata, as spark-operator's.
const removedCRD = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: sparkapps.sparkoperator.k8s.io}
spec:
  group: sparkoperator.k8s.io
  names: {kind: SparkApp, plural: sparkapps}
  scope: Namespaced
  validation:
    openAPIV3Schema:
      properties:
        metadata: {type: object}
        spec: {properties: {image: {type: string}}}
  versions: [{name: v1beta2, served: true, storage: true}]
`

const removedRole = `apiVersion: rbac.authorization.k8s.io/v1beta1
kind: Role
metadata: {name: r, namespace: agree}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
`

// obj builds a case: a header and a body.
func obj(apiVersion, kind, name, body string) string {
	return fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n  namespace: agree\n%s", apiVersion, kind, name, body)
}

const podSpec = `      containers:
      - name: app
        image: nginx:1.27
`

func deploy(name, extra string) string {
	return obj("apps/v1", "Deployment", name, `spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
`+podSpec+extra)
}

// agreeCases are templates with the API server's verdict: refused holds a
// part of kudo-render's message when the server refuses them.
var agreeCases = []struct {
	reason, src, refused string
}{
	{reason: "a valid Deployment", src: deploy("web", "")},
	{reason: "a valid Service", src: obj("v1", "Service", "web", "spec:\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: http}]\n")},
	{reason: "a headless Service", src: obj("v1", "Service", "hs", "spec:\n  clusterIP: None\n  selector: {app: zk}\n  ports: [{name: peer, port: 2888}]\n")},
	{reason: "a NodePort Service", src: obj("v1", "Service", "np", "spec:\n  type: NodePort\n  selector: {app: zk}\n  ports: [{port: 80}]\n")},
	{reason: "a ConfigMap with a dotted key", src: obj("v1", "ConfigMap", "cm", "data:\n  app.properties: x=1\n")},
	{reason: "a label value of 63 characters", src: obj("v1", "ConfigMap", "cm63", "  labels: {a: "+strings.Repeat("x", 63)+"}\n")},
	{reason: "a Job with its selector generated", src: obj("batch/v1", "Job", "job", "spec:\n  template:\n    spec:\n      restartPolicy: Never\n"+podSpec)},
	{reason: "a CronJob", src: obj("batch/v1", "CronJob", "cron", "spec:\n  schedule: \"*/5 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{name: c, image: busybox}]\n")},
	{reason: "a StatefulSet with a volume claim template", src: obj("apps/v1", "StatefulSet", "zk", `spec:
  serviceName: zk-hs
  selector: {matchLabels: {app: zk}}
  template:
    metadata: {labels: {app: zk}}
    spec:
      containers:
      - name: zk
        image: zookeeper:3.9
        volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`)},
	{reason: "a PodDisruptionBudget", src: obj("policy/v1", "PodDisruptionBudget", "pdb", "spec: {minAvailable: 1, selector: {matchLabels: {app: zk}}}\n")},
	{reason: "an Ingress", src: obj("networking.k8s.io/v1", "Ingress", "ing", "spec:\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend: {service: {name: web, port: {number: 80}}}\n")},
	{reason: "a privileged init container", src: deploy("priv", "      initContainers: [{name: init, image: busybox, securityContext: {privileged: true}}]\n")},

	{reason: "a Service port written as a string", src: obj("v1", "Service", "s1", "spec:\n  ports: [{port: \"3888\"}]\n"), refused: "spec.ports[0].port"},
	{reason: "a name with an underscore and capitals", src: obj("v1", "Service", "zk_HS", "spec:\n  ports: [{port: 3888}]\n"), refused: "metadata.name"},
	{reason: "a misspelt kind", src: obj("v1", "Servic", "s2", ""), refused: `no kind "Servic"`},
	{reason: "replicas written as a string", src: strings.Replace(deploy("rs", ""), "replicas: 2", `replicas: "2"`, 1), refused: "spec.replicas"},
	{reason: "a container without a name", src: strings.Replace(deploy("noname", ""), "- name: app\n        image", "- image", 1), refused: "containers[0].name: Required value"},
	{reason: "a label value of 64 characters", src: obj("v1", "ConfigMap", "cm64", "  labels: {a: "+strings.Repeat("x", 64)+"}\n"), refused: "must be no more than 63"},
	{reason: "a label key with two slashes", src: obj("v1", "ConfigMap", "cmkey", "  labels: {a/b/c: x}\n"), refused: "metadata.labels"},
	{reason: "a container port out of range", src: deploy("port", "        ports: [{containerPort: 70000}]\n"), refused: "containerPort"},
	{reason: "a quantity that is none", src: deploy("cpu", "        resources: {limits: {cpu: 2 cores}}\n"), refused: "resources.limits[cpu]"},
	{reason: "a selector that does not match the template", src: strings.Replace(deploy("sel", ""), "labels: {app: web}\n    spec", "labels: {app: api}\n    spec", 1), refused: "does not match template"},
	{reason: "a key written twice", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup-a\n  namespace: agree\n  name: dup-b\n", refused: "duplicate key"},
	{reason: "a ConfigMap key with a space", src: obj("v1", "ConfigMap", "cmspace", "data:\n  \"a b\": x\n"), refused: "data[a b]"},
	{reason: "an unknown image pull policy", src: strings.Replace(deploy("pull", ""), "image: nginx:1.27\n", "image: nginx:1.27\n        imagePullPolicy: Sometimes\n", 1), refused: "imagePullPolicy"},
	{reason: "a Deployment that may not restart its pods", src: deploy("never", "      restartPolicy: Never\n"), refused: "restartPolicy"},
	{reason: "a volume mount of no volume", src: strings.Replace(deploy("mount", ""), "image: nginx:1.27\n", "image: nginx:1.27\n        volumeMounts: [{name: data, mountPath: /data}]\n", 1), refused: "volumeMounts[0].name"},
	{reason: "an unknown Service type", src: obj("v1", "Service", "s3", "spec:\n  type: Internal\n  ports: [{port: 80}]\n"), refused: "spec.type"},
	{reason: "Secret data that is not base64", src: obj("v1", "Secret", "sec", "data:\n  password: not base64!\n"), refused: "data[password]"},
	{reason: "a CronJob schedule that is none", src: obj("batch/v1", "CronJob", "cron2", "spec:\n  schedule: every minute\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{name: c, image: busybox}]\n"), refused: "spec.schedule"},
	{reason: "a Job that restarts always", src: obj("batch/v1", "Job", "job2", "spec:\n  template:\n    spec:\n"+podSpec), refused: "restartPolicy"},
	{reason: "a PodDisruptionBudget with both bounds", src: obj("policy/v1", "PodDisruptionBudget", "pdb2", "spec: {minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: zk}}}\n"), refused: "spec"},
	{reason: "a RoleBinding without roleRef", src: obj("rbac.authorization.k8s.io/v1", "RoleBinding", "rb", "subjects: [{kind: ServiceAccount, name: default, namespace: agree}]\n"), refused: "roleRef"},
	{reason: "an Ingress path without pathType", src: obj("networking.k8s.io/v1", "Ingress", "ing2", "spec:\n  rules:\n  - http:\n      paths:\n      - path: /\n        backend: {service: {name: web, port: {number: 80}}}\n"), refused: "pathType"},
	{reason: "two containers of one name", src: strings.Replace(deploy("twins", ""), "image: nginx:1.27\n", "image: nginx:1.27\n      - name: app\n        image: nginx:1.27\n", 1), refused: "containers[1].name"},
	{reason: "a Service with two ports of one name", src: obj("v1", "Service", "s4", "spec:\n  ports: [{name: a, port: 80}, {name: a, port: 81}]\n"), refused: "spec.ports[1].name"},
	{reason: "negative replicas", src: strings.Replace(deploy("neg", ""), "replicas: 2", "replicas: -1", 1), refused: "spec.replicas"},
	{reason: "requests above limits", src: deploy("req", "        resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}\n"), refused: "resources.requests"},
	{reason: "an env var with a value and a source", src: deploy("env", "        env: [{name: A, value: x, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]\n"), refused: "env[0].valueFrom"},
	{reason: "a probe without a handler", src: deploy("probe", "        readinessProbe: {periodSeconds: 5}\n"), refused: "readinessProbe"},
	{reason: "a StatefulSet without a selector", src: obj("apps/v1", "StatefulSet", "nosel", "spec:\n  serviceName: x\n  template:\n    metadata: {labels: {app: zk}}\n    spec:\n"+podSpec), refused: "spec.selector"},
	{reason: "an apiVersion of no group", src: obj("apps/v2", "Deployment", "v2", "spec: {}\n"), refused: "apps/v2 is not served"},
	{reason: "an alpha API the server does not serve", src: obj("storage.k8s.io/v1alpha1", "VolumeAttributesClass", "vac", "driverName: x\n"), refused: "not served"},
	{reason: "a List", src: "apiVersion: v1\nkind: List\nmetadata: {name: l, namespace: agree}\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n", refused: "a list is read by clients"},
	{reason: "a boolean where a string goes", src: obj("v1", "ConfigMap", "cmbool", "data:\n  enabled: true\n"), refused: "data[enabled]"},
	{reason: "a namespace name that is no label", src: "apiVersion: v1\nkind: Namespace\nmetadata: {name: My.Namespace}\n", refused: "metadata.name"},
	{reason: "a LoadBalancer with local traffic and no health check port (the server allocates it)", src: obj("v1", "Service", "lb", "spec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  ports: [{port: 9042}]\n")},
	{reason: "a field whose feature gate is off (dropped)", src: deploy("stop", "        lifecycle: {stopSignal: SIGUSR1}\n")},
	{reason: "two env vars of one name (server-side apply)", src: deploy("envs", "        env: [{name: A, value: x}, {name: A, value: y}]\n"), refused: "duplicate entries for key [name=\"A\"]"},
	{reason: "a Pod giving its priority (the Priority plugin)", src: obj("v1", "Pod", "prio", "spec:\n  priority: 10\n"+strings.TrimPrefix(podSpec, "    ")), refused: "spec.priority"},
	{reason: "a Namespace whose Pod Security level is none (the PodSecurity plugin)", src: "apiVersion: v1\nkind: Namespace\nmetadata: {name: psa, labels: {pod-security.kubernetes.io/enforce: strict}}\n", refused: "pod-security.kubernetes.io/enforce"},
	{reason: "a PodDisruptionBudget with a label key of two slashes (generic metadata)", src: obj("policy/v1", "PodDisruptionBudget", "pdbl", "  labels: {a/b/c: x}\nspec: {minAvailable: 1, selector: {matchLabels: {app: zk}}}\n"), refused: "metadata.labels"},
	{reason: "a TokenReview (a request, not an object)", src: "apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nmetadata: {name: tr}\nspec: {token: x}\n", refused: "cannot be applied"},
	{reason: "a custom resource against its definition", src: crd + "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: agree}\nspec: {size: big}\n", refused: "spec.size"},
	{reason: "a valid custom resource", src: strings.NewReplacer("widget", "gadget", "Widget", "Gadget").Replace(crd) + "---\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: agree}\nspec: {size: 3}\n"},
}

// TestServedKinds: the table of served kinds is what a real API server
// of ServedVersion serves with its default flags.
func TestServedKinds(t *testing.T) {
	srv := kubetest.Start(t)
	if v := kubetest.KubeVersion(); !strings.HasPrefix(strings.TrimPrefix(v, "v"), validate.ServedVersion+".") {
		t.Fatalf("the test server is %s, the table is of %s", v, validate.ServedVersion)
	}
	var live []string
	for _, k := range srv.DefaultKinds() {
		live = append(live, k.String())
	}
	var table []string
	for _, k := range validate.ServedKinds() {
		table = append(table, k.String())
	}
	slices.Sort(live)
	slices.Sort(table)
	assert.Check(t, is.DeepEqual(live, table), "served kinds differ from the server's discovery")
}
