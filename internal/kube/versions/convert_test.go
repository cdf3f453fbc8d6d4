package versions

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
)

// convertCases are objects as KUDO packages wrote them, each with what
// Convert makes of it: the output (want), or a refusal (err), or nothing
// (both empty: untouched). Messages are compared whole.
var convertCases = []struct {
	reason string
	target kubeversion.Version // Default when zero
	in     string
	want   string // the converted object
	msg    string // the info diagnostic of a conversion
	err    string // the message of a refusal
	field  string // the field of the diagnostic
}{
	{
		reason: "policy/v1beta1 PodDisruptionBudget becomes policy/v1 (the corpus's zookeeper budget)",
		in: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: zk-pdb
  namespace: data
  labels: {app: zk}
spec:
  selector:
    matchLabels: {app: zk}
  maxUnavailable: 1
`,
		want: `
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  labels:
    app: zk
  name: zk-pdb
  namespace: data
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app: zk
`,
		msg: "converted policy/v1beta1 PodDisruptionBudget to policy/v1: policy/v1beta1 PodDisruptionBudget is removed in Kubernetes 1.25 (target 1.37)",
	},
	{
		reason: "a policy/v1beta1 PodDisruptionBudget with an empty selector protects no pod; in policy/v1 it would protect every pod of the namespace",
		in: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: data}
spec:
  minAvailable: 1
  selector: {}
`,
		err:   "policy/v1beta1 PodDisruptionBudget is removed in Kubernetes 1.25 (target 1.37), and policy/v1 reads its empty selector differently: {} selects no pod in policy/v1beta1 and every pod of the namespace in policy/v1; write the labels of the pods to protect in spec.selector.matchLabels (or delete the PodDisruptionBudget, which protects nothing) and use apiVersion policy/v1 (or render for a Kubernetes version older than 1.25, which serves policy/v1beta1)",
		field: "spec.selector",
	},
	{
		reason: "a version that still serves policy/v1beta1 keeps it as written",
		target: kubeversion.Version{Major: 1, Minor: 24},
		in: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec:
  minAvailable: 1
  selector: {}
`,
	},
	{
		reason: "KUDO's target keeps policy/v1beta1",
		target: kubeversion.Version{Major: 1, Minor: 16},
		in: `
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: zk-pdb}
spec:
  selector: {matchLabels: {app: zk}}
  maxUnavailable: 1
`,
	},
	{
		reason: "rbac v1beta1 Role",
		in: `
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: Role
metadata: {name: reader, namespace: data}
rules:
- apiGroups: [""]
  resources: [pods, configmaps]
  verbs: [get, list, watch]
`,
		want: `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
  namespace: data
rules:
- apiGroups:
  - ""
  resources:
  - pods
  - configmaps
  verbs:
  - get
  - list
  - watch
`,
		msg: "converted rbac.authorization.k8s.io/v1beta1 Role to rbac.authorization.k8s.io/v1: rbac.authorization.k8s.io/v1beta1 Role is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "rbac v1beta1 ClusterRole with an aggregation rule and non-resource URLs",
		in: `
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: ClusterRole
metadata: {name: monitoring}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {rbac.example.com/aggregate-to-monitoring: "true"}
rules:
- nonResourceURLs: [/metrics]
  verbs: [get]
`,
		want: `
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      rbac.example.com/aggregate-to-monitoring: "true"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring
rules:
- nonResourceURLs:
  - /metrics
  verbs:
  - get
`,
		msg: "converted rbac.authorization.k8s.io/v1beta1 ClusterRole to rbac.authorization.k8s.io/v1: rbac.authorization.k8s.io/v1beta1 ClusterRole is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "rbac v1beta1 RoleBinding",
		in: `
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: RoleBinding
metadata: {name: reader, namespace: data}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: ServiceAccount, name: zk, namespace: data}
`,
		want: `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: reader
  namespace: data
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: reader
subjects:
- kind: ServiceAccount
  name: zk
  namespace: data
`,
		msg: "converted rbac.authorization.k8s.io/v1beta1 RoleBinding to rbac.authorization.k8s.io/v1: rbac.authorization.k8s.io/v1beta1 RoleBinding is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "rbac v1beta1 ClusterRoleBinding with a user (apiGroup defaulted the same in both versions)",
		in: `
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: ClusterRoleBinding
metadata: {name: monitoring}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: monitoring}
subjects:
- {kind: User, name: jane}
`,
		want: `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: monitoring
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: monitoring
subjects:
- kind: User
  name: jane
`,
		msg: "converted rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding to rbac.authorization.k8s.io/v1: rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "rbac v1alpha1 (an alpha version 1.22 removed with v1beta1)",
		in: `
apiVersion: rbac.authorization.k8s.io/v1alpha1
kind: Role
metadata: {name: reader}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get]
`,
		want: `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
rules:
- apiGroups:
  - ""
  resources:
  - pods
  verbs:
  - get
`,
		msg: "converted rbac.authorization.k8s.io/v1alpha1 Role to rbac.authorization.k8s.io/v1: rbac.authorization.k8s.io/v1alpha1 Role is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "a v1beta1 CRD without schema accepts anything; v1 needs a schema: the permissive one is equivalent",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: backups.kudo.example.com}
spec:
  group: kudo.example.com
  version: v1alpha1
  names: {kind: Backup, plural: backups}
`,
		want: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backups.kudo.example.com
