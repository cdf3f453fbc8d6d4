package enhance_test

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// obj decodes a YAML object the way the renderer produces them.
func obj(t *testing.T, s string) *object.Object {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return object.New(m)
}

func instanceMeta() enhance.Meta {
	return enhance.Meta{
		OperatorName: "zookeeper", OperatorVersion: "0.3.0",
		Instance: "zk", Namespace: "data",
		Plan: "deploy", Phase: "main", Step: "app",
		Source: "zookeeper@0.3.0", Template: "templates/statefulset.yaml",
	}
}

func TestObject(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		meta   enhance.Meta
		scopes []string // extra objects to learn scopes from
		want   string
	}{
		"Deployment": {
			reason: "A Deployment gets labels, annotations and the namespace; its pod template gets the labels and the operator version; existing labels stay.",
			in: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  template:
    metadata:
      labels: {app: web}
    spec: {containers: [{name: c, image: i}]}
`,
			meta: instanceMeta(),
			want: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: data
  labels: {app: web, heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
spec:
  template:
    metadata:
      labels: {app: web, heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
      annotations: {kudo.dev/operator-version: 0.3.0}
    spec: {containers: [{name: c, image: i}]}
`,
		},
		"StatefulSet": {
			reason: "A StatefulSet's pod template and every volumeClaimTemplate are labelled; claim templates are not annotated.",
			in: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: zk}
spec:
  template:
    spec: {containers: []}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce]}
    - metadata: {name: logs, labels: {tier: logs}}
`,
			meta: instanceMeta(),
			want: `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: zk
  namespace: data
  labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
spec:
  template:
    metadata:
      labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
      annotations: {kudo.dev/operator-version: 0.3.0}
    spec: {containers: []}
  volumeClaimTemplates:
    - metadata:
        name: data
        labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
      spec: {accessModes: [ReadWriteOnce]}
    - metadata:
        name: logs
        labels: {tier: logs, heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
`,
		},
		"Job": {
			reason: "A Job's pod template is labelled and annotated.",
			in: `apiVersion: batch/v1
kind: Job
metadata: {name: init}
spec:
  template:
    spec: {restartPolicy: Never}
`,
			meta: instanceMeta(),
			want: `apiVersion: batch/v1
kind: Job
metadata:
  name: init
  namespace: data
  labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
spec:
  template:
    metadata:
      labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
      annotations: {kudo.dev/operator-version: 0.3.0}
    spec: {restartPolicy: Never}
`,
		},
		"CronJob": {
			reason: "A CronJob's jobTemplate is labelled, and the pod template inside it is labelled and annotated.",
			in: `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: OnFailure}
`,
			meta: instanceMeta(),
			want: `apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
  namespace: data
  labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    metadata:
      labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
    spec:
      template:
        metadata:
          labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
          annotations: {kudo.dev/operator-version: 0.3.0}
        spec: {restartPolicy: OnFailure}
