package flux_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func TestDecorateForce(t *testing.T) {
	cases := []struct {
		reason string
		kind   string
		hook   bool
		want   bool
	}{
		{reason: "a Job a later step deletes", kind: "batch/v1 Job", hook: true, want: true},
		{reason: "a Job no plan deletes (redis' init): recreated when its template changes", kind: "batch/v1 Job", want: true},
		{reason: "a role binding whose role changes", kind: "rbac.authorization.k8s.io/v1 RoleBinding", want: true},
		{reason: "a StatefulSet is never recreated", kind: "apps/v1 StatefulSet"},
		{reason: "nor a claim", kind: "v1 PersistentVolumeClaim"},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			apiVersion, kind, _ := strings.Cut(c.kind, " ")
			it := engine.Item{Obj: object.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": "x"}}), Hook: c.hook}
			flux.Decorate([]engine.Item{it})
			assert.Equal(t, flux.Recreates(it.Obj) != "", c.want)
			assert.Equal(t, flux.Forced(it), c.want)
		})
	}
}
