package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
)

// refusedFields are the fields of the problems of an update, in order.
func refusedFields(t *testing.T, c updateCase) ([]string, string) {
	t.Helper()
	old, new := objects(t, c.old), objects(t, c.new)
	assert.Assert(t, is.Len(old, 1))
	assert.Assert(t, is.Len(new, 1))
	var fields, msgs []string
	for _, d := range validate.Update(old[0], new[0], validate.Options{}) {
		fields = append(fields, d.Field)
		msgs = append(msgs, d.Error())
	}
	return fields, strings.Join(msgs, "\n")
}

func TestUpdate(t *testing.T) {
	for _, c := range updateCases {
		t.Run(c.reason, func(t *testing.T) {
			got, msgs := refusedFields(t, c)
			if len(got) > 0 {
				t.Log(msgs)
			}
			assert.DeepEqual(t, got, c.refused)
		})
	}
}

// BenchmarkUpdate is the cost of one update's validation, which diff
// pays for every changed object.
func BenchmarkUpdate(b *testing.B) {
	for _, c := range []struct{ name, old, new string }{
		{"ConfigMap", edit(configMap, "immutable: true\n", ""), edit(configMap, "immutable: true\n", "", `nodes: "3"`, `nodes: "5"`)},
		{"StatefulSet", statefulSet, edit(statefulSet, "replicas: 3", "replicas: 5")},
		{"Job", job, edit(job, "echo 3 masters", "echo 4 masters")},
	} {
		b.Run(c.name, func(b *testing.B) {
			old, new := objects(b, c.old)[0], objects(b, c.new)[0]
			v := validate.New(nil, validate.Options{})
			for b.Loop() {
				v.Update(old, new)
			}
		})
	}
}
