package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
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

// FuzzUpdate: whatever the two sides of an update are, its validation
// reports problems and never panics (Update's own recovery names a
// panic: that is a failure here too); the same update gives the same
// problems twice.
func FuzzUpdate(f *testing.F) {
	for _, c := range updateCases {
		f.Add(c.old, c.new)
	}
	f.Add(job, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: init, namespace: day2}\nspec: {selector: {matchExpressions: [{operator: In}]}, template: []}\n")
	f.Add(service, "apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: day2}\nspec: {type: ExternalName, clusterIPs: [a, b, c], ipFamilies: [IPv9]}\n")
	f.Fuzz(func(t *testing.T, oldSrc, newSrc string) {
		old, new := decoded(oldSrc), decoded(newSrc)
		if old == nil || new == nil {
			return
		}
		first := validate.Update(old, new, validate.Options{})
		second := validate.Update(old, new, validate.Options{})
		if len(first) != len(second) {
			t.Fatalf("%d problems, then %d", len(first), len(second))
		}
		for i := range first {
			if strings.Contains(first[i].Msg, "cannot be validated") {
				t.Fatalf("a panic: %s", first[i].Msg)
			}
			if first[i].Error() != second[i].Error() {
				t.Fatalf("%q, then %q", first[i].Error(), second[i].Error())
			}
		}
	})
}

// decoded is the first object of a template's text, nil when there is
// none.
func decoded(src string) *object.Object {
	out, err := tmpl.Render("f.yaml", []byte(src), nil)
	if err != nil {
		return nil
	}
	docs, err := tmpl.Decode(out)
	if err != nil || len(docs) == 0 {
		return nil
	}
	return object.New(docs[0].Map)
}
