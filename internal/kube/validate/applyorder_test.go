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

// TestApplyErrorsInKeyOrder: server-side apply stops reading a map at its
// first undeclared field and walks maps in Go's random order, so an object
// with several unknown fields got a different error from run to run (the
// fuzzer found it). The maps are walked in key order: the same words
// every run, the first unknown field in key order.
func TestApplyErrorsInKeyOrder(t *testing.T) {
	cases := []struct {
		reason, src, want string
	}{
		{
			reason: "two unknown top-level fields: the first in key order is named",
			src:    "apiVersion: apps/v1\nkind: Deployment\ntadta: {ame: web}\ne: {replicas: 2}\nmetadata: {name: web}\n",
			want:   "e: Invalid value",
		},
		{
			reason: "unknown fields of a container, around a duplicate env var whose error comes after the first of them in key order",
			src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n" +
				"    zz: 1\n    aa: 1\n    mm: 1\n    env: [{name: A, value: x}, {name: A, value: y}]\n",
			want: "spec.containers[0].aa: Invalid value",
		},
	}
	for _, tc := range cases {
		out, err := tmpl.Render("f.yaml", []byte(tc.src), nil)
		assert.NilError(t, err)
		docs, err := tmpl.Decode(out)
		assert.NilError(t, err)
		objs := []*object.Object{object.New(docs[0].Map)}
		var first []string
		for run := range 30 {
			var got []string
			for _, p := range validate.Objects(objs, validate.Options{})[0] {
				if strings.Contains(p.Error(), "server-side apply") {
					got = append(got, p.Error())
				}
			}
			if run == 0 {
				first = got
				assert.Assert(t, len(got) > 0, "%s: no server-side apply error", tc.reason)
				assert.Check(t, is.Contains(got[0], tc.want), tc.reason)
				continue
			}
			assert.Assert(t, is.DeepEqual(first, got), "%s: run %d differs from the first", tc.reason, run)
		}
	}
}