spec:
  group: kudo.example.com
  names:
    kind: Backup
    plural: backups
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: true
`,
		msg: "converted apiextensions.k8s.io/v1beta1 CustomResourceDefinition to apiextensions.k8s.io/v1: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37); a version had no schema, which apiextensions.k8s.io/v1 needs: wrote {type: object, x-kubernetes-preserve-unknown-fields: true}, which accepts and keeps any content, as v1beta1 did; wrote out the defaults of apiextensions.k8s.io/v1beta1 that apiextensions.k8s.io/v1 changed: spec.scope: \"Namespaced\"",
	},
	{
		reason: "a v1beta1 CRD of a protected group (spark-operator's) gets the unapproved annotation v1 requires, and its root metadata no x-kubernetes-preserve-unknown-fields (v1 allows it only its type)",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
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
        spec:
          properties:
            image: {type: string}
  versions:
  - {name: v1beta2, served: true, storage: true}
`,
		want: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    api-approved.kubernetes.io: unapproved, converted from apiextensions.k8s.io/v1beta1, which did not require an approval
  name: sparkapps.sparkoperator.k8s.io
spec:
  group: sparkoperator.k8s.io
  names: {kind: SparkApp, plural: sparkapps}
  scope: Namespaced
  versions:
  - name: v1beta2
    schema:
      openAPIV3Schema:
        properties:
          metadata: {type: object}
          spec:
            properties:
              image: {type: string}
            x-kubernetes-preserve-unknown-fields: true
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: true
`,
		msg: "converted apiextensions.k8s.io/v1beta1 CustomResourceDefinition to apiextensions.k8s.io/v1: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37); sparkoperator.k8s.io is a protected API group, whose definitions apiextensions.k8s.io/v1 refuses without the annotation api-approved.kubernetes.io: wrote \"unapproved, converted from apiextensions.k8s.io/v1beta1, which did not require an approval\" (the API server accepts it and marks the definition not approved); spec.preserveUnknownFields was true (the v1beta1 default), which apiextensions.k8s.io/v1 refuses: set x-kubernetes-preserve-unknown-fields: true on 2 objects of the schema instead, which keeps unknown fields as v1beta1 did",
	},
	{
		reason: "a v1beta1 CRD with versions without schemas, cluster scoped",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Cluster
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1alpha1, served: true, storage: false}
`,
		want: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  names:
    kind: Foo
    plural: foos
  scope: Cluster
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: true
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: false
`,
		msg: "converted apiextensions.k8s.io/v1beta1 CustomResourceDefinition to apiextensions.k8s.io/v1: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37); a version had no schema, which apiextensions.k8s.io/v1 needs: wrote {type: object, x-kubernetes-preserve-unknown-fields: true}, which accepts and keeps any content, as v1beta1 did",
	},
	{
		reason: "a v1beta1 CRD with a top-level schema, printer columns and subresources for two versions, keeping unknown fields (the v1beta1 default)",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: clusters.db.example.com}
spec:
  group: db.example.com
  names: {kind: Cluster, plural: clusters, shortNames: [dbc]}
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1beta1, served: true, storage: false}
  subresources:
    status: {}
    scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
  additionalPrinterColumns:
  - {name: Replicas, type: integer, JSONPath: .spec.replicas}
  - {name: Age, type: date, JSONPath: .metadata.creationTimestamp}
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            replicas: {type: integer, minimum: 1}
            members:
              type: array
              items: {type: object, properties: {name: {type: string}}}
            config: {type: object, additionalProperties: {type: string}}
`,
		want: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusters.db.example.com
spec:
  group: db.example.com
  names:
    kind: Cluster
    plural: clusters
    shortNames:
    - dbc
  scope: Namespaced
  versions:
  - additionalPrinterColumns:
    - jsonPath: .spec.replicas
      name: Replicas
      type: integer
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    name: v1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              config:
                additionalProperties:
                  type: string
                type: object
              members:
                items:
                  properties:
                    name:
                      type: string
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                type: array
              replicas:
                minimum: 1
                type: integer
            type: object
            x-kubernetes-preserve-unknown-fields: true
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: true
    subresources:
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
      status: {}
  - additionalPrinterColumns:
    - jsonPath: .spec.replicas
      name: Replicas
      type: integer
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    name: v1beta1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              config:
                additionalProperties:
                  type: string
                type: object
              members:
                items:
                  properties:
                    name:
                      type: string
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                type: array
              replicas:
                minimum: 1
                type: integer
            type: object
            x-kubernetes-preserve-unknown-fields: true
        type: object
        x-kubernetes-preserve-unknown-fields: true
    served: true
    storage: false
    subresources:
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
      status: {}
`,
		msg: "converted apiextensions.k8s.io/v1beta1 CustomResourceDefinition to apiextensions.k8s.io/v1: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37); spec.preserveUnknownFields was true (the v1beta1 default), which apiextensions.k8s.io/v1 refuses: set x-kubernetes-preserve-unknown-fields: true on 3 objects of the schema instead, which keeps unknown fields as v1beta1 did; wrote out the defaults of apiextensions.k8s.io/v1beta1 that apiextensions.k8s.io/v1 changed: spec.scope: \"Namespaced\"",
	},
	{
		reason: "a v1beta1 CRD that prunes (preserveUnknownFields false) with per-version structural schemas and a conversion webhook",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Namespaced
  preserveUnknownFields: false
  versions:
  - name: v2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, default: 1}}}
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: string}}}
  conversion:
    strategy: Webhook
    webhookClientConfig:
      service: {name: foo-conversion, namespace: sys, path: /convert}
`,
		want: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service:
          name: foo-conversion
          namespace: sys
          path: /convert
      conversionReviewVersions:
      - v1beta1
  group: example.com
  names:
    kind: Foo
    plural: foos
  preserveUnknownFields: false
  scope: Namespaced
  versions:
  - name: v2
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              size:
                default: 1
                type: integer
            type: object
        type: object
    served: true
    storage: true
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              size:
                type: string
            type: object
        type: object
    served: true
    storage: false
