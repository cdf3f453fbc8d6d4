package schema

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// resourcesYAML decodes a YAML stream of resources as an adapter would.
func resourcesYAML(t *testing.T, docs ...string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range docs {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("test resource: %v", err)
		}
		out = append(out, m)
	}
	return out
}

// annotatedSource is a source function for tests: the annotation
// example.com/source.
func annotatedSource(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	s, _ := ann["example.com/source"].(string)
	return s
}

func TestResources(t *testing.T) {
	defs := loadTestDefinitions(t)
	type want struct {
		names      map[string][]string // slugPlural -> metadata.name, in order
		violations []Violation
	}
	cases := map[string]struct {
		reason    string
		resources []string
		want      want
	}{
		"Pass": {
			reason: "Valid resources of several definitions and versions are grouped by slugPlural and sorted by name; a definition without resources has an empty list.",
			resources: []string{
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: orders}, spec: {topicName: orders, partitions: 6, retention: P7D}}`,
				`{apiVersion: kafka.kudorender.dev/v2, kind: Topic, metadata: {name: audit, namespace: data}, spec: {topicName: audit}}`,
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: clicks, labels: {team: web}}, spec: {topicName: clicks, partitions: 1, config: {cleanup.policy: compact}}}`,
			},
			want: want{names: map[string][]string{"topics": {"audit", "clicks", "orders"}, "kafka-users": {}}},
		},
		"SeveralViolations": {
			reason: "Every violation of every resource is reported, with the resource, its source and the JSON pointer inside it.",
			resources: []string{
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: orders, annotations: {example.com/source: 'topics.yaml #2'}},
				  spec: {topicName: Orders, partitions: "6", retention: 7 days, extra: 1}}`,
				`{apiVersion: kafka.kudorender.dev/v1alpha1, kind: KafkaUser, metadata: {name: alice, namespace: data}, spec: {principal: al, email: alice}, status: {}}`,
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: Bad_Name, uid: x}}`,
				`{apiVersion: kafka.kudorender.dev/v2, kind: Topic, metadata: {name: scalar}, spec: orders}`,
			},
			want: want{violations: []Violation{
				{Resource: "KafkaUser/alice", Pointer: "/metadata/namespace", Message: "is not allowed: KafkaUser is cluster-scoped"},
				{Resource: "KafkaUser/alice", Pointer: "/spec/email", Message: "'alice' is not valid email: missing @"},
				{Resource: "KafkaUser/alice", Pointer: "/spec/principal", Message: "minLength: got 2, want 3"},
				{Resource: "KafkaUser/alice", Pointer: "/status", Message: "unknown field: a resource has apiVersion, kind, metadata and spec (its data goes below spec)"},
				{Resource: "Topic/Bad_Name", Pointer: "/metadata/name", Message: `"Bad_Name" is not a valid name: want at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit`},
				{Resource: "Topic/Bad_Name", Pointer: "/metadata/uid", Message: "unknown field: metadata has name, namespace, labels and annotations"},
				{Resource: "Topic/Bad_Name", Pointer: "/spec/partitions", Message: "is required"},
				{Resource: "Topic/Bad_Name", Pointer: "/spec/topicName", Message: "is required"},
				{Resource: "Topic/orders", Source: "topics.yaml #2", Pointer: "/spec/extra", Message: "is not allowed by the schema (additionalProperties)"},
				{Resource: "Topic/orders", Source: "topics.yaml #2", Pointer: "/spec/partitions", Message: "got string, want integer"},
				{Resource: "Topic/orders", Source: "topics.yaml #2", Pointer: "/spec/retention", Message: "'7 days' is not valid duration: must start with P"},
				{Resource: "Topic/orders", Source: "topics.yaml #2", Pointer: "/spec/topicName", Message: "'Orders' does not match pattern '^[a-z][a-z0-9.-]*$'"},
				{Resource: "Topic/scalar", Pointer: "/spec", Message: "must be a mapping (the resource's data, which the definition's schema describes)"},
			}},
		},
		"UnknownKindAndVersion": {
			reason: "An unknown kind or version in the framework's group, or another group, is an error.",
			resources: []string{
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topics, metadata: {name: a}}`,
				`{apiVersion: kafka.kudorender.dev/v3, kind: Topic, metadata: {name: b}}`,
				`{apiVersion: zookeeper.kudorender.dev/v1, kind: Topic, metadata: {name: c}}`,
				`{kind: Topic, metadata: {name: d}}`,
			},
			want: want{violations: []Violation{
				{Resource: "Topic/b", Pointer: "/apiVersion", Message: `"kafka.kudorender.dev/v3": framework kafka defines no resources of version "v3" (Topic is defined in v1, v2)`},
				{Resource: "Topic/c", Pointer: "/apiVersion", Message: `"zookeeper.kudorender.dev/v1" is not in the group of framework kafka: want kafka.kudorender.dev/<version>`},
				{Resource: "Topic/d", Pointer: "/apiVersion", Message: "is required (kafka.kudorender.dev/<version>)"},
				{Resource: "Topics/a", Pointer: "/kind", Message: `"Topics" is not a kind of kafka.kudorender.dev/v1 (kinds: Topic)`},
			}},
		},
		"UniqueViolation": {
			reason: "unique rejects two resources of one definition with equal values; nested paths work; absent fields are not compared; each version is its own definition.",
			resources: []string{
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: a}, spec: {topicName: orders, partitions: 1}}`,
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: b}, spec: {topicName: orders, partitions: 2}}`,
				`{apiVersion: kafka.kudorender.dev/v2, kind: Topic, metadata: {name: c}, spec: {topicName: orders}}`,
				`{apiVersion: kafka.kudorender.dev/v1alpha1, kind: KafkaUser, metadata: {name: u1}, spec: {principal: alice, quota: {clientId: app}}}`,
				`{apiVersion: kafka.kudorender.dev/v1alpha1, kind: KafkaUser, metadata: {name: u2}, spec: {principal: bob, quota: {clientId: app}}}`,
				`{apiVersion: kafka.kudorender.dev/v1alpha1, kind: KafkaUser, metadata: {name: u3}, spec: {principal: alice}}`,
				`{apiVersion: kafka.kudorender.dev/v1alpha1, kind: KafkaUser, metadata: {name: u4}, spec: {principal: dave}}`,
			},
			want: want{violations: []Violation{
				{Resource: "KafkaUser/u2", Pointer: "/spec/quota/clientId", Message: `"app" must be unique among kafka-users: KafkaUser/u1 has the same value`},
				{Resource: "KafkaUser/u3", Pointer: "/spec/principal", Message: `"alice" must be unique among kafka-users: KafkaUser/u1 has the same value`},
				{Resource: "Topic/b", Pointer: "/spec/topicName", Message: `"orders" must be unique among topics: Topic/a has the same value`},
			}},
		},
		"DuplicateNames": {
			reason: "metadata.name is unique per slugPlural and namespace, across versions.",
			resources: []string{
				`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: a}, spec: {topicName: x, partitions: 1}}`,
				`{apiVersion: kafka.kudorender.dev/v2, kind: Topic, metadata: {name: a}, spec: {topicName: y}}`,
				`{apiVersion: kafka.kudorender.dev/v2, kind: Topic, metadata: {name: a, namespace: other}, spec: {topicName: z}}`,
			},
			want: want{violations: []Violation{
				{Resource: "Topic/a", Pointer: "/metadata/name", Message: `topic "a" is declared twice (also kafka.kudorender.dev/v1)`},
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Resources("kafka", defs, resourcesYAML(t, tc.resources...), annotatedSource)
			assert.Check(t, is.DeepEqual(tc.want.violations, violationsOf(t, err)), "%s\nResources(...)", tc.reason)
			var names map[string][]string
			if got != nil {
				names = map[string][]string{}
				for slug, list := range got {
					names[slug] = []string{}
					for _, r := range list {
						names[slug] = append(names[slug], metaName(r.(map[string]any)))
					}
				}
			}
			assert.Check(t, is.DeepEqual(tc.want.names, names), "%s\nResources(...)", tc.reason)
		})
	}
}

func TestOwns(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    map[string]any
		want   bool
	}{
		"Own":       {reason: "The framework's group.", obj: map[string]any{"apiVersion": "kafka.kudorender.dev/v1"}, want: true},
		"Other":     {reason: "Another framework's group.", obj: map[string]any{"apiVersion": "zk.kudorender.dev/v1"}},
		"Core":      {reason: "A Kubernetes object.", obj: map[string]any{"apiVersion": "v1"}},
		"NoVersion": {reason: "A group without version is no apiVersion.", obj: map[string]any{"apiVersion": "kafka.kudorender.dev"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Owns("kafka", tc.obj); got != tc.want {
				t.Errorf("%s\nOwns(kafka, %v) = %v, want %v", tc.reason, tc.obj, got, tc.want)
			}
		})
	}
}

func TestEqualityKey(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   any
		equal  bool
	}{
		"NumbersAsWritten": {reason: "JSON Schema equality: 1, 1.0 and 1e0 are one number.", a: json.Number("1"), b: json.Number("1.0"), equal: true},
		"Exponent":         {reason: "1e0 is 1.", a: json.Number("1e0"), b: json.Number("1"), equal: true},
		"Different":        {reason: "1 and 1.5 differ.", a: json.Number("1"), b: json.Number("1.5")},
		"NumberNotString":  {reason: "A number never equals a string.", a: json.Number("1"), b: "1"},
		"Objects":          {reason: "Objects compare by content, not key order.", a: map[string]any{"a": json.Number("2"), "b": "x"}, b: map[string]any{"b": "x", "a": json.Number("2.00")}, equal: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ka, err := equalityKey(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			kb, err := equalityKey(tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if got := ka == kb; got != tc.equal {
				t.Errorf("%s\nequalityKey(%v) == equalityKey(%v): %v, want %v", tc.reason, tc.a, tc.b, got, tc.equal)
			}
		})
	}
}
