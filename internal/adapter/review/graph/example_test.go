package graph_test

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/adapter/review/graph"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleMermaid() {
	cm := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cfg", "namespace": "prod"}})
	job := object.New(map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": "migrate", "namespace": "prod"}})
	in := graph.Input{
		Items: []engine.Item{
			{Obj: cm, Wave: 0, First: engine.StepRef{Namespace: "prod", Instance: "shop", Plan: "deploy", Phase: "main", Step: "config"}},
			{Obj: job, Wave: 1, Hook: true, First: engine.StepRef{Namespace: "prod", Instance: "shop", Plan: "deploy", Phase: "main", Step: "migrate"}},
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
	// subgraph i1["instance prod/shop"]
	// subgraph w2["wave 0"]
	// subgraph s3["deploy / main / config"]
	// subgraph w4["wave 1"]
	// subgraph s5["deploy / main / migrate"]
	// o__Job__prod__migrate__batch[["Job<br/>prod/migrate<br/>⟳ hook: runs once"]]
	// w2 -.->|"then"| w4
	// o__Job__prod__migrate__batch -->|"spec.template.spec.containers[0].env[0].value"| o__ConfigMap__prod__cfg
}