`,
		msg: "converted apiextensions.k8s.io/v1beta1 CustomResourceDefinition to apiextensions.k8s.io/v1: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37); wrote out the defaults of apiextensions.k8s.io/v1beta1 that apiextensions.k8s.io/v1 changed: spec.conversion.webhook.conversionReviewVersions",
	},
	{
		reason: "a v1beta1 CRD whose schema v1 would refuse (an object without type)",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Namespaced
  preserveUnknownFields: false
  version: v1
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          properties:
            size: {type: integer}
`,
		err:   "apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37), and apiextensions.k8s.io/v1 needs a structural schema: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields: give every field a type, every array items, and keep types and structure out of allOf, anyOf, oneOf and not (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema); then use apiVersion apiextensions.k8s.io/v1 with the schema under spec.versions[*].schema (or render for a Kubernetes version older than 1.22, which serves apiextensions.k8s.io/v1beta1)",
		field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].type",
	},
	{
		reason: "a field apiextensions.k8s.io/v1beta1 does not have",
		in: `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  version: v1
  validaton: {}
`,
		err:   "apiextensions.k8s.io/v1beta1 CustomResourceDefinition is removed in Kubernetes 1.22 (target 1.37), and apiextensions.k8s.io/v1beta1 CustomResourceDefinition has no field spec.validaton: remove it (or render for a Kubernetes version older than 1.22, which serves apiextensions.k8s.io/v1beta1)",
		field: "spec.validaton",
	},
	{
		reason: "extensions/v1beta1 Deployment: its defaults (selector and labels from the template, no progress deadline, all revisions, a surge of 1) are written out",
		in: `
apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.17
        args: []
        ports: [{containerPort: 80}]
        resources: {}
      volumes: [{name: tmp, emptyDir: {}}]
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: web
  name: web
  namespace: shop
spec:
  progressDeadlineSeconds: 2147483647
  replicas: 2
  revisionHistoryLimit: 2147483647
  selector:
    matchLabels:
      app: web
  strategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 1
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - args: []
        image: nginx:1.17
        name: web
        ports:
        - containerPort: 80
        resources: {}
      volumes:
      - emptyDir: {}
        name: tmp
`,
		msg: "converted extensions/v1beta1 Deployment to apps/v1: extensions/v1beta1 Deployment is removed in Kubernetes 1.16 (target 1.37); wrote out the defaults of extensions/v1beta1 that apps/v1 changed: metadata.labels, spec.progressDeadlineSeconds: 2147483647, spec.revisionHistoryLimit: 2147483647, spec.selector, spec.strategy.rollingUpdate.maxSurge: 1, spec.strategy.rollingUpdate.maxUnavailable: 1",
	},
	{
		reason: "apps/v1beta1 Deployment: values keep their spelling (0.5 CPU, 1024Mi, a port name)",
		in: `
apiVersion: apps/v1beta1
kind: Deployment
metadata: {name: web, labels: {tier: front}}
spec:
  selector: {matchLabels: {app: web}}
  strategy: {rollingUpdate: {maxSurge: 50%}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {limits: {cpu: "0.5", memory: 1024Mi}}
        readinessProbe: {httpGet: {path: /, port: http}}
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    tier: front
  name: web
spec:
  revisionHistoryLimit: 2
  selector:
    matchLabels:
      app: web
  strategy:
    rollingUpdate:
      maxSurge: 50%
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: web
        readinessProbe:
          httpGet:
            path: /
            port: http
        resources:
          limits:
            cpu: "0.5"
            memory: 1024Mi
`,
		msg: "converted apps/v1beta1 Deployment to apps/v1: apps/v1beta1 Deployment is removed in Kubernetes 1.16 (target 1.37); wrote out the defaults of apps/v1beta1 that apps/v1 changed: spec.revisionHistoryLimit: 2",
	},
	{
		reason: "apps/v1beta2 Deployment has the defaults of apps/v1",
		in: `
apiVersion: apps/v1beta2
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: web
`,
		msg: "converted apps/v1beta2 Deployment to apps/v1: apps/v1beta2 Deployment is removed in Kubernetes 1.16 (target 1.37)",
	},
	{
		reason: "apps/v1beta1 StatefulSet updated its pods on delete only",
		in: `
apiVersion: apps/v1beta1
kind: StatefulSet
metadata: {name: zk}
spec:
  serviceName: zk-hs
  replicas: 3
  template:
    metadata: {labels: {app: zk}}
    spec:
      containers: [{name: zk, image: zookeeper:3.4}]
  volumeClaimTemplates:
  - metadata: {name: datadir}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 10Gi}}
`,
		want: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  labels:
    app: zk
  name: zk
spec:
  replicas: 3
  selector:
    matchLabels:
      app: zk
  serviceName: zk-hs
  template:
    metadata:
      labels:
        app: zk
    spec:
      containers:
      - image: zookeeper:3.4
        name: zk
  updateStrategy:
    type: OnDelete
  volumeClaimTemplates:
  - metadata:
      name: datadir
    spec:
      accessModes:
      - ReadWriteOnce
      resources:
        requests:
          storage: 10Gi
`,
		msg: "converted apps/v1beta1 StatefulSet to apps/v1: apps/v1beta1 StatefulSet is removed in Kubernetes 1.16 (target 1.37); wrote out the defaults of apps/v1beta1 that apps/v1 changed: metadata.labels, spec.selector, spec.updateStrategy.type: \"OnDelete\"",
	},
	{
		reason: "apps/v1beta2 StatefulSet",
		in: `
apiVersion: apps/v1beta2
kind: StatefulSet
metadata: {name: zk}
spec:
  selector: {matchLabels: {app: zk}}
  serviceName: zk-hs
  podManagementPolicy: Parallel
  template:
    metadata: {labels: {app: zk}}
    spec:
      containers: [{name: zk, image: zookeeper:3.4}]
`,
		want: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: zk
spec:
  podManagementPolicy: Parallel
  selector:
    matchLabels:
      app: zk
  serviceName: zk-hs
  template:
    metadata:
      labels:
        app: zk
    spec:
      containers:
      - image: zookeeper:3.4
        name: zk
`,
		msg: "converted apps/v1beta2 StatefulSet to apps/v1: apps/v1beta2 StatefulSet is removed in Kubernetes 1.16 (target 1.37)",
	},
	{
		reason: "extensions/v1beta1 DaemonSet updated its pods on delete only",
		in: `
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata: {name: agent}
spec:
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent}]
`,
		want: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  labels:
    app: agent
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - image: agent
        name: agent
  updateStrategy:
    type: OnDelete
`,
		msg: "converted extensions/v1beta1 DaemonSet to apps/v1: extensions/v1beta1 DaemonSet is removed in Kubernetes 1.16 (target 1.37); wrote out the defaults of extensions/v1beta1 that apps/v1 changed: metadata.labels, spec.selector, spec.updateStrategy.type: \"OnDelete\"",
	},
	{
		reason: "apps/v1beta2 DaemonSet",
		in: `
apiVersion: apps/v1beta2
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent}]
`,
		want: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - image: agent
        name: agent
  updateStrategy:
    rollingUpdate:
      maxUnavailable: 2
    type: RollingUpdate
`,
		msg: "converted apps/v1beta2 DaemonSet to apps/v1: apps/v1beta2 DaemonSet is removed in Kubernetes 1.16 (target 1.37)",
	},
	{
		reason: "extensions/v1beta1 ReplicaSet",
		in: `
apiVersion: extensions/v1beta1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`,
		want: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  labels:
    app: web
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: nginx
        name: web
`,
		msg: "converted extensions/v1beta1 ReplicaSet to apps/v1: extensions/v1beta1 ReplicaSet is removed in Kubernetes 1.16 (target 1.37); wrote out the defaults of extensions/v1beta1 that apps/v1 changed: metadata.labels",
	},
	{
		reason: "extensions/v1beta1 NetworkPolicy",
		in: `
apiVersion: extensions/v1beta1
kind: NetworkPolicy
metadata: {name: zk}
spec:
  podSelector: {matchLabels: {app: zk}}
  ingress:
  - from: [{podSelector: {matchLabels: {app: kafka}}}]
    ports: [{port: 2181}]
`,
		want: `
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: zk
spec:
  ingress:
  - from:
    - podSelector:
        matchLabels:
          app: kafka
    ports:
    - port: 2181
  podSelector:
    matchLabels:
      app: zk
`,
		msg: "converted extensions/v1beta1 NetworkPolicy to networking.k8s.io/v1: extensions/v1beta1 NetworkPolicy is removed in Kubernetes 1.16 (target 1.37)",
	},
	{
		reason: "extensions/v1beta1 Ingress: serviceName and servicePort become service.name and service.port.number or name; pathType was ImplementationSpecific",
		in: `
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
  annotations: {kubernetes.io/ingress.class: nginx}
spec:
  backend: {serviceName: default-http, servicePort: 80}
  tls: [{hosts: [shop.example.com], secretName: shop-tls}]
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        backend: {serviceName: web, servicePort: http}
      - path: /api
        backend: {serviceName: api, servicePort: 8080}
`,
		want: `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  annotations:
    kubernetes.io/ingress.class: nginx
  name: web
spec:
  defaultBackend:
    service:
      name: default-http
      port:
        number: 80
  rules:
  - host: shop.example.com
    http:
      paths:
      - backend:
          service:
            name: web
            port:
              name: http
        path: /
        pathType: ImplementationSpecific
      - backend:
          service:
            name: api
            port:
              number: 8080
        path: /api
        pathType: ImplementationSpecific
  tls:
  - hosts:
    - shop.example.com
    secretName: shop-tls
`,
		msg: "converted extensions/v1beta1 Ingress to networking.k8s.io/v1: extensions/v1beta1 Ingress is removed in Kubernetes 1.22 (target 1.37); wrote out the defaults of extensions/v1beta1 that networking.k8s.io/v1 changed: spec.rules[0].http.paths[0].pathType: \"ImplementationSpecific\", spec.rules[0].http.paths[1].pathType: \"ImplementationSpecific\"",
	},
	{
		reason: "networking.k8s.io/v1beta1 Ingress with a path type",
		in: `
apiVersion: networking.k8s.io/v1beta1
kind: Ingress
metadata: {name: web}
spec:
  ingressClassName: nginx
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend: {serviceName: web, servicePort: 80}
`,
		want: `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  rules:
  - http:
      paths:
      - backend:
          service:
            name: web
            port:
              number: 80
        path: /
        pathType: Prefix
`,
		msg: "converted networking.k8s.io/v1beta1 Ingress to networking.k8s.io/v1: networking.k8s.io/v1beta1 Ingress is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "networking.k8s.io/v1beta1 IngressClass",
		in: `
apiVersion: networking.k8s.io/v1beta1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
`,
		want: `
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
`,
		msg: "converted networking.k8s.io/v1beta1 IngressClass to networking.k8s.io/v1: networking.k8s.io/v1beta1 IngressClass is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "batch/v1beta1 CronJob",
		in: `
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: backup}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: backup, image: backup:1, args: [--all]}]
`,
		want: `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
