package validate_test

// The definitions TestCustomResourcesAgree starts from, besides the
// examples': every feature of a schema the API extensions server checks.

// widgetSeed is a Widget that uses most of widgetCRD.
const widgetSeed = `apiVersion: cr.example.com/v1
kind: Widget
metadata: {name: w, namespace: agree-cr, labels: {app: w}}
spec:
  size: 3
  replicas: 2
  name: abc
  mode: a
  port: http
  email: a@example.com
  free: {any: {thing: 1}}
  tpl: {apiVersion: v1, kind: ConfigMap, metadata: {name: t, labels: {a: b}}, data: {k: v}}
  ports: [{name: http, port: 80}, {name: https, port: 443}]
  tags: [x, y]
  args: [a, b]
  opt: null
`

// gadgetCRD is cluster-scoped and checks with CEL rules: at the root
// (reading the name), comparing fields, over a map's keys, over a list's
// items, with a message expression, a transition rule (not run on
// create), and a list-type map keyed by two fields, one defaulted.
const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.cr.example.com}
spec:
  group: cr.example.com
  scope: Cluster
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - {rule: "self.metadata.name.size() <= 20", messageExpression: "'name too long: ' + self.metadata.name"}
        properties:
          spec:
            type: object
            required: [kind]
            x-kubernetes-validations:
            - {rule: "!has(self.min) || !has(self.max) || self.min <= self.max", message: min must not exceed max, fieldPath: .min}
            - {rule: "self.kind != 'fixed' || has(self.size)", message: a fixed gadget has a size, reason: FieldValueRequired}
            properties:
              kind: {type: string, enum: [fixed, elastic]}
              size: {type: integer, format: int32, minimum: 1, maximum: 100}
              min: {type: integer}
              max: {type: integer}
              url: {type: string, maxLength: 200, x-kubernetes-validations: [{rule: "self.startsWith('https://')", message: an https URL}]}
              since: {type: string, format: date-time}
              ratio: {type: number, minimum: 0, maximum: 1, exclusiveMaximum: true}
              id: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: immutable}]}
              env:
                type: object
                maxProperties: 4
                additionalProperties: {type: string, maxLength: 20}
                x-kubernetes-validations: [{rule: "self.all(k, k.startsWith('x-'))", message: keys start with x-}]
              routes:
                type: array
                maxItems: 5
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, protocol]
                x-kubernetes-validations: [{rule: "self.all(r, r.weight >= 0)", message: weights are not negative}]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, maxLength: 10}
                    protocol: {type: string, default: TCP, enum: [TCP, UDP]}
                    weight: {type: integer, default: 1}
              selector:
                type: object
                x-kubernetes-map-type: atomic
                properties: {app: {type: string}}
          status:
            type: object
            properties:
              phase: {type: string}
              routes: {type: array, x-kubernetes-list-type: set, items: {type: string}}
---
apiVersion: cr.example.com/v1
kind: Gadget
metadata: {name: g}
spec:
  kind: fixed
  size: 5
  min: 1
  max: 2
  url: https://example.com
  since: "2024-05-01T10:00:00Z"
  ratio: 0.5
  id: one
  env: {x-a: "1", x-b: two}
  routes: [{name: a, protocol: TCP, weight: 2}, {name: a, protocol: UDP}]
  selector: {app: g}
`

// sparkLikeCRD has the shapes of spark-operator's SparkApplication
// (v1beta2), which KUDO's spark package installed: an application of a
// type, a mode and a version, a driver and executors sized by cores (32-bit
// integers), quantities written as strings or integers, a restart
// policy, configuration maps, dependencies and an environment keyed by
// name. (Spark's package is not in the corpus.)
const sparkLikeCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: sparkapps.sparkoperator.example.com}
spec:
  group: sparkoperator.example.com
  scope: Namespaced
  names: {plural: sparkapps, singular: sparkapp, kind: SparkApp, listKind: SparkAppList, shortNames: [sparkapp]}
  versions:
  - name: v1beta2
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [type, sparkVersion, driver, executor]
            properties:
              type: {type: string, enum: [Java, Python, Scala, R]}
              mode: {type: string, enum: [cluster, client]}
              sparkVersion: {type: string}
              image: {type: string}
              mainClass: {type: string}
              mainApplicationFile: {type: string}
              arguments: {type: array, items: {type: string}}
              sparkConf: {type: object, additionalProperties: {type: string}}
              timeToLiveSeconds: {type: integer, format: int64}
              failureRetries: {type: integer, format: int32}
              memoryOverheadFactor: {type: string}
              deps:
                type: object
                properties:
                  jars: {type: array, items: {type: string}}
                  files: {type: array, items: {type: string}}
              restartPolicy:
                type: object
                properties:
                  type: {type: string, enum: [Never, Always, OnFailure]}
                  onFailureRetries: {type: integer, format: int32, minimum: 0}
                  onFailureRetryInterval: {type: integer, format: int64, minimum: 1}
              dynamicAllocation:
                type: object
                properties:
                  enabled: {type: boolean}
                  minExecutors: {type: integer, format: int32}
                  maxExecutors: {type: integer, format: int32}
              volumes: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true, required: [name], properties: {name: {type: string}}}}
              driver: &pod
                type: object
                properties:
                  cores: {type: integer, format: int32, minimum: 1}
                  coreLimit: {type: string}
                  coreRequest: {x-kubernetes-int-or-string: true, pattern: '^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$'}
                  memory: {type: string}
                  instances: {type: integer, format: int32, minimum: 1}
                  serviceAccount: {type: string}
                  labels: {type: object, additionalProperties: {type: string}}
                  env:
                    type: array
                    x-kubernetes-list-type: map
                    x-kubernetes-list-map-keys: [name]
                    items: {type: object, required: [name], properties: {name: {type: string}, value: {type: string}}}
                  volumeMounts:
                    type: array
                    items: {type: object, required: [name, mountPath], properties: {name: {type: string}, mountPath: {type: string}, readOnly: {type: boolean}}}
              executor: *pod
          status:
            type: object
            properties:
              applicationState: {type: object, properties: {state: {type: string}, errorMessage: {type: string}}}
              executorState: {type: object, additionalProperties: {type: string}}
---
apiVersion: sparkoperator.example.com/v1beta2
kind: SparkApp
metadata: {name: spark-pi, namespace: agree-cr}
spec:
  type: Scala
  mode: cluster
  image: gcr.io/spark-operator/spark:v2.4.5
  mainClass: org.apache.spark.examples.SparkPi
  mainApplicationFile: local:///opt/spark/examples/jars/spark-examples_2.11-2.4.5.jar
  arguments: ["1000"]
  sparkVersion: 2.4.5
  sparkConf: {spark.ui.port: "4045", spark.eventLog.enabled: "true"}
  timeToLiveSeconds: 3600
  restartPolicy: {type: OnFailure, onFailureRetries: 3, onFailureRetryInterval: 10}
  deps: {jars: [local:///opt/spark/jars/x.jar]}
  volumes: [{name: test-volume, hostPath: {path: /tmp, type: Directory}}]
  driver:
    cores: 1
    coreLimit: 1200m
    coreRequest: 500m
    memory: 512m
    labels: {version: 2.4.5}
    serviceAccount: spark-driver
    env: [{name: A, value: "1"}, {name: B, value: "2"}]
    volumeMounts: [{name: test-volume, mountPath: /tmp}]
  executor:
    cores: 1
    instances: 2
    memory: 512m
    labels: {version: 2.4.5}
`
