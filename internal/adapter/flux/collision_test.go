package flux

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestCollisionRefused: two steps that get one Kustomization name (here
// with a hash made to collide) are refused, never merged into one
// Kustomization whose objects would be applied in one wave.
func TestCollisionRefused(t *testing.T) {
	defer func(h func(string) string) { nameHash = h }(nameHash)
	nameHash = func(string) string { return "0000000000000000" }
	obj := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}})
	items := []engine.Item{
		{Obj: obj, Wave: 0, First: engine.StepRef{Instance: "kafka", Plan: "deploy", Phase: "main", Step: "a.b"}},
		{Obj: obj, Wave: 1, First: engine.StepRef{Instance: "kafka", Plan: "deploy", Phase: "main", Step: "a_b"}},
	}
	_, err := Layout(items, Options{Name: "kafka"})
	if err == nil || !strings.Contains(err.Error(), `"/kafka deploy/main/a.b" and "/kafka deploy/main/a_b" get the same Kustomization name`) {
		t.Fatalf("want the collision refused, got %v", err)
	}
}