spec:
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          containers:
          - args:
            - --all
            image: backup:1
            name: backup
          restartPolicy: OnFailure
  schedule: 0 3 * * *
`,
		msg: "converted batch/v1beta1 CronJob to batch/v1: batch/v1beta1 CronJob is removed in Kubernetes 1.25 (target 1.37)",
	},
	{
		reason: "autoscaling/v2beta1 HorizontalPodAutoscaler: metric targets move into target",
		in: `
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, targetAverageUtilization: 70}
  - type: Resource
    resource: {name: memory, targetAverageValue: 500Mi}
  - type: ContainerResource
    containerResource: {name: cpu, container: web, targetAverageUtilization: 60}
  - type: Pods
    pods: {metricName: requests_per_second, targetAverageValue: 1k}
  - type: Object
    object:
      target: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: web}
      metricName: requests
      targetValue: 2k
  - type: External
    external:
      metricName: queue_depth
      metricSelector: {matchLabels: {queue: jobs}}
      targetAverageValue: 30
`,
		want: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  maxReplicas: 10
  metrics:
  - resource:
      name: cpu
      target:
        averageUtilization: 70
        type: Utilization
    type: Resource
  - resource:
      name: memory
      target:
        averageValue: 500Mi
        type: AverageValue
    type: Resource
  - containerResource:
      container: web
      name: cpu
      target:
        averageUtilization: 60
        type: Utilization
    type: ContainerResource
  - pods:
      metric:
        name: requests_per_second
      target:
        averageValue: 1k
        type: AverageValue
    type: Pods
  - object:
      describedObject:
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        name: web
      metric:
        name: requests
      target:
        type: Value
        value: 2k
    type: Object
  - external:
      metric:
        name: queue_depth
        selector:
          matchLabels:
            queue: jobs
      target:
        averageValue: 30
        type: AverageValue
    type: External
  minReplicas: 2
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
`,
		msg: "converted autoscaling/v2beta1 HorizontalPodAutoscaler to autoscaling/v2: autoscaling/v2beta1 HorizontalPodAutoscaler is removed in Kubernetes 1.25 (target 1.37); moved the targets of spec.metrics into target (type, value, averageValue, averageUtilization) and metricName and selectors into metric",
	},
	{
		reason: "autoscaling/v2beta1 HorizontalPodAutoscaler with its behavior in an annotation",
		in: `
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  annotations:
    autoscaling.alpha.kubernetes.io/behavior: '{"scaleDown":{"stabilizationWindowSeconds":60}}'
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
`,
		want: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 60
  maxReplicas: 10
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
`,
		msg: "converted autoscaling/v2beta1 HorizontalPodAutoscaler to autoscaling/v2: autoscaling/v2beta1 HorizontalPodAutoscaler is removed in Kubernetes 1.25 (target 1.37); moved annotation autoscaling.alpha.kubernetes.io/behavior to spec.behavior",
	},
	{
		reason: "a field autoscaling/v2beta1 does not have",
		in: `
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, targetAverageUtilisation: 70}
`,
		err:   "autoscaling/v2beta1 HorizontalPodAutoscaler is removed in Kubernetes 1.25 (target 1.37), and autoscaling/v2beta1 has no field spec.metrics[0].resource.targetAverageUtilisation: remove it (or render for a Kubernetes version older than 1.25, which serves autoscaling/v2beta1)",
		field: "spec.metrics[0].resource.targetAverageUtilisation",
	},
	{
		reason: "autoscaling/v2beta2 HorizontalPodAutoscaler has the fields of autoscaling/v2",
		in: `
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 75}}
  behavior:
    scaleDown: {stabilizationWindowSeconds: 120}
