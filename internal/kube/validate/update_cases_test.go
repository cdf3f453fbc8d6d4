package validate_test

import "strings"

// updateCase is one update: the configuration applied before and the one
// applied over it, and the fields whose update the API server refuses
// (none: accepted). The table is checked against kudo-render
// (TestUpdate) and against a real API server (TestUpdateAgreesWithAPIServer).
type updateCase struct {
	reason   string
	old, new string
	refused  []string
}

// edit is src with each pair of (old, new) text replaced once.
func edit(src string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			panic("edit: no " + pairs[i] + " in\n" + src)
		}
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	return src
}

const job = `apiVersion: batch/v1
kind: Job
metadata: {name: init, namespace: day2}
spec:
  backoffLimit: 4
  template:
    metadata:
      labels: {app: init}
    spec:
      restartPolicy: OnFailure
      containers:
      - name: init
        image: redis:5.0.1-alpine
        command: [sh, -c, 'echo 3 masters']
`

const statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: zk, namespace: day2}
spec:
  serviceName: zk-hs
  replicas: 3
  podManagementPolicy: Parallel
  selector:
    matchLabels: {app: zk}
  template:
    metadata:
      labels: {app: zk}
    spec:
      containers:
      - name: zk
        image: zookeeper:3.4.14
        resources: {requests: {memory: 1Gi}}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 5Gi}}
`

const deploymentV1 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: day2}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: day2}
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: busybox:1.36
`

const service = `apiVersion: v1
kind: Service
metadata: {name: db, namespace: day2}
spec:
  selector: {app: db}
  ports:
  - name: client
    port: 3306
`

const claim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: day2}
spec:
  storageClassName: expandable
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`

const configMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: conf, namespace: day2}
immutable: true
data: {nodes: "3"}
`

const secret = `apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: day2}
type: Opaque
stringData: {password: one}
`

const roleBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: day2}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: ServiceAccount, name: default, namespace: day2}
`

const storageClass = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-day2}
provisioner: example.com/fast
parameters: {type: ssd}
reclaimPolicy: Retain
`

const priorityClass = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high-day2}
value: 1000
`

const pdb = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: zk, namespace: day2}
spec:
  maxUnavailable: 1
  selector:
    matchLabels: {app: zk}
`

const cronJob = `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: day2}
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: backup
            image: busybox:1.36
`

const pod = `apiVersion: v1
kind: Pod
metadata: {name: once, namespace: day2}
spec:
  automountServiceAccountToken: false
  restartPolicy: Never
  containers:
  - name: once
    image: busybox:1.36
    command: [sh, -c, 'echo one']
`

const topicsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: topics.day2.example.com}
spec:
  group: day2.example.com
  scope: Namespaced
  names: {kind: Topic, plural: topics, singular: topic, listKind: TopicList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

// crdV2 is topicsCRD with a version v2 added, stored from now on.
var crdV2 = edit(topicsCRD, "    storage: true\n", "    storage: false\n", "          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n",
	"          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n  - name: v2\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n")

// updateCases are the updates of the table: each kind whose update a
// parameter can refuse, the changes refused and the ones accepted.
var updateCases = []updateCase{
	{reason: "a Job's pod template is immutable: a parameter in its command", old: job,
		new: edit(job, "echo 3 masters", "echo 4 masters"), refused: []string{"spec.template"}},
	{reason: "a Job's labels may change", old: job, new: edit(job, "name: init, namespace: day2}", "name: init, namespace: day2, labels: {masters: \"4\"}}")},
	{reason: "a Job's backoff limit may change", old: job, new: edit(job, "backoffLimit: 4", "backoffLimit: 6")},
	{reason: "a Job's completion mode is immutable", old: job, new: edit(job, "backoffLimit: 4", "backoffLimit: 4\n  completionMode: Indexed\n  completions: 1"),
		refused: []string{"spec.completionMode"}},
	{reason: "a Job applied again unchanged", old: job, new: job},
	{reason: "a suspended Job's node selector may change before it starts", old: edit(job, "backoffLimit: 4", "backoffLimit: 4\n  suspend: true"),
		new: edit(job, "backoffLimit: 4", "backoffLimit: 4\n  suspend: true", "restartPolicy: OnFailure", "restartPolicy: OnFailure\n      nodeSelector: {disk: ssd}")},
	{reason: "a suspended Job's command may not", old: edit(job, "backoffLimit: 4", "backoffLimit: 4\n  suspend: true"),
		new: edit(job, "backoffLimit: 4", "backoffLimit: 4\n  suspend: true", "echo 3 masters", "echo 4 masters"), refused: []string{"spec.template.spec"}},
	{reason: "a StatefulSet's replicas, memory and image may change", old: statefulSet,
		new: edit(statefulSet, "replicas: 3", "replicas: 5", "memory: 1Gi", "memory: 2Gi", "3.4.14", "3.4.15")},
	{reason: "a StatefulSet's volume claim templates are immutable (disk size)", old: statefulSet,
		new: edit(statefulSet, "storage: 5Gi", "storage: 10Gi"), refused: []string{"spec.volumeClaimTemplates"}},
	{reason: "a StatefulSet's service name is immutable", old: statefulSet, new: edit(statefulSet, "serviceName: zk-hs", "serviceName: zk-headless"), refused: []string{"spec.serviceName"}},
	{reason: "a StatefulSet's pod management policy is immutable", old: statefulSet, new: edit(statefulSet, "podManagementPolicy: Parallel", "podManagementPolicy: OrderedReady"), refused: []string{"spec.podManagementPolicy"}},
	{reason: "a StatefulSet's pod management policy left out is the default, another value", old: statefulSet, new: edit(statefulSet, "  podManagementPolicy: Parallel\n", ""), refused: []string{"spec.podManagementPolicy"}},
	{reason: "a StatefulSet's selector is immutable", old: statefulSet,
		new: edit(statefulSet, "matchLabels: {app: zk}", "matchLabels: {app: zk, tier: db}", "labels: {app: zk}", "labels: {app: zk, tier: db}"), refused: []string{"spec.selector"}},
	{reason: "a Deployment's replicas and image may change", old: deploymentV1, new: edit(deploymentV1, "replicas: 2", "replicas: 4", "nginx:1.27", "nginx:1.28")},
	{reason: "a Deployment's selector is immutable", old: deploymentV1,
		new: edit(deploymentV1, "matchLabels: {app: web}", "matchLabels: {app: web2}", "labels: {app: web}", "labels: {app: web2}"), refused: []string{"spec.selector"}},
	{reason: "a Deployment switched to Recreate keeps the defaulted rolling update of the live object", old: deploymentV1,
		new: edit(deploymentV1, "replicas: 2", "replicas: 2\n  strategy: {type: Recreate}"), refused: []string{"spec.strategy.rollingUpdate"}},
	{reason: "a DaemonSet's selector is immutable", old: daemonSet,
		new: edit(daemonSet, "matchLabels: {app: agent}", "matchLabels: {app: agent2}", "labels: {app: agent}", "labels: {app: agent2}"), refused: []string{"spec.selector"}},
	{reason: "a Service's ports may change", old: service, new: edit(service, "port: 3306", "port: 3307")},
	{reason: "a Service made headless: its allocated cluster IP cannot change", old: service,
		new: edit(service, "selector: {app: db}", "selector: {app: db}\n  clusterIP: None"), refused: []string{"spec.clusterIPs[0]"}},
	{reason: "a headless Service whose clusterIP is left out stays headless (the server keeps None)", old: edit(service, "selector: {app: db}", "selector: {app: db}\n  clusterIP: None"), new: service},
	{reason: "a Service from ClusterIP to NodePort", old: service, new: edit(service, "selector: {app: db}", "selector: {app: db}\n  type: NodePort")},
	{reason: "a Service from NodePort to LoadBalancer keeps its node ports", old: edit(service, "selector: {app: db}", "selector: {app: db}\n  type: NodePort"),
		new: edit(service, "selector: {app: db}", "selector: {app: db}\n  type: LoadBalancer")},
	{reason: "a Service to ExternalName releases its cluster IP", old: service,
		new: edit(service, "selector: {app: db}", "selector: {app: db}\n  type: ExternalName\n  externalName: db.example.com")},
	{reason: "a bound claim may grow", old: claim, new: edit(claim, "storage: 1Gi", "storage: 2Gi")},
	{reason: "a claim may not shrink", old: claim, new: edit(claim, "storage: 1Gi", "storage: 500Mi"), refused: []string{"spec.resources.requests.storage"}},
	{reason: "a claim's access modes are immutable", old: claim, new: edit(claim, "[ReadWriteOnce]", "[ReadWriteOnce, ReadOnlyMany]"), refused: []string{"spec"}},
	{reason: "a claim's storage class is immutable", old: claim, new: edit(claim, "storageClassName: expandable", "storageClassName: other"), refused: []string{"spec"}},
	{reason: "an immutable ConfigMap's data cannot change", old: configMap, new: edit(configMap, `nodes: "3"`, `nodes: "5"`), refused: []string{"data"}},
	{reason: "an immutable ConfigMap cannot be made mutable", old: configMap, new: edit(configMap, "immutable: true", "immutable: false"), refused: []string{"immutable"}},
	{reason: "a mutable ConfigMap's data may change", old: edit(configMap, "immutable: true\n", ""), new: edit(configMap, "immutable: true\n", "", `nodes: "3"`, `nodes: "5"`)},
	{reason: "a ConfigMap may become immutable", old: edit(configMap, "immutable: true\n", ""), new: configMap},
	{reason: "a Secret's type is immutable", old: secret, new: edit(secret, "type: Opaque", "type: kubernetes.io/basic-auth", "password: one", "username: u, password: one"), refused: []string{"type"}},
	{reason: "an immutable Secret's data cannot change", old: edit(secret, "type: Opaque", "type: Opaque\nimmutable: true"),
		new: edit(secret, "type: Opaque", "type: Opaque\nimmutable: true", "password: one", "password: two"), refused: []string{"data"}},
	{reason: "a RoleBinding's role is immutable", old: roleBinding, new: edit(roleBinding, "kind: Role, name: reader", "kind: Role, name: writer"), refused: []string{"roleRef"}},
	{reason: "a RoleBinding's subjects may change", old: roleBinding, new: edit(roleBinding, "name: default, namespace: day2", "name: app, namespace: day2")},
	{reason: "a StorageClass's parameters are immutable", old: storageClass, new: edit(storageClass, "type: ssd", "type: hdd"), refused: []string{"parameters"}},
	{reason: "a StorageClass's reclaim policy is immutable", old: storageClass, new: edit(storageClass, "reclaimPolicy: Retain", "reclaimPolicy: Delete"), refused: []string{"reclaimPolicy"}},
	{reason: "a PriorityClass's value is immutable", old: priorityClass, new: edit(priorityClass, "value: 1000", "value: 2000"), refused: []string{"value"}},
	{reason: "a PodDisruptionBudget may change", old: pdb, new: edit(pdb, "maxUnavailable: 1", "maxUnavailable: 2")},
	{reason: "a CronJob's schedule and template may change", old: cronJob, new: edit(cronJob, `"0 1 * * *"`, `"0 2 * * *"`, "busybox:1.36", "busybox:1.37")},
	{reason: "a CustomResourceDefinition may add a version and store it", old: topicsCRD, new: crdV2},
	{reason: "a CustomResourceDefinition may not drop the version its objects are stored in", old: topicsCRD,
		new: edit(crdV2, "  - name: v1\n    served: true\n    storage: false\n", "  - name: v1x\n    served: true\n    storage: false\n"), refused: []string{"status.storedVersions[0]"}},
	{reason: "a CustomResourceDefinition's scope is immutable", old: topicsCRD, new: edit(topicsCRD, "scope: Namespaced", "scope: Cluster"), refused: []string{"spec.scope"}},
	{reason: "a Pod's image may change", old: pod, new: edit(pod, "busybox:1.36", "busybox:1.37")},
	{reason: "a Pod's command may not", old: pod, new: edit(pod, "echo one", "echo two"), refused: []string{"spec"}},
}
