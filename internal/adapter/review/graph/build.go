package graph

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
)

// Detail is how much of a render is drawn.
type Detail int

// The levels of detail, finest first.
const (
	// Auto draws the finest level that stays within the limits (Mermaid).
	Auto Detail = iota
	// Objects draws every object.
	Objects
	// Kinds draws, in each step, one node per kind with its count.
	Kinds
	// Steps draws one node per step with its counts per kind.
	Steps
	// Waves draws one node per wave with its counts per kind.
	Waves
)

// ParseDetail reads auto, objects, kinds, steps or waves.
func ParseDetail(s string) (Detail, error) {
	for d, n := range detailNames {
		if n == s {
			return Detail(d), nil
		}
	}
	return 0, fmt.Errorf("%q: want auto, objects, kinds, steps or waves", s)
}

var detailNames = []string{"auto", "objects", "kinds", "steps", "waves"}

func (d Detail) String() string { return detailNames[d] }

// builder builds a Graph at one level of detail.
type builder struct {
	level     Detail
	g         *Graph
	instances map[string]*instanceGroup
	order     []string
	nodeOf    map[string]string // object key -> node id
	nodes     map[string]*Node  // node id -> node (collapsed levels)
	counts    map[string]map[string]int
	// lastWave: items of later waves are left out.
	lastWave int
}

// instanceGroup is an instance's group with its waves and steps.
type instanceGroup struct {
	*Group
	name, parent string
	waves        map[int]*Group
	steps        map[string]*Group // wave/step -> group
	byStep       map[string]*Group // step -> first group drawing it
}

// Build builds the graph of a render at one level of detail (Auto is
// Objects).
func Build(in Input, level Detail) *Graph {
	return build(in, level, math.MaxInt)
}

// build builds the graph of the waves up to lastWave.
func build(in Input, level Detail, lastWave int) *Graph {
	if level == Auto {
		level = Objects
	}
	b := &builder{level: level, g: &Graph{}, instances: map[string]*instanceGroup{}, nodeOf: map[string]string{},
		nodes: map[string]*Node{}, counts: map[string]map[string]int{}, lastWave: lastWave}
	for _, it := range in.Items {
		if it.Wave <= lastWave {
			b.item(it)
		}
	}
	for _, off := range in.Off {
		if off.Wave <= lastWave {
			b.off(off)
		}
	}
	b.finishCounts()
	b.nest()
	b.waveEdges()
	b.refEdges(in.Refs)
	return b.g
}

// instance is the group of an instance, made on first use.
func (b *builder) instance(name, parent, operator string) *instanceGroup {
	if ig := b.instances[name]; ig != nil {
		return ig
	}
	label := "instance " + name
	if operator != "" {
		label += " (operator " + operator + ")"
	}
	switch {
	case name == "":
		label = "common/ of " + operator
	case parent != "":
		label += ", dependency of " + parent
	}
	ig := &instanceGroup{Group: &Group{ID: gid("i", name, operator), Label: label}, name: name, parent: parent,
		waves: map[int]*Group{}, steps: map[string]*Group{}, byStep: map[string]*Group{}}
	b.instances[name] = ig
	b.order = append(b.order, name)
	return ig
}

// step is the group of a step in a wave of an instance, made on first use.
func (b *builder) step(ig *instanceGroup, wave int, step string) *Group {
	w := ig.waves[wave]
	if w == nil {
		w = &Group{ID: gid("w", ig.name, fmt.Sprint(wave)), Label: waveLabel(wave)}
		ig.waves[wave] = w
	}
	if b.level == Waves || ig.name == "" {
		return w // common/ objects have no steps
	}
	key := fmt.Sprint(wave) + "\x00" + step
	s := ig.steps[key]
	if s == nil {
		s = &Group{ID: gid("s", ig.name, fmt.Sprint(wave), step), Label: step}
		ig.steps[key] = s
		w.Groups = append(w.Groups, s)
		if ig.byStep[step] == nil {
			ig.byStep[step] = s
		}
	}
	return s
}

// item adds an object of the render.
func (b *builder) item(it engine.Item) {
	inst, step := it.First.Instance, stepName(it.First)
	if it.First.Plan == "" {
		inst, step = "", "common"
	}
	op := strings.TrimSpace(it.Meta.OperatorName + " " + it.Meta.OperatorVersion)
	ig := b.instance(inst, it.Parent, op)
	s := b.step(ig, it.Wave, step)
	n := &Node{ID: objectID(it.Obj), Label: objectLabel(it.Obj), Hook: it.Hook}
	if it.Toggle != nil {
		n.Toggle = it.Toggle.Parameter + "=true"
	}
	b.g.Objects++
	b.nodeOf[objectKey(it.Obj)] = b.place(s, n, it.Obj.Kind())
}

// off adds the objects of a Toggle task that is off, in the group of its
// step when the step draws other objects.
func (b *builder) off(t engine.OffToggle) {
	ig := b.instance(t.Step.Instance, "", "")
	step := stepName(t.Step)
	s := ig.byStep[step]
	if s == nil {
		s = b.step(ig, t.Wave, step)
	}
	for _, o := range t.Objects {
		kind, name, _ := strings.Cut(o, "/")
		n := &Node{ID: id("off", t.Step.Instance, kind, name), Label: kind + "\n" + name, Off: true, Toggle: t.Parameter + "=false"}
		b.place(s, n, kind)
	}
}

// place puts a node into a step group at the builder's level and returns
// the id of the node that stands for it.
func (b *builder) place(s *Group, n *Node, kind string) string {
	switch b.level {
	case Kinds:
		cid := gid("k", s.ID, kind, fmt.Sprint(n.Off))
		return b.count(s, cid, n, kind, kind)
	case Steps, Waves:
		cid := gid("n", s.ID, fmt.Sprint(n.Off))
		return b.count(s, cid, n, s.Label, kind)
	}
	s.Nodes = append(s.Nodes, n)
	return n.ID
}

// count adds n to the counting node cid of group s.
func (b *builder) count(s *Group, cid string, n *Node, title, kind string) string {
	c := b.nodes[cid]
	if c == nil {
		c = &Node{ID: cid, Label: title, Off: n.Off}
		b.nodes[cid] = c
		b.counts[cid] = map[string]int{}
		s.Nodes = append(s.Nodes, c)
	}
	b.counts[cid][kind]++
	c.Hook = c.Hook || n.Hook
	if n.Toggle != "" && !strings.Contains(c.Toggle, n.Toggle) {
		c.Toggle = strings.TrimPrefix(c.Toggle+", "+n.Toggle, ", ")
	}
	return cid
}

// finishCounts writes the counts into the labels of counting nodes.
func (b *builder) finishCounts() {
	for cid, kinds := range b.counts {
		c := b.nodes[cid]
		names := make([]string, 0, len(kinds))
		total := 0
		for k, n := range kinds {
			names = append(names, fmt.Sprintf("%d %s", n, k))
			total += n
		}
		sort.Strings(names)
		if b.level == Kinds {
			c.Label = fmt.Sprintf("%s ×%d", c.Label, total)
		} else {
			c.Label += "\n" + strings.Join(names, ", ")
		}
	}
}
