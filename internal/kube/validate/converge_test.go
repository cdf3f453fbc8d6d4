package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
)

func TestRecreatable(t *testing.T) {
	cases := []struct {
		reason string
		src    string
		want   bool
	}{
		{reason: "a Job must run again when its template changes", src: job, want: true},
		{reason: "a bare Pod is replaced", src: pod, want: true},
		{reason: "a role binding holds nothing", src: roleBinding, want: true},
		{reason: "an immutable ConfigMap can only be replaced", src: configMap, want: true},
		{reason: "a mutable ConfigMap is updated in place", src: edit(configMap, "immutable: true\n", "")},
		{reason: "a mutable Secret is updated in place", src: secret},
		{reason: "an immutable Secret can only be replaced", src: edit(secret, "type: Opaque", "type: Opaque\nimmutable: true"), want: true},
		{reason: "a StatefulSet runs pods and owns claims", src: statefulSet},
		{reason: "a Deployment runs pods", src: deploymentV1},
		{reason: "a claim holds data", src: claim},
		{reason: "a Service's address is known to its clients", src: service},
		{reason: "a StorageClass is left to the user", src: storageClass},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			assert.Equal(t, validate.Recreatable(objects(t, c.src)[0]), c.want)
		})
	}
}

func TestAdvice(t *testing.T) {
	cases := []struct {
		reason   string
		update   updateCase
		contains []string
	}{
		{reason: "a StatefulSet's claim templates: orphan it, then grow each claim by name",
			update: updateCases[indexOf("a StatefulSet's volume claim templates are immutable (disk size)")],
			contains: []string{"kubectl delete -n day2 statefulsets.apps zk --cascade=orphan", "the claims stay",
				`for i in 0 1 2; do kubectl patch pvc -n day2 data-zk-$i -p '{"spec":{"resources":{"requests":{"storage":"10Gi"}}}}'; done`}},
		{reason: "a StatefulSet's selector: the old pods are deleted one at a time",
			update:   updateCases[indexOf("a StatefulSet's selector is immutable")],
			contains: []string{"--cascade=orphan", "delete them one at a time"}},
		{reason: "a Deployment's selector: orphan it and remove the old ReplicaSet",
			update:   updateCases[indexOf("a Deployment's selector is immutable")],
			contains: []string{"kubectl delete -n day2 deployments.apps web --cascade=orphan", "ReplicaSet"}},
		{reason: "a claim is never deleted",
			update:   updateCases[indexOf("a claim's storage class is immutable")],
			contains: []string{"a claim is never deleted", "another name"}},
		{reason: "a Service: its address changes",
			update:   updateCases[indexOf("a Service made headless: its allocated cluster IP cannot change")],
			contains: []string{"kubectl delete -n day2 services db", "new cluster IP"}},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			old, new := objects(t, c.update.old)[0], objects(t, c.update.new)[0]
			problems := validate.Update(old, new, validate.Options{})
			assert.Assert(t, len(problems) > 0)
			got := validate.Advice(new, problems)
			for _, want := range c.contains {
				assert.Assert(t, strings.Contains(got, want), "advice %q lacks %q", got, want)
			}
		})
	}
}

func indexOf(reason string) int {
	for i, c := range updateCases {
		if c.reason == reason {
			return i
		}
	}
	panic("no update case " + reason)
}