`,
		want: `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 120
  maxReplicas: 5
  metrics:
  - resource:
      name: cpu
      target:
        averageUtilization: 75
        type: Utilization
    type: Resource
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
`,
		msg: "converted autoscaling/v2beta2 HorizontalPodAutoscaler to autoscaling/v2: autoscaling/v2beta2 HorizontalPodAutoscaler is removed in Kubernetes 1.26 (target 1.37)",
	},
	{
		reason: "PodSecurityPolicy has no successor",
		in: `
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata: {name: restricted}
spec:
  privileged: false
  runAsUser: {rule: MustRunAsNonRoot}
  seLinux: {rule: RunAsAny}
  supplementalGroups: {rule: RunAsAny}
  fsGroup: {rule: RunAsAny}
`,
		err: "policy/v1beta1 PodSecurityPolicy is removed in Kubernetes 1.25 (target 1.37), and nothing replaces it: use Pod Security Admission (the namespace labels pod-security.kubernetes.io/enforce, audit and warn) or a policy engine (Kyverno, Gatekeeper) instead, and remove the PodSecurityPolicy (or render for a Kubernetes version older than 1.25, which serves policy/v1beta1)",
	},
	{
		reason: "extensions/v1beta1 PodSecurityPolicy becomes policy/v1beta1 while that is served",
		target: kubeversion.Version{Major: 1, Minor: 20},
		in: `
