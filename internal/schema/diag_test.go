package schema

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
)

// TestDiagnostics: the errors of this package hand on one diagnostic per
// problem, with its file, line, field path and resource (issue 25.3: a
// schema error with several problems was one message-only KRM result).
func TestDiagnostics(t *testing.T) {
	defs := loadTestDefinitions(t)
	_, resErr := Resources("kafka", defs, resourcesYAML(t,
		`{apiVersion: kafka.kudorender.dev/v1, kind: Topic, metadata: {name: orders, namespace: data, annotations: {example.com/source: 'topics.yaml #2'}},
		  spec: {topicName: Orders, partitions: "6"}}`,
		`{apiVersion: kafka.kudorender.dev/v1, kind: Topic}`,
	), annotatedSource)
	_, schemaErr := Params(&bundle.Bundle{ParamsSchema: []byte(`{"properties": {"A": {"type": "integr"}, "B": {"minimum": "x"}}}`)})
	topic := &diag.Resource{APIVersion: "kafka.kudorender.dev/v1", Kind: "Topic", Namespace: "data", Name: "orders"}
	cases := map[string]struct {
		reason string
		err    error
		want   []*diag.Diagnostic
	}{
		"Resources": {
			reason: "A violation of a resource names the resource, the file of its source and the field; one without a name says which resource it is.",
			err:    resErr,
			want: []*diag.Diagnostic{
				{File: "topics.yaml", Field: "spec.partitions", Resource: topic, Msg: "got string, want integer"},
				{File: "topics.yaml", Field: "spec.topicName", Resource: topic, Msg: "'Orders' does not match pattern '^[a-z][a-z0-9.-]*$'"},
				{Field: "metadata", Msg: "resources[1]: is required (with a name)"},
				{Field: "spec.partitions", Msg: "resources[1]: is required"},
				{Field: "spec.topicName", Msg: "resources[1]: is required"},
			},
		},
		"Schema": {
			reason: "Every problem of a schema is a diagnostic of its own.",
			err:    schemaErr,
			want: []*diag.Diagnostic{
				{File: "params.schema.json", Field: "/properties/A/type", Msg: "is not a valid schema: 'anyOf' failed: (1) value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (2) got string, want array"},
				{File: "params.schema.json", Field: "/properties/B/minimum", Msg: "is not a valid schema: got string, want number"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, diag.From(tc.err)), "%s\ndiag.From(%v)", tc.reason, tc.err)
		})
	}
}

func TestFieldPath(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                      "",
		"/":                     "",
		"/NODE_COUNT":           "NODE_COUNT",
		"/spec/brokers/0/id":    "spec.brokers[0].id",
		"/metadata/labels/a~1b": "metadata.labels.a/b",
	} {
		if got := FieldPath(ptr); got != want {
			t.Errorf("FieldPath(%q) = %q, want %q", ptr, got, want)
		}
	}
}
