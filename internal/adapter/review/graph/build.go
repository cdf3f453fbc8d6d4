package graph

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/redact"
	"github.com/kudo-render/kudo-render/internal/visible"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
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
	// sec holds the values copied out of Secrets; hidden numbers the
	// objects whose name holds one (object key -> node id).
	sec    *redact.Set
	hidden map[string]string
	// seq numbers the groups and counting nodes: their ids are short and
	// never shared.
	seq int
}

// next is a new id for a group or a counting node: the prefix and a
// number.
func (b *builder) next(prefix string) string {
	b.seq++
	return prefix + strconv.Itoa(b.seq)
}

// instanceGroup is an instance's group with its waves and steps.
type instanceGroup struct {
	*Group
	name   string
	parent string // key of the parent's group
	waves  map[int]*Group
	steps  map[string]*Group // wave/step -> group
	byStep map[string]*Group // step -> first group drawing it
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
		nodes: map[string]*Node{}, counts: map[string]map[string]int{}, lastWave: lastWave, sec: redact.New(), hidden: map[string]string{}}
	for _, v := range in.SecretValues {
		b.sec.AddCopied(v)
	}
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

// instanceKey identifies an instance by namespace and name; common/
// manifests (no instance) by their operator.
func instanceKey(ns, name, operator string) []string {
	if name == "" {
		return []string{operator}
	}
	return []string{ns, name}
}

// instance is the group of an instance, made on first use.
func (b *builder) instance(ns, name, parent, operator string) *instanceGroup {
	key := strings.Join(append([]string{name}, instanceKey(ns, name, operator)...), "\x00")
	if ig := b.instances[key]; ig != nil {
		return ig
	}
	label := "instance " + visible.Escape(name)
	if ns != "" {
		label = "instance " + visible.Escape(ns) + "/" + visible.Escape(name)
	}
	if operator != "" {
		label += " (operator " + visible.Escape(operator) + ")"
	}
	switch {
	case name == "":
		label = "common/ of " + visible.Escape(operator)
	case parent != "":
		label += ", dependency of " + visible.Escape(parent)
	}
	ig := &instanceGroup{Group: &Group{ID: b.next("i"), Label: label}, name: name,
		waves: map[int]*Group{}, steps: map[string]*Group{}, byStep: map[string]*Group{}}
	if parent != "" {
		ig.parent = strings.Join(append([]string{parent}, instanceKey(ns, parent, "")...), "\x00")
	}
	b.instances[key] = ig
	b.order = append(b.order, key)
	return ig
}

// step is the group of a step in a wave of an instance, made on first use.
func (b *builder) step(ig *instanceGroup, wave int, s engine.StepRef) *Group {
	w := ig.waves[wave]
	if w == nil {
		w = &Group{ID: b.next("w"), Label: waveLabel(wave)}
		ig.waves[wave] = w
	}
	if b.level == Waves || ig.name == "" {
		return w // common/ objects have no steps
	}
	name := strings.Join([]string{s.Plan, s.Phase, s.Step}, "\x00")
	key := strconv.Itoa(wave) + "\x00" + name
	g := ig.steps[key]
	if g == nil {
		g = &Group{ID: b.next("s"), Label: stepName(s)}
		ig.steps[key] = g
		w.Groups = append(w.Groups, g)
		if ig.byStep[name] == nil {
			ig.byStep[name] = g
		}
	}
	return g
}

// item adds an object of the render.
func (b *builder) item(it engine.Item) {
	ns, inst := it.First.Namespace, it.First.Instance
	if it.First.Plan == "" {
		ns, inst = "", ""
	}
	op := strings.TrimSpace(it.Meta.OperatorName + " " + it.Meta.OperatorVersion)
	ig := b.instance(ns, inst, it.Parent, op)
	s := b.step(ig, it.Wave, it.First)
	nid, label := b.object(it.Obj)
	// A template's Argo CD or Helm hook annotation makes a hook too.
	n := &Node{ID: nid, Label: label, Hook: it.Hook || argocd.Hooked(it.Obj)}
	if it.Toggle != nil {
		n.Toggle = visible.Escape(it.Toggle.Parameter) + "=true"
	}
	b.g.Objects++
	b.nodeOf[objectKey(it.Obj)] = b.place(s, n, it.Obj.Kind())
}

// object is the node id and label of an object; an object whose name or
// namespace holds a value copied out of a Secret is drawn hidden, its id
// a number in the order of the render.
func (b *builder) object(o *object.Object) (string, string) {
	if !b.sec.Hides(o.Name()) && !b.sec.Hides(o.Namespace()) {
		return objectID(o), objectLabel(o)
	}
	k := objectKey(o)
	if _, ok := b.hidden[k]; !ok {
		b.hidden[k] = id("h", strconv.Itoa(len(b.hidden)))
	}
	return b.hidden[k], visible.Escape(o.Kind()) + "\n" + redact.Hidden
}

// off adds the objects of a Toggle task that is off, in the group of its
// step when the step draws other objects.
func (b *builder) off(t engine.OffToggle) {
	ig := b.instance(t.Step.Namespace, t.Step.Instance, "", "")
	s := ig.byStep[strings.Join([]string{t.Step.Plan, t.Step.Phase, t.Step.Step}, "\x00")]
	if s == nil {
		s = b.step(ig, t.Wave, t.Step)
	}
	for _, o := range t.Objects {
		kind, name, _ := strings.Cut(o, "/")
		n := &Node{ID: id("off", t.Step.Namespace, t.Step.Instance, kind, name), Label: visible.Escape(kind) + "\n" + visible.Escape(name),
			Off: true, Toggle: visible.Escape(t.Parameter) + "=false"}
		b.place(s, n, kind)
	}
}

// place puts a node into a step group at the builder's level and returns
// the id of the node that stands for it.
func (b *builder) place(s *Group, n *Node, kind string) string {
	switch b.level {
	case Kinds:
		return b.count(s, s.ID+"\x00"+kind+"\x00"+strconv.FormatBool(n.Off), "k", n, visible.Escape(kind), kind)
	case Steps, Waves:
		return b.count(s, s.ID+"\x00"+strconv.FormatBool(n.Off), "n", n, s.Label, kind)
	}
	s.Nodes = append(s.Nodes, n)
	return n.ID
}

// count adds n to the counting node of group s that key names (made with
// an id of the prefix on first use) and returns its id.
func (b *builder) count(s *Group, key, prefix string, n *Node, title, kind string) string {
	c := b.nodes[key]
	if c == nil {
		c = &Node{ID: b.next(prefix), Label: title, Off: n.Off}
		b.nodes[key] = c
		b.counts[key] = map[string]int{}
		s.Nodes = append(s.Nodes, c)
	}
	b.counts[key][kind]++
	c.Hook = c.Hook || n.Hook
	if n.Toggle != "" && !strings.Contains(c.Toggle, n.Toggle) {
		c.Toggle = strings.TrimPrefix(c.Toggle+", "+n.Toggle, ", ")
	}
	return c.ID
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