apiVersion: extensions/v1beta1
kind: PodSecurityPolicy
metadata: {name: restricted}
spec:
  privileged: false
  runAsUser: {rule: RunAsAny}
  seLinux: {rule: RunAsAny}
  supplementalGroups: {rule: RunAsAny}
  fsGroup: {rule: RunAsAny}
`,
		want: `
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: restricted
spec:
  fsGroup:
    rule: RunAsAny
  privileged: false
  runAsUser:
    rule: RunAsAny
  seLinux:
    rule: RunAsAny
  supplementalGroups:
    rule: RunAsAny
`,
		msg: "converted extensions/v1beta1 PodSecurityPolicy to policy/v1beta1: extensions/v1beta1 PodSecurityPolicy is removed in Kubernetes 1.16 (target 1.20); policy/v1beta1 has the same fields",
	},
	{
		reason: "extensions/v1beta1 PodSecurityPolicy once policy/v1beta1 is gone too",
		target: kubeversion.Version{Major: 1, Minor: 25},
		in: `
apiVersion: extensions/v1beta1
kind: PodSecurityPolicy
metadata: {name: restricted}
spec: {privileged: false}
`,
		err: "extensions/v1beta1 PodSecurityPolicy is removed in Kubernetes 1.16 (target 1.25), and Kubernetes 1.25 serves none of its successors (policy/v1beta1) either: use Pod Security Admission (the namespace labels pod-security.kubernetes.io/enforce, audit and warn) or a policy engine (Kyverno, Gatekeeper) instead, and remove the PodSecurityPolicy (or render for a Kubernetes version older than 1.16, which serves extensions/v1beta1)",
	},
	{
		reason: "lossy: apps/v1 has no spec.rollbackTo",
		in: `
apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: web}
spec:
  rollbackTo: {revision: 2}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`,
		err:   "extensions/v1beta1 Deployment is removed in Kubernetes 1.16 (target 1.37), and apps/v1 has no field for spec.rollbackTo (Kubernetes' conversion keeps it only in annotation deprecated.deployment.rollback.to, which apps/v1 does not act on): remove it (or render for a Kubernetes version older than 1.16, which serves extensions/v1beta1)",
		field: "spec.rollbackTo",
	},
	{
		reason: "lossy: apps/v1 has no spec.templateGeneration",
		in: `
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata: {name: agent}
spec:
  templateGeneration: 3
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent}]
`,
		err:   "extensions/v1beta1 DaemonSet is removed in Kubernetes 1.16 (target 1.37), and apps/v1 has no field for spec.templateGeneration (Kubernetes' conversion keeps it only in annotation deprecated.daemonset.template.generation, which apps/v1 does not act on): remove it (or render for a Kubernetes version older than 1.16, which serves extensions/v1beta1)",
		field: "spec.templateGeneration",
	},
	{
		reason: "admissionregistration v1beta1 webhooks: failurePolicy, matchPolicy, timeoutSeconds and admissionReviewVersions keep their v1beta1 defaults",
		in: `
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingWebhookConfiguration
metadata: {name: policy}
webhooks:
- name: check.example.com
  clientConfig: {service: {name: policy, namespace: sys, path: /validate}}
  rules: [{operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]
  sideEffects: None
`,
		want: `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: policy
webhooks:
- admissionReviewVersions:
  - v1beta1
  clientConfig:
    service:
      name: policy
      namespace: sys
      path: /validate
  failurePolicy: Ignore
  matchPolicy: Exact
  name: check.example.com
  rules:
  - apiGroups:
    - apps
    apiVersions:
    - v1
    operations:
    - CREATE
    - UPDATE
    resources:
    - deployments
  sideEffects: None
  timeoutSeconds: 30
`,
		msg: "converted admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration to admissionregistration.k8s.io/v1: admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration is removed in Kubernetes 1.22 (target 1.37); wrote out the defaults of admissionregistration.k8s.io/v1beta1 that admissionregistration.k8s.io/v1 changed: webhooks[0].admissionReviewVersions, webhooks[0].failurePolicy: \"Ignore\", webhooks[0].matchPolicy: \"Exact\", webhooks[0].timeoutSeconds: 30",
	},
	{
		reason: "a webhook without sideEffects (Unknown in v1beta1), which admissionregistration.k8s.io/v1 refuses",
		in: `
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingWebhookConfiguration
metadata: {name: inject}
webhooks:
- name: inject.example.com
  clientConfig: {url: "https://inject.example.com/mutate"}
`,
		err:   "admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration is removed in Kubernetes 1.22 (target 1.37), and admissionregistration.k8s.io/v1 accepts only None and NoneOnDryRun, not \"Unknown\" (the v1beta1 default is Unknown): declare None or NoneOnDryRun if the webhook has no side effects on dry-run requests, and use apiVersion admissionregistration.k8s.io/v1 (or render for a Kubernetes version older than 1.22, which serves admissionregistration.k8s.io/v1beta1)",
		field: "webhooks[0].sideEffects",
	},
	{
		reason: "flowcontrol v1beta1 becomes v1beta3 where v1 is not served yet",
		target: kubeversion.Version{Major: 1, Minor: 26},
		in: `
apiVersion: flowcontrol.apiserver.k8s.io/v1beta1
kind: PriorityLevelConfiguration
metadata: {name: batch}
spec:
  type: Limited
  limited:
    assuredConcurrencyShares: 5
    limitResponse: {type: Reject}
`,
		want: `
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: PriorityLevelConfiguration
metadata:
  name: batch
spec:
  limited:
    limitResponse:
      type: Reject
    nominalConcurrencyShares: 5
  type: Limited
`,
		msg: "converted flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration to flowcontrol.apiserver.k8s.io/v1beta3: flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration is removed in Kubernetes 1.26 (target 1.26)",
	},
	{
		reason: "flowcontrol v1beta1 becomes v1",
		in: `
apiVersion: flowcontrol.apiserver.k8s.io/v1beta1
kind: PriorityLevelConfiguration
metadata: {name: batch}
spec:
  type: Limited
  limited:
    assuredConcurrencyShares: 5
    limitResponse: {type: Reject}
`,
		want: `
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: batch
spec:
  limited:
    limitResponse:
      type: Reject
    nominalConcurrencyShares: 5
  type: Limited
`,
		msg: "converted flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration to flowcontrol.apiserver.k8s.io/v1: flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration is removed in Kubernetes 1.26 (target 1.37)",
	},
	{
		reason: "scheduling v1beta1 PriorityClass keeps globalDefault: false as written",
		in: `
apiVersion: scheduling.k8s.io/v1beta1
kind: PriorityClass
metadata: {name: high}
value: 1000000
globalDefault: false
description: for the brokers
`,
		want: `
apiVersion: scheduling.k8s.io/v1
description: for the brokers
globalDefault: false
kind: PriorityClass
metadata:
  name: high
value: 1000000
`,
		msg: "converted scheduling.k8s.io/v1beta1 PriorityClass to scheduling.k8s.io/v1: scheduling.k8s.io/v1beta1 PriorityClass is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "storage v1beta1 StorageClass",
		in: `
apiVersion: storage.k8s.io/v1beta1
kind: StorageClass
metadata: {name: fast}
provisioner: kubernetes.io/gce-pd
parameters: {type: pd-ssd}
allowVolumeExpansion: true
`,
		want: `
allowVolumeExpansion: true
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
parameters:
  type: pd-ssd
provisioner: kubernetes.io/gce-pd
`,
		msg: "converted storage.k8s.io/v1beta1 StorageClass to storage.k8s.io/v1: storage.k8s.io/v1beta1 StorageClass is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "apps/v1 is not removed: untouched",
		in: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, resources: {}}]
`,
	},
	{
		reason: "a custom resource is untouched",
		in: `
apiVersion: kudo.dev/v1beta1
kind: Instance
metadata: {name: zk}
spec: {parameters: {NODE_COUNT: "3"}}
`,
	},
	{
		reason: "a CertificateSigningRequest whose usages default to the kubernetes.io/legacy-unknown signer, which certificates.k8s.io/v1 refuses",
		in: `
apiVersion: certificates.k8s.io/v1beta1
kind: CertificateSigningRequest
metadata: {name: node-1}
spec:
  request: aGk=
  usages: [digital signature, key encipherment, server auth]
`,
		err:   "certificates.k8s.io/v1beta1 CertificateSigningRequest is removed in Kubernetes 1.22 (target 1.37), and certificates.k8s.io/v1 does not accept kubernetes.io/legacy-unknown (the v1beta1 default for these usages): name a signer (kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving or your own) and use apiVersion certificates.k8s.io/v1 (or render for a Kubernetes version older than 1.22, which serves certificates.k8s.io/v1beta1)",
		field: "spec.signerName",
	},
	{
		reason: "a CertificateSigningRequest with a signer",
		in: `
apiVersion: certificates.k8s.io/v1beta1
kind: CertificateSigningRequest
metadata: {name: client}
spec:
  request: aGk=
  signerName: kubernetes.io/kube-apiserver-client
  usages: [client auth]
`,
		want: `
apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: client
spec:
  request: aGk=
  signerName: kubernetes.io/kube-apiserver-client
  usages:
  - client auth
`,
		msg: "converted certificates.k8s.io/v1beta1 CertificateSigningRequest to certificates.k8s.io/v1: certificates.k8s.io/v1beta1 CertificateSigningRequest is removed in Kubernetes 1.22 (target 1.37)",
	},
	{
		reason: "discovery v1beta1 EndpointSlice: the hostname and zone keys of topology become nodeName and zone",
		in: `
apiVersion: discovery.k8s.io/v1beta1
kind: EndpointSlice
metadata: {name: web-1, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
ports: [{name: http, port: 80}]
endpoints:
- addresses: [10.0.0.1]
  topology: {kubernetes.io/hostname: node-1, topology.kubernetes.io/zone: zone-a}
`,
		want: `
addressType: IPv4
apiVersion: discovery.k8s.io/v1
endpoints:
- addresses:
  - 10.0.0.1
  nodeName: node-1
  zone: zone-a
kind: EndpointSlice
metadata:
  labels:
    kubernetes.io/service-name: web
  name: web-1
ports:
- name: http
  port: 80
`,
		msg: "converted discovery.k8s.io/v1beta1 EndpointSlice to discovery.k8s.io/v1: discovery.k8s.io/v1beta1 EndpointSlice is removed in Kubernetes 1.25 (target 1.37); wrote the kubernetes.io/hostname topology of endpoints as their nodeName",
	},
	{
		reason: "discovery v1beta1 EndpointSlice with a topology key discovery.k8s.io/v1 cannot write",
		in: `
apiVersion: discovery.k8s.io/v1beta1
kind: EndpointSlice
metadata: {name: web-1}
addressType: IPv4
endpoints:
- addresses: [10.0.0.1]
  topology: {example.com/rack: r1}
`,
		err:   "discovery.k8s.io/v1beta1 EndpointSlice is removed in Kubernetes 1.25 (target 1.37), and discovery.k8s.io/v1 has fields for the topology keys kubernetes.io/hostname (nodeName) and topology.kubernetes.io/zone (zone) only, and drops the others (deprecatedTopology) from objects it is given: remove example.com/rack and use apiVersion discovery.k8s.io/v1 (or render for a Kubernetes version older than 1.25, which serves discovery.k8s.io/v1beta1)",
		field: "endpoints[0].topology",
	},
	{
		reason: "apiregistration v1beta1 APIService has the fields of v1",
		in: `
apiVersion: apiregistration.k8s.io/v1beta1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  group: metrics.k8s.io
  version: v1beta1
  service: {name: metrics-server, namespace: kube-system}
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
`,
		want: `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1beta1.metrics.k8s.io
spec:
  group: metrics.k8s.io
  groupPriorityMinimum: 100
  insecureSkipTLSVerify: true
  service:
    name: metrics-server
    namespace: kube-system
  version: v1beta1
  versionPriority: 100
`,
		msg: "converted apiregistration.k8s.io/v1beta1 APIService to apiregistration.k8s.io/v1: apiregistration.k8s.io/v1beta1 APIService is removed in Kubernetes 1.22 (target 1.37); apiregistration.k8s.io/v1 has the same fields",
	},
}

