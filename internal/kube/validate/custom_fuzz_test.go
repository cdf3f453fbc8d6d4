package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// FuzzCustomResources: whatever a Widget holds (the fuzzed text is its
// body after metadata), validating it against widgetCRD never fails
// inside Kubernetes' code (a panic becomes "cannot be validated"), gives
// the same problems twice, and leaves the rendered object as it was.
func FuzzCustomResources(f *testing.F) {
	for _, body := range []string{
		"spec: {size: 3}", "spec: {size: 3, colour: red}", "spec: {size: null}", "spec: {size: 3.0}", "spec: {name: null}",
		"spec: {ports: [{name: a, port: 1}, {name: a, port: 2}]}", "spec: {tags: [x, x]}", "spec: {port: 1.5}",
		"spec: {tpl: {apiVersion: v1, kind: ConfigMap, metadata: {name: x, foo: 1}}}", "spec: {}\nstatus: {replicas: foo}",
		"spec: {email: [x]}", "spec: {replicas: -1}", "spec: [1]", "spec: {free: {a: [null, {b: 1}]}}", "spec: {ports: [null]}",
	} {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		src := widgetCRD + "---\napiVersion: cr.example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\n" + body + "\n"
		out, err := tmpl.Render("f.yaml", []byte(src), nil)
		if err != nil {
			return
		}
		docs, err := tmpl.Decode(out)
		if err != nil || len(docs) != 2 {
			return
		}
		objs := []*object.Object{object.New(docs[0].Map), object.New(docs[1].Map)}
		before := objs[1].DeepCopy().Map
		first := validate.Objects(objs, validate.Options{})[1]
		second := validate.Objects(objs, validate.Options{})[1]
		assert.DeepEqual(t, before, objs[1].Map)
		assert.Equal(t, len(first), len(second))
		for i := range first {
			assert.Equal(t, first[i].Error(), second[i].Error())
			assert.Assert(t, !strings.Contains(first[i].Msg, "cannot be validated"), first[i].Error())
		}
	})
}
