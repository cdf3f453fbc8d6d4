package graph_test

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/adapter/review/graph"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleMermaid() {
	cm := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cfg"}})
	job := object.New(map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": "migrate"}})
	in := graph.Input{
		Items: []engine.Item{
			{Obj: cm, Wave: 0, First: engine.StepRef{Instance: "shop", Plan: "deploy", Phase: "main", Step: "config"}},
			{Obj: job, Wave: 1, Hook: true, First: engine.StepRef{Instance: "shop", Plan: "deploy", Phase: "main", Step: "migrate"}},
		},
		Refs: []graph.Ref{{From: job, To: cm, Field: "spec.template.spec.containers[0].env[0].value"}},
	}
	m := graph.Mermaid(in, graph.Options{})
	for _, l := range strings.Split(m, "\n") {
		if strings.Contains(l, "subgraph") || strings.Contains(l, "->") || strings.Contains(l, "[[") {
			fmt.Println(strings.TrimSpace(l))
		}
	}
	// Output:
	// subgraph i931477fb["instance shop"]
	// subgraph w26b32446["wave 0"]
	// subgraph s2d824e45["deploy / main / config"]
	// subgraph wc0b7a68f["wave 1"]
	// subgraph sac8fa76f["deploy / main / migrate"]
	// o_Job__migrate_3d87d0[["Job<br/>migrate<br/>⟳ hook: runs once"]]
	// w26b32446 -.->|"then"| wc0b7a68f
	// o_Job__migrate_3d87d0 -->|"spec.template.spec.containers[0].env[0].value"| o_ConfigMap__cfg_937bd7
}
