package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func obj(kind, name string) *object.Object {
	return object.New(map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name, "namespace": "ns"}})
}

// big is a render of n objects over steps steps, each object reading the
// one before it.
func big(n, steps int) Input { return bigWaves(n, steps, steps) }

// bigWaves is big with the steps spread over waves waves.
func bigWaves(n, steps, waves int) Input {
	var in Input
	for i := range n {
		s := i * steps / n
		kind := []string{"ConfigMap", "Service", "Deployment"}[i%3]
		in.Items = append(in.Items, engine.Item{Obj: obj(kind, fmt.Sprintf("obj-%04d", i)), Wave: s * waves / steps,
			First: engine.StepRef{Instance: "inst", Plan: "deploy", Phase: "main", Step: fmt.Sprintf("step-%03d", s)}})
		if i > 0 {
			in.Refs = append(in.Refs, Ref{From: in.Items[i].Obj, To: in.Items[i-1].Obj, Field: "data.x"})
		}
	}
	return in
}

func TestMermaidStaysWithinLimits(t *testing.T) {
	cases := []struct {
		reason      string
		in          Input
		wantNote    string
		wantObjects bool
	}{
		{reason: "a small render is drawn object by object", in: big(20, 4), wantObjects: true},
		{reason: "too many objects are counted per kind in each step", in: big(2000, 40), wantNote: "Collapsed to counts per kind in each step: 2000 objects"},
		{reason: "too many steps for counts per kind: one node per step", in: bigWaves(3000, 200, 20), wantNote: "Collapsed to one node per step: 3000 objects"},
		{reason: "too many waves: the first waves, one node each, and the picture says how many", in: big(3000, 600), wantNote: "of 600 waves are drawn"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			m := Mermaid(tc.in, Options{})
			if len(m) > MermaidMaxChars {
				t.Errorf("%d characters, over %d", len(m), MermaidMaxChars)
			}
			if edges := strings.Count(m, "-->") + strings.Count(m, "-.->") + strings.Count(m, "~~~"); edges > MermaidMaxEdges {
				t.Errorf("%d edges, over %d", edges, MermaidMaxEdges)
			}
			if tc.wantNote != "" && !strings.Contains(m, tc.wantNote) {
				t.Errorf("the picture does not say it was collapsed (%q)", tc.wantNote)
			}
			if tc.wantObjects != strings.Contains(m, "obj-0001") || tc.wantObjects == strings.Contains(m, "Collapsed") {
				t.Errorf("objects drawn = %t, want %t", strings.Contains(m, "obj-0001"), tc.wantObjects)
			}
			if again := Mermaid(tc.in, Options{}); again != m {
				t.Error("two drawings of one render differ")
			}
		})
	}
}

// TestDOTDrawsEveryObject: Graphviz has no such limits.
func TestDOTDrawsEveryObject(t *testing.T) {
	d := DOT(big(2000, 40), Options{})
	if n := strings.Count(d, `label="ConfigMap\nns/obj-`) + strings.Count(d, `label="Service\nns/obj-`) + strings.Count(d, `label="Deployment\nns/obj-`); n != 2000 {
		t.Errorf("%d objects drawn, want 2000", n)
	}
}

// TestIDsStable: an object's node id depends on its kind, namespace and
// name only, so adding objects does not rename the others.
func TestIDsStable(t *testing.T) {
	a := Build(big(10, 2), Objects)
	b := Build(big(30, 5), Objects)
	ids := func(g *Graph) map[string]bool {
		m := map[string]bool{}
		var walk func([]*Group)
		walk = func(gs []*Group) {
			for _, gr := range gs {
				for _, n := range gr.Nodes {
					m[n.ID] = true
				}
				walk(gr.Groups)
			}
		}
		walk(g.Groups)
		return m
	}
	bi := ids(b)
	for id := range ids(a) {
		if !bi[id] {
			t.Errorf("node %s renamed when objects were added", id)
		}
	}
	if objectID(obj("ConfigMap", "a-b")) == objectID(obj("ConfigMap", "a.b")) {
		t.Error("names differing only in replaced characters share an id")
	}
}

// TestLabelsQuoted: text from a package cannot break out of a label.
func TestLabelsQuoted(t *testing.T) {
	in := Input{Items: []engine.Item{{Obj: obj("ConfigMap", "x"),
		First: engine.StepRef{Instance: "i", Plan: `p"]; click x call alert()`, Phase: "<b>#1</b>", Step: "s\nnext"}}}}
	m := Mermaid(in, Options{})
	for _, bad := range []string{`p"]`, "<b>", "\nnext"} {
		if strings.Contains(m, bad) {
			t.Errorf("mermaid: %q unescaped:\n%s", bad, m)
		}
	}
	d := DOT(in, Options{})
	if strings.Contains(d, `p"]`) || !strings.Contains(d, `p\"]`) {
		t.Errorf("dot: quote not escaped:\n%s", d)
	}
}

// TestMarks: hooks, toggles on and off, dependencies and references.
func TestMarks(t *testing.T) {
	job, cm, svc := obj("Job", "migrate"), obj("ConfigMap", "cfg"), obj("Service", "metrics")
	in := Input{
		Items: []engine.Item{
			{Obj: cm, Wave: 0, First: engine.StepRef{Instance: "dep", Plan: "deploy", Phase: "p", Step: "s"}, Parent: "top"},
			{Obj: job, Wave: 1, Hook: true, First: engine.StepRef{Instance: "top", Plan: "deploy", Phase: "p", Step: "migrate"}},
			{Obj: svc, Wave: 2, Toggle: &engine.Toggle{Task: "metrics", Parameter: "METRICS"}, First: engine.StepRef{Instance: "top", Plan: "deploy", Phase: "p", Step: "metrics"}},
		},
		Off:  []engine.OffToggle{{Step: engine.StepRef{Instance: "top", Plan: "deploy", Phase: "p", Step: "debug"}, Wave: 3, Parameter: "DEBUG", Objects: []string{"ConfigMap/debug"}}},
		Refs: []Ref{{From: job, To: cm, Field: "spec.x"}, {From: job, To: obj("Secret", "outside"), Field: "spec.y"}},
	}
	m := Mermaid(in, Options{})
	for _, want := range []string{
		`[["Job<br/>ns/migrate<br/>⟳ hook: runs once"]]`,
		"toggle METRICS=true", "toggle DEBUG=false: not rendered",
		"instance dep, dependency of top",
		objectID(job) + ` -->|"spec.x"| ` + objectID(cm),
		`read, not rendered here`,
		`-.->|"then"|`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("missing %q in\n%s", want, m)
		}
	}
	// The dependency's group is nested in its parent's, before its waves.
	top, dep := strings.Index(m, "instance top"), strings.Index(m, "instance dep")
	if top < 0 || dep < top || strings.Index(m, `"wave 1"`) < dep {
		t.Errorf("dependency not nested first in its parent:\n%s", m)
	}
}