func TestConvert(t *testing.T) {
	for _, tc := range convertCases {
		t.Run(tc.reason, func(t *testing.T) {
			target := tc.target
			if target == (kubeversion.Version{}) {
				target = kubeversion.Default
			}
			o := obj(t, tc.in)
			in := deepCopyMap(o.Map)
			d, err := Convert(o, target)
			var dd *diag.Diagnostic
			switch {
			case tc.err != "":
				if d != nil || !errors.As(err, &dd) {
					t.Fatalf("got %v, %v; want the refusal %q", d, err, tc.err)
				}
				if dd.Severity != diag.SeverityError || dd.Msg != tc.err || dd.Field != tc.field {
					t.Errorf("refused with %s %q at %q;\nwant %q at %q", dd.Severity, dd.Msg, dd.Field, tc.err, tc.field)
				}
				checkResource(t, dd, in)
				assert.Check(t, is.DeepEqual(in, o.Map), "refused, but changed the object")
			case tc.want == "":
				if d != nil || err != nil {
					t.Fatalf("got %v, %v; want the object untouched", d, err)
				}
				assert.Check(t, is.DeepEqual(in, o.Map), "changed the object")
			default:
				if err != nil {
					t.Fatal(err)
				}
				if d == nil || d.Severity != diag.SeverityInfo || d.Msg != tc.msg || d.Field != tc.field {
					t.Errorf("diagnostic %#v;\nwant the info %q", d, tc.msg)
				}
				checkResource(t, d, in)
				assert.Check(t, is.DeepEqual(parse(t, tc.want), o.Map), "converted object differs")
				checkOutput(t, o, target)
			}
		})
	}
}

// checkResource checks that d names the object as it was written.
func checkResource(t *testing.T, d *diag.Diagnostic, in map[string]any) {
	t.Helper()
	want := &diag.Resource{APIVersion: in["apiVersion"].(string), Kind: in["kind"].(string)}
	want.Name, _ = mapOf(in["metadata"])["name"].(string)
	want.Namespace, _ = mapOf(in["metadata"])["namespace"].(string)
	assert.Check(t, is.DeepEqual(want, d.Resource), "resource differs")
}

// TestConvertConcurrently converts every case from several goroutines at
// once (the engine converts the objects of a render on all cores), first
// conversions into each group included: go test -race finds no race, and
// every result is the one of TestConvert.
func TestConvertConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		for _, tc := range convertCases {
			wg.Go(func() {
				target := tc.target
				if target == (kubeversion.Version{}) {
					target = kubeversion.Default
				}
				o := obj(t, tc.in)
				d, err := Convert(o, target)
				switch {
				case tc.err != "":
					if err == nil || d != nil {
						t.Errorf("%s: %v, %v", tc.reason, d, err)
					}
				case tc.want != "":
					if err != nil || !reflect.DeepEqual(o.Map, parse(t, tc.want)) {
						t.Errorf("%s: %v, %v", tc.reason, d, err)
					}
				}
			})
		}
	}
	wg.Wait()
}
