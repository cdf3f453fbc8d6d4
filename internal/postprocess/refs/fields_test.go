package refs

import (
	"testing"

	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// world holds the objects the references of TestResolveFields point at.
const world = `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: app, labels: {app: db, tier: backend}}
data:
  host: db.app.svc
  port: "5432"
  tls.key: not-so-secret
  hosts: '["a","b","c"]'
  enabled: "true"
  nothing: null
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other, namespace: app, labels: {app: web, tier: backend}}
data: {host: web.app.svc}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: elsewhere}
data: {host: elsewhere.svc}
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: app}
spec:
  ports:
  - {name: metrics, port: 9090}
  - {name: http, port: 80}
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: db, namespace: app}
spec: {template: {metadata: {name: knative-revision}}}
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: only-knative, namespace: app}
spec: {template: {metadata: {name: lonely-revision}}}
---
apiVersion: v1
kind: Namespace
metadata: {name: app, labels: {team: data}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{verbs: [get]}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, shortNames: [wdg]}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: regions.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: Region, plural: regions, singular: region}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: app}
spec: {size: 3, ratio: 0.25, tags: [x, y], nested: {a: {b: c}}}
---
apiVersion: example.com/v1
kind: Region
metadata: {name: eu}
spec: {zone: eu-west-1}
---
apiVersion: gadgets.example.com/v1
kind: Gadget
metadata: {name: g, namespace: app}
spec: {color: red}
---
apiVersion: one.example.com/v1
kind: Thing
metadata: {name: t, namespace: app}
spec: {from: one}
---
apiVersion: two.example.com/v1
kind: Thing
metadata: {name: t, namespace: app}
spec: {from: two}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec: {replicas: 2}
`

// TestResolveFields covers every field of a reference. Each case is the
// value of getValueFrom in data.v of a ConfigMap app/user; the world
// objects are lookup objects.
func TestResolveFields(t *testing.T) {
	cases := map[string]struct {
		reason string
		ref    string
		want   any
		err    string // error class, see errClass
	}{
		// kind
		"KindExact": {
			reason: "kind matches the Kind.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"KindLowercaseSingular": {
			reason: "kind matches the singular name, case-insensitively.",
			ref:    `{kind: configmap, name: settings, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"KindPlural": {
			reason: "kind matches the plural name of a built-in kind.",
			ref:    `{kind: ConfigMaps, name: settings, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"KindShortName": {
			reason: "kind matches the short name of a built-in kind.",
			ref:    `{kind: CM, name: settings, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"KindShortNameDeployment": {
			reason: "deploy is the short name of apps Deployment.",
			ref:    `{kind: deploy, name: web, path: '{.spec.replicas}'}`,
			want:   int64(2),
		},
		"KindCRDPluralAndShortName": {
			reason: "A CustomResourceDefinition of the render gives its kind plural, singular and short names.",
			ref:    `{kind: wdg, name: w, path: '{.spec.size}'}`,
			want:   int64(3),
		},
		"KindCRDPlural": {
			reason: "The plural of a CRD kind.",
			ref:    `{kind: WIDGETS, name: w, path: '{.spec.size}'}`,
			want:   int64(3),
		},
		"KindFromObjectsOnly": {
			reason: "A kind without CRD is known from the objects of the render, by Kind and singular.",
			ref:    `{kind: gadget, name: g, path: '{.spec.color}'}`,
			want:   "red",
		},
		"KindFromObjectsHasNoPlural": {
			reason: "Without a CRD the plural of a custom kind is unknown.",
			ref:    `{kind: gadgets, name: g, path: '{.spec.color}'}`,
			err:    "KindNotFound",
		},
		"KindNotFound": {
			reason: "A kind nobody defines is KindNotFound.",
			ref:    `{kind: Servce, name: db, path: '{.spec}'}`,
			err:    "KindNotFound",
		},
		"KindBuiltinWithoutObjectIsObjectNotFound": {
			reason: "A built-in kind exists even when the render has no object of it.",
			ref:    `{kind: Secret, name: db, path: '{.data}'}`,
			err:    "ObjectNotFound",
		},
		"KindMissing": {
			reason: "kind is required.",
			ref:    `{name: db, path: '{.spec}'}`,
			err:    "IllFormedRef",
		},
		"KindNotAString": {
			reason: "kind must be a string.",
			ref:    `{kind: [Service], name: db, path: '{.spec}'}`,
			err:    "IllFormedRef",
		},
		// apiVersion
		"APIVersionAbsentCoreWins": {
			reason: "Without apiVersion the core Service wins over a Service of another group.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[1].port}'}`,
			want:   int64(80),
		},
		"APIVersionOtherGroup": {
			reason: "With apiVersion the Service of that group is used.",
			ref:    `{kind: Service, apiVersion: serving.knative.dev/v1, name: db, path: '{.spec.template.metadata.name}'}`,
			want:   "knative-revision",
		},
		"APIVersionCore": {
			reason: "apiVersion v1 is the core group.",
			ref:    `{kind: Service, apiVersion: v1, name: db, path: '{.spec.ports[0].port}'}`,
			want:   int64(9090),
		},
		"APIVersionCoreWinsEvenWhenOnlyTheOtherObjectExists": {
			reason: "Without apiVersion the kind is the core Service, so a knative-only name is not found: the group decides, not the objects.",
			ref:    `{kind: Service, name: only-knative, path: '{.spec}'}`,
			err:    "ObjectNotFound",
		},
		"APIVersionVersionNotCompared": {
			reason: "Only the group of apiVersion matters: the render has one version of each object.",
			ref:    `{kind: Deployment, apiVersion: apps/v1beta2, name: web, path: '{.spec.replicas}'}`,
			want:   int64(2),
		},
		"APIVersionAmbiguous": {
			reason: "Two non-core kinds of the same name without apiVersion are ambiguous.",
			ref:    `{kind: Thing, name: t, path: '{.spec.from}'}`,
			err:    "IllFormedRef",
		},
		"APIVersionDisambiguates": {
			reason: "apiVersion picks one of two non-core kinds.",
			ref:    `{kind: Thing, apiVersion: two.example.com/v1, name: t, path: '{.spec.from}'}`,
			want:   "two",
		},
		"APIVersionGroupWithoutKind": {
			reason: "A group that does not have the kind is KindNotFound.",
			ref:    `{kind: ConfigMap, apiVersion: apps/v1, name: settings, path: '{.data}'}`,
			err:    "KindNotFound",
		},
		"APIVersionMalformed": {
			reason: "apiVersion is <group>/<version> or <version>.",
			ref:    `{kind: ConfigMap, apiVersion: a/b/c, name: settings, path: '{.data}'}`,
			err:    "IllFormedRef",
		},
		// name and labels
		"Name": {
			reason: "name selects the object of that name.",
			ref:    `{kind: ConfigMap, name: other, path: '{.data.host}'}`,
			want:   "web.app.svc",
		},
		"LabelsSubset": {
			reason: "labels match objects carrying at least those labels.",
			ref:    `{kind: ConfigMap, labels: {app: db}, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"LabelsAll": {
			reason: "Every label must match.",
			ref:    `{kind: ConfigMap, labels: {app: web, tier: backend}, path: '{.data.host}'}`,
			want:   "web.app.svc",
		},
		"LabelsTwoMatches": {
			reason: "Exactly one object must match; two is ill-formed (ambiguous).",
			ref:    `{kind: ConfigMap, labels: {tier: backend}, path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		"LabelsNoMatch": {
			reason: "No object with the labels is ObjectNotFound.",
			ref:    `{kind: ConfigMap, labels: {app: db, tier: frontend}, path: '{.data.host}'}`,
			err:    "ObjectNotFound",
		},
		"NameAndLabels": {
			reason: "name and labels together are ill-formed.",
			ref:    `{kind: ConfigMap, name: settings, labels: {app: db}, path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		"NeitherNameNorLabels": {
			reason: "One of name and labels is required.",
			ref:    `{kind: ConfigMap, path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		"LabelsEmpty": {
			reason: "An empty label map selects nothing in particular: ill-formed.",
			ref:    `{kind: ConfigMap, labels: {}, path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		"LabelValueNotAString": {
			reason: "Label values are strings.",
			ref:    `{kind: ConfigMap, labels: {version: 1}, path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		"NameNotFound": {
			reason: "No object of that name is ObjectNotFound.",
			ref:    `{kind: ConfigMap, name: nope, path: '{.data.host}'}`,
			err:    "ObjectNotFound",
		},
		"NameEmpty": {
			reason: "An empty name is ill-formed.",
			ref:    `{kind: ConfigMap, name: "", path: '{.data.host}'}`,
			err:    "IllFormedRef",
		},
		// namespace
		"NamespaceDefault": {
			reason: "Without namespace the referencing object's namespace (app) is used.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}'}`,
			want:   "db.app.svc",
		},
		"NamespaceExplicit": {
			reason: "namespace selects another namespace.",
			ref:    `{kind: ConfigMap, name: settings, namespace: elsewhere, path: '{.data.host}'}`,
			want:   "elsewhere.svc",
		},
		"NamespaceWithLabels": {
			reason: "Label selection is within the namespace too.",
			ref:    `{kind: ConfigMap, labels: {app: db}, namespace: elsewhere, path: '{.data.host}'}`,
			err:    "ObjectNotFound",
		},
		"NamespaceIgnoredForClusterScopedBuiltin": {
			reason: "namespace is ignored for a cluster-scoped built-in kind.",
			ref:    `{kind: ns, name: app, namespace: whatever, path: '{.metadata.labels.team}'}`,
			want:   "data",
		},
		"NamespaceDefaultIgnoredForClusterScoped": {
			reason: "The default namespace does not hide cluster-scoped objects.",
			ref:    `{kind: ClusterRole, name: reader, path: '{.rules[0].verbs[0]}'}`,
			want:   "get",
		},
		"NamespaceIgnoredForClusterScopedCRD": {
			reason: "A CRD with scope Cluster makes its kind cluster-scoped.",
			ref:    `{kind: region, name: eu, path: '{.spec.zone}'}`,
			want:   "eu-west-1",
		},
		// path
		"PathEscapedDot": {
			reason: "An escaped dot is part of the key.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.tls\.key}'}`,
			want:   "not-so-secret",
		},
		"PathBracketKey": {
			reason: "A bracketed quoted key. (client-go's jsonpath splits ['a.b'] at the dot: escape dots instead.)",
			ref:    `{kind: ConfigMap, name: settings, path: "{.data['host']}"}`,
			want:   "db.app.svc",
		},
		"PathIndex": {
			reason: "A list index.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[0].name}'}`,
			want:   "metrics",
		},
		"PathNegativeIndex": {
			reason: "A negative index counts from the end.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[-1].name}'}`,
			want:   "http",
		},
		"PathFilter": {
			reason: "A filter selects a list element.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[?(@.name=="http")].port}'}`,
			want:   int64(80),
		},
		"PathWildcardFirstMatch": {
			reason: "The first of several matches is used.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[*].port}'}`,
			want:   int64(9090),
		},
		"PathObject": {
			reason: "A path can select a mapping; it is copied as is.",
			ref:    `{kind: Widget, name: w, path: '{.spec.nested}'}`,
			want:   map[string]any{"a": map[string]any{"b": "c"}},
		},
		"PathList": {
			reason: "A path can select a list.",
			ref:    `{kind: Widget, name: w, path: '{.spec.tags}'}`,
			want:   []any{"x", "y"},
		},
		"PathFloat": {
			reason: "Floats stay float64.",
			ref:    `{kind: Widget, name: w, path: '{.spec.ratio}'}`,
			want:   0.25,
		},
		"PathMissingField": {
			reason: "A missing field is ValueNotFound.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.nope}'}`,
			err:    "ValueNotFound",
		},
		"PathNull": {
			reason: "A null value is not a value.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.nothing}'}`,
			err:    "ValueNotFound",
		},
		"PathFilterMatchesNothing": {
			reason: "Composable panicked on a filter that matches nothing: ValueNotFound.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[?(@.name=="grpc")].port}'}`,
			err:    "ValueNotFound",
		},
		"PathIndexOutOfRange": {
			reason: "An index out of range is ValueNotFound.",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[5].port}'}`,
			err:    "ValueNotFound",
		},
		"PathIndexOnAMap": {
			reason: "A path that does not fit the object's shape is ValueNotFound.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data[0]}'}`,
			err:    "ValueNotFound",
		},
		"PathNotJSONPath": {
			reason: "The path must start with {.",
			ref:    `{kind: ConfigMap, name: settings, path: .data.host}`,
			err:    "IllFormedRef",
		},
		"PathSyntaxError": {
			reason: "A path that does not parse is ill-formed.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data[}'}`,
			err:    "IllFormedRef",
		},
		"PathTwoExpressions": {
			reason: "Only one expression: the rest would be ignored.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}:{.data.port}'}`,
			err:    "IllFormedRef",
		},
		"PathRange": {
			reason: "range/end are not supported.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data}{range .x}{end}'}`,
			err:    "IllFormedRef",
		},
		"PathMissing": {
			reason: "path is required.",
			ref:    `{kind: ConfigMap, name: settings}`,
			err:    "IllFormedRef",
		},
		// format-transformers
		"TransformersLeftToRight": {
			reason: "Transformers apply left to right: JSON text to a list, then to a comma separated string.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.hosts}', format-transformers: [JsonToObject, ArrayToCSString]}`,
			want:   "a,b,c",
		},
		"TransformersRoundTrip": {
			reason: "StringToInt then ToString.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.port}', format-transformers: [StringToInt, ToString]}`,
			want:   "5432",
		},
		"TransformersFilterToString": {
			reason: "Composable's scenario: a Service port 80 becomes \"80\".",
			ref:    `{kind: Service, name: db, path: '{.spec.ports[?(@.name=="http")].port}', format-transformers: [ToString]}`,
			want:   "80",
		},
		"TransformersUnknown": {
			reason: "An unknown transformer is ill-formed.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.port}', format-transformers: [StringToLong]}`,
			err:    "IllFormedRef",
		},
		"TransformersNotAList": {
			reason: "format-transformers is a list.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.port}', format-transformers: StringToInt}`,
			err:    "IllFormedRef",
		},
		"TransformerFails": {
			reason: "Composable silently produced null when a transformer failed: it is an error.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}', format-transformers: [StringToInt]}`,
			err:    "Transform",
		},
		"TransformerFailsNoDefault": {
			reason: "defaultValue does not hide a failing transformer.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}', format-transformers: [StringToInt], defaultValue: 1}`,
			err:    "Transform",
		},
		// defaultValue
		"DefaultWhenKindNotFound": {
			reason: "defaultValue when the kind is not found.",
			ref:    `{kind: Nope, name: x, path: '{.a}', defaultValue: fallback}`,
			want:   "fallback",
		},
		"DefaultWhenObjectNotFound": {
			reason: "defaultValue when the object is not found.",
			ref:    `{kind: ConfigMap, name: nope, path: '{.a}', defaultValue: 7}`,
			want:   int64(7),
		},
		"DefaultWhenValueNotFound": {
			reason: "defaultValue when the value is not found.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.nope}', defaultValue: true}`,
			want:   true,
		},
		"DefaultNotTransformed": {
			reason: "defaultValue is returned as is, without transformers.",
			ref:    `{kind: ConfigMap, name: nope, path: '{.a}', format-transformers: [StringToInt], defaultValue: "not a number"}`,
			want:   "not a number",
		},
		"DefaultStructured": {
			reason: "defaultValue can be a mapping.",
			ref:    `{kind: ConfigMap, name: nope, path: '{.a}', defaultValue: {x: [1, 2.5]}}`,
			want:   map[string]any{"x": []any{int64(1), 2.5}},
		},
		"DefaultNull": {
			reason: "An explicit null default is a default.",
			ref:    `{kind: ConfigMap, name: nope, path: '{.a}', defaultValue: null}`,
			want:   nil,
		},
		"DefaultNotForIllFormed": {
			reason: "defaultValue does not hide an ill-formed reference.",
			ref:    `{kind: ConfigMap, path: '{.a}', defaultValue: x}`,
			err:    "IllFormedRef",
		},
		"DefaultNotForAmbiguous": {
			reason: "defaultValue does not hide two matching objects.",
			ref:    `{kind: ConfigMap, labels: {tier: backend}, path: '{.a}', defaultValue: x}`,
			err:    "IllFormedRef",
		},
		"DefaultUnusedWhenFound": {
			reason: "defaultValue is only a fallback.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}', defaultValue: x}`,
			want:   "db.app.svc",
		},
		// shape of getValueFrom
		"UnknownField": {
			reason: "A misspelt field is ill-formed, not ignored.",
			ref:    `{kind: ConfigMap, name: settings, path: '{.data.host}', formatTransformers: [ToString]}`,
			err:    "IllFormedRef",
		},
		"NotAMapping": {
			reason: "getValueFrom is a mapping.",
			ref:    `ConfigMap/settings`,
			err:    "IllFormedRef",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			user := decodeStream(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: user, namespace: app}\ndata:\n  v: {getValueFrom: "+tc.ref+"}\n")
			lookup := decodeStream(t, world)
			before := deepCopyAll(lookup)
			err := Resolve(user, lookup, Options{})
			assert.Assert(t, gtcmp.DeepEqual(tc.err, errClass(err)), "%s\nResolve(...): -want error class, +got:\n\nerror: %v", tc.reason, err)
			assert.Check(t, gtcmp.DeepEqual(before, mapsOf(lookup)), "%s\nResolve(...): lookup objects changed", tc.reason)
			if tc.err != "" {
				return
			}
			assert.Check(t, gtcmp.DeepEqual(tc.want, object.Get(user[0].Map, "data", "v")), "%s\nResolve(...)", tc.reason)
		})
	}
}
