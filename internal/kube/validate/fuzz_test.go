package validate_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// FuzzObjects: whatever a template renders, validation reports problems
// and never panics; the same objects give the same problems twice.
func FuzzObjects(f *testing.F) {
	for _, c := range agreeCases {
		f.Add(c.src)
	}
	f.Add(deployment)
	f.Add("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: {a: b}}], selector: [1]}\n")
	f.Add("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec: {template: [], volumeClaimTemplates: [{spec: {resources: {requests: {storage: -1}}}}]}\n")
	f.Add("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, labels: null}\nspec: {manualSelector: true, selector: {matchExpressions: [{operator: In}]}}\n")
	f.Fuzz(func(t *testing.T, src string) {
		out, err := tmpl.Render("f.yaml", []byte(src), nil)
		if err != nil {
			return
		}
		docs, err := tmpl.Decode(out)
		if err != nil {
			return
		}
		objs := make([]*object.Object, len(docs))
		for i, d := range docs {
			objs[i] = object.New(d.Map)
		}
		first := validate.Objects(objs, validate.Options{})
		second := validate.Objects(objs, validate.Options{})
		for i := range first {
			if len(first[i]) != len(second[i]) {
				t.Fatalf("object %d: %d problems, then %d", i, len(first[i]), len(second[i]))
			}
			for j := range first[i] {
				if first[i][j].Error() != second[i][j].Error() {
					t.Fatalf("object %d: %q, then %q", i, first[i][j].Error(), second[i][j].Error())
				}
			}
		}
	})
}