`,
		},
		"DaemonSet": {
			reason: "A DaemonSet's pod template is labelled and annotated.",
			in: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  template: {}
`,
			meta: instanceMeta(),
			want: `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: data
  labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
spec:
  template:
    metadata:
      labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
      annotations: {kudo.dev/operator-version: 0.3.0}
`,
		},
		"KUDOLabelsWin": {
			reason: "A template's own heritage label is overwritten, other labels and annotations stay.",
			in: `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  labels: {heritage: helm, app: x}
  annotations: {note: keep}
`,
			meta: instanceMeta(),
			want: `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: data
  labels: {heritage: kudo, app: x, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}
  annotations: {note: keep, kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: app, kudorender.dev/source: zookeeper@0.3.0, kudorender.dev/template: templates/statefulset.yaml}
`,
		},
		"NamespaceForced": {
			reason: "A namespaced object is forced into the instance namespace, even when the template names another.",
			in:     "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: other}\n",
			meta:   enhance.Meta{OperatorName: "zookeeper", Instance: "zk", Namespace: "data"},
			want:   "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: data, labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}}\n",
		},
		"ClusterRole": {
			reason: "A ClusterRole gets no namespace, and one written by the template is removed.",
			in:     "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: cr, namespace: leftover}\n",
			meta:   enhance.Meta{OperatorName: "zookeeper", Instance: "zk", Namespace: "data"},
			want:   "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: cr, labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}}\n",
		},
		"ClusterScopedCustomKind": {
			reason: "A custom kind whose CRD in the same set has scope Cluster gets no namespace.",
			in:     "apiVersion: example.com/v1\nkind: Tenant\nmetadata: {name: t}\n",
			meta:   enhance.Meta{OperatorName: "zookeeper", Instance: "zk", Namespace: "data"},
			scopes: []string{
				"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: tenants.example.com}\nspec: {group: example.com, scope: Cluster, names: {kind: Tenant, plural: tenants}}\n",
			},
			want: "apiVersion: example.com/v1\nkind: Tenant\nmetadata: {name: t, labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}}\n",
		},
		"NamespacedCustomKind": {
			reason: "A custom kind whose CRD is Namespaced, or that has no CRD in the set, gets the namespace.",
			in:     "apiVersion: example.com/v1\nkind: Tenant\nmetadata: {name: t}\n",
			meta:   enhance.Meta{OperatorName: "zookeeper", Instance: "zk", Namespace: "data"},
			scopes: []string{
				"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: tenants.example.com}\nspec: {group: example.com, scope: Namespaced, names: {kind: Tenant}}\n",
				"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: tenants.other.com}\nspec: {group: other.com, scope: Cluster, names: {kind: Tenant}}\n",
			},
			want: "apiVersion: example.com/v1\nkind: Tenant\nmetadata: {name: t, namespace: data, labels: {heritage: kudo, kudo.dev/operator: zookeeper, kudo.dev/instance: zk}}\n",
		},
		"CommonObject": {
			reason: "A common/ object belongs to the framework: no instance label, no plan annotations, no namespace; provenance stays.",
			in:     "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: db}\n",
			meta:   enhance.Meta{OperatorName: "mysql", OperatorVersion: "5.7", Source: "mysql@5.7", Template: "common/priorityclass.yaml"},
			want:   "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: db, labels: {heritage: kudo, kudo.dev/operator: mysql}, annotations: {kudorender.dev/source: mysql@5.7, kudorender.dev/template: common/priorityclass.yaml}}\n",
		},
		"CommonNamespacedObject": {
			reason: "A namespaced common/ object without an instance namespace keeps the namespace its template wrote.",
			in:     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: shared-ns}\n",
			meta:   enhance.Meta{OperatorName: "mysql"},
			want:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: shared-ns, labels: {heritage: kudo, kudo.dev/operator: mysql}}\n",
		},
		"NotAWorkload": {
			reason: "spec.template of a kind that is not a workload is left alone.",
			in:     "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {template: {metadata: {}}}\n",
			meta:   enhance.Meta{OperatorName: "op", Instance: "i", Namespace: "ns"},
			want:   "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t, namespace: ns, labels: {heritage: kudo, kudo.dev/operator: op, kudo.dev/instance: i}}\nspec: {template: {metadata: {}}}\n",
		},
		"DeploymentOfOtherGroup": {
			reason: "A Deployment of another API group is not a workload KUDO knows.",
			in:     "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {}}\n",
			meta:   enhance.Meta{OperatorName: "op"},
			want:   "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: d, labels: {heritage: kudo, kudo.dev/operator: op}}\nspec: {template: {}}\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := obj(t, tc.in)
			var all []*object.Object
			for _, s := range tc.scopes {
				all = append(all, obj(t, s))
			}
			all = append(all, o)
			enhance.Object(o, tc.meta, enhance.ScopesOf(all))
			assert.Check(t, is.DeepEqual(obj(t, tc.want).Map, o.Map), "%s\nObject(...)", tc.reason)
		})
	}
}

func TestClusterScoped(t *testing.T) {
	s := enhance.ScopesOf(nil)
	cases := map[string]struct {
		reason string
		group  string
		kind   string
		want   bool
	}{
		"Namespace":   {reason: "Namespaces are cluster-scoped.", kind: "Namespace", want: true},
		"ClusterRole": {reason: "ClusterRoles are cluster-scoped.", group: "rbac.authorization.k8s.io", kind: "ClusterRole", want: true},
		"CRD":         {reason: "CRDs are cluster-scoped.", group: "apiextensions.k8s.io", kind: "CustomResourceDefinition", want: true},
		"PriorityCls": {reason: "PriorityClasses are cluster-scoped.", group: "scheduling.k8s.io", kind: "PriorityClass", want: true},
		"Role":        {reason: "Roles are namespaced.", group: "rbac.authorization.k8s.io", kind: "Role"},
		"ConfigMap":   {reason: "ConfigMaps are namespaced.", kind: "ConfigMap"},
		"WrongGroup":  {reason: "Scope is by group and kind: a ClusterRole of another group is not known.", group: "example.com", kind: "ClusterRole"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := s.ClusterScoped(tc.group, tc.kind); got != tc.want {
				t.Errorf("\n%s\nClusterScoped(%q, %q): want %t, got %t", tc.reason, tc.group, tc.kind, tc.want, got)
			}
		})
	}
	var nilScopes *enhance.Scopes
	if !nilScopes.ClusterScoped("", "Namespace") || nilScopes.ClusterScoped("", "Pod") {
		t.Error("a nil *Scopes must know the built-in kinds")
	}
}
