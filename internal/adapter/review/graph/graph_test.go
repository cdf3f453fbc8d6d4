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

// TestIDsNeverCollide: ids are not hashes: two objects whose names were
// crafted offline to share the old 24-bit id (same text once replaced,
// same hash), objects of the same kind name in two API groups, and two
// instances of one name in two namespaces are all drawn apart.
func TestIDsNeverCollide(t *testing.T) {
	// These two names shared the id o_ConfigMap_ns_x_y_y_..._2a3ee6.
	a, b := obj("ConfigMap", "x-y-y.y.y.y.y-y.y-y.y.y.y.y.y.y.y"), obj("ConfigMap", "x-y.y-y.y.y.y.y.y.y.y-y.y.y.y.y.y")
	apps := object.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d", "namespace": "ns"}})
	other := object.New(map[string]any{"apiVersion": "example.com/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d", "namespace": "ns"}})
	step := func(ns string) engine.StepRef {
		return engine.StepRef{Namespace: ns, Instance: "kafka", Plan: "deploy", Phase: "p", Step: "s"}
	}
	in := Input{Items: []engine.Item{
		{Obj: a, First: step("a")}, {Obj: b, First: step("a")}, {Obj: apps, First: step("a")}, {Obj: other, First: step("b")},
	}}
	g := Build(in, Objects)
	ids := map[string]bool{}
	var walk func([]*Group)
	groups := 0
	walk = func(gs []*Group) {
		for _, gr := range gs {
			groups++
			if ids[gr.ID] {
				t.Errorf("group id %s used twice", gr.ID)
			}
			ids[gr.ID] = true
			for _, n := range gr.Nodes {
				if ids[n.ID] {
					t.Errorf("node id %s used twice", n.ID)
				}
				ids[n.ID] = true
			}
			walk(gr.Groups)
		}
	}
	walk(g.Groups)
	if len(ids) != 4+groups || len(g.Groups) != 2 {
		t.Errorf("want 4 nodes in two instances (a/kafka, b/kafka), got %d ids, %d instances", len(ids), len(g.Groups))
	}
	m := Mermaid(in, Options{})
	if !strings.Contains(m, "instance a/kafka") || !strings.Contains(m, "instance b/kafka") {
		t.Errorf("instances of one name in two namespaces are not told apart:\n%s", m)
	}
}

// TestLabelsCannotEscape: labels cannot carry Mermaid directives
// (%%{init}%%, read anywhere in the text), close the markdown fence
// around the graph (a backtick run or a carriage return), or write
// control characters to a terminal (DOT).
func TestLabelsCannotEscape(t *testing.T) {
	evil := "x%%{init: {\"securityLevel\": \"loose\"}}%%\r```\r# title\x1b]8;;https://evil.example\x1b\\"
	o := object.New(map[string]any{"apiVersion": "example.com/v1", "kind": "Widget" + evil, "metadata": map[string]any{"name": "w" + evil, "namespace": "ns"}})
	in := Input{Items: []engine.Item{{Obj: o, First: engine.StepRef{Instance: "i" + evil, Plan: "p" + evil, Phase: "ph", Step: "s"},
		Toggle: &engine.Toggle{Parameter: "T" + evil}}}, Refs: []Ref{{From: o, To: obj("Secret", "s"), Field: "spec." + evil}}}
	for _, d := range []Detail{Objects, Kinds, Steps} {
		m := Mermaid(in, Options{Detail: d})
		for _, bad := range []string{"%%{", "`", "\r", "\x1b"} {
			if strings.Contains(m, bad) {
				t.Errorf("%s: mermaid holds %q:\n%q", d, bad, m)
			}
		}
		if strings.Count(m, "%%") != 1 { // the comment of the first line
			t.Errorf("%s: a directive reached the text:\n%s", d, m)
		}
	}
	if dot := DOT(in, Options{}); strings.ContainsAny(dot, "\r\x1b") {
		t.Errorf("dot holds control characters:\n%q", dot)
	}
}

// TestTemplateHookDrawn: an object a template made an Argo CD hook is
// drawn as one (it runs once), like those kudo-render makes hooks.
func TestTemplateHookDrawn(t *testing.T) {
	o := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c",
		"annotations": map[string]any{"argocd.argoproj.io/hook": "PreSync"}}})
	m := Mermaid(Input{Items: []engine.Item{{Obj: o, First: engine.StepRef{Instance: "i", Plan: "p", Phase: "p", Step: "s"}}}}, Options{})
	if !strings.Contains(m, "⟳ hook: runs once") {
		t.Errorf("the hook is not drawn as one:\n%s", m)
	}
}

// TestSecretNamesHidden: an object whose name a reference copied out of a
// Secret is drawn with the name hidden, in every format and level.
func TestSecretNamesHidden(t *testing.T) {
	o := obj("ConfigMap", "hunter2hunter2")
	in := Input{Items: []engine.Item{{Obj: o, First: engine.StepRef{Instance: "i", Plan: "p", Phase: "p", Step: "s"}}},
		Refs:         []Ref{{From: obj("Job", "j"), To: o, Field: "x"}},
		SecretValues: []any{"hunter2hunter2"}}
	for _, out := range []string{Mermaid(in, Options{}), DOT(in, Options{}), Mermaid(in, Options{Detail: Kinds})} {
		if strings.Contains(out, "hunter2") {
			t.Errorf("the secret name is drawn:\n%s", out)
		}
	}
	if m := Mermaid(in, Options{}); !strings.Contains(m, "(secret value hidden)") {
		t.Errorf("the object is not drawn:\n%s", m)
	}
}
