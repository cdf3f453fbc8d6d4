package diff

import (
	"fmt"
	"strings"

	"github.com/gonvenience/ytbx"
	"github.com/homeport/dyff/pkg/dyff"
	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Op says how a field changed.
type Op string

// The ways a field changes.
const (
	OpAdded     Op = "added"
	OpRemoved   Op = "removed"
	OpChanged   Op = "changed"
	OpReordered Op = "reordered"
)

// Change is one field that differs, as a Differ sees it: raw values,
// nothing masked yet.
type Change struct {
	Path Path
	Op   Op
	// From and To are the values as YAML ("" when absent).
	From, To string
	// Text is set when both values are strings (From and To then hold
	// the strings themselves), so long texts can be shown line by line.
	Text bool
}

// Differ compares two versions of one object field by field. Changes
// come in a deterministic order; maps added or removed whole are given
// key by key (down to values that are not maps), so every change can be
// hidden or masked on its own.
type Differ interface {
	Changes(from, to *object.Object) ([]Change, error)
}

// Dyff is the default Differ, github.com/homeport/dyff: it finds list
// entries by their identifying field (name, key, id) and reports order
// changes of lists.
type Dyff struct{}

// Changes implements Differ. Objects with a list longer than
// maxDyffItems are compared by Simple.
func (Dyff) Changes(from, to *object.Object) ([]Change, error) {
	if longestList(from.Map) > maxDyffItems || longestList(to.Map) > maxDyffItems {
		return Simple{}.Changes(from, to)
	}
	a, err := node(from)
	if err != nil {
		return nil, err
	}
	b, err := node(to)
	if err != nil {
		return nil, err
	}
	rep, err := dyff.CompareInputFiles(ytbx.InputFile{Documents: []*yamlv3.Node{a}}, ytbx.InputFile{Documents: []*yamlv3.Node{b}},
		dyff.KubernetesEntityDetection(false))
	if err != nil {
		return nil, fmt.Errorf("cannot compare %s: %w", from.Key(), err)
	}
	var out []Change
	for _, d := range rep.Diffs {
		p := fromYtbx(d.Path)
		for _, det := range d.Details {
			out = append(out, details(p, det)...)
		}
	}
	return out, nil
}

// node is an object as a YAML document node.
func node(o *object.Object) (*yamlv3.Node, error) {
	data, err := o.Marshal()
	if err != nil {
		return nil, err
	}
	var n yamlv3.Node
	if err := yamlv3.Unmarshal(data, &n); err != nil {
		return nil, fmt.Errorf("cannot read %s back: %w", o.Key(), err)
	}
	return &n, nil
}

func fromYtbx(p *ytbx.Path) Path {
	if p == nil {
		return nil
	}
	out := make(Path, 0, len(p.PathElements))
	for _, e := range p.PathElements {
		switch {
		case e.Name != "" && e.Key == "":
			out = append(out, Elem{Key: e.Name})
		case e.Name != "":
			out = append(out, Elem{Match: e.Key + "=" + e.Name})
		default:
			out = append(out, Elem{Index: e.Idx})
		}
	}
	return out
}

// details turns one dyff detail into changes, maps added or removed
// whole spread key by key.
func details(p Path, d dyff.Detail) []Change {
	switch d.Kind {
	case dyff.ADDITION:
		return spread(p, d.To, OpAdded)
	case dyff.REMOVAL:
		return spread(p, d.From, OpRemoved)
	case dyff.ORDERCHANGE:
		return []Change{{Path: p, Op: OpReordered, From: text(d.From), To: text(d.To)}}
	default:
		c := Change{Path: p, Op: OpChanged, From: text(d.From), To: text(d.To)}
		if isString(d.From) && isString(d.To) {
			c.From, c.To, c.Text = d.From.Value, d.To.Value, true
		}
		return []Change{c}
	}
}

// spread gives an added or removed map's entries one by one; anything
// else is one change. dyff reports additions to a map as a map of the
// added keys, and additions to a list as a list of the added entries.
func spread(p Path, n *yamlv3.Node, op Op) []Change {
	if n == nil {
		return nil
	}
	if n.Kind == yamlv3.MappingNode {
		var out []Change
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := append(append(Path{}, p...), Elem{Key: n.Content[i].Value})
			out = append(out, spread(k, n.Content[i+1], op)...)
		}
		return out
	}
	c := Change{Path: p, Op: op}
	if op == OpAdded {
		c.To = text(n)
	} else {
		c.From = text(n)
	}
	if isString(n) {
		c.Text = true
		if op == OpAdded {
			c.To = n.Value
		} else {
			c.From = n.Value
		}
	}
	return []Change{c}
}

func isString(n *yamlv3.Node) bool {
	return n != nil && n.Kind == yamlv3.ScalarNode && n.Tag == "!!str"
}

// text is a node as YAML, without the final newline.
func text(n *yamlv3.Node) string {
	if n == nil {
		return ""
	}
	data, err := yamlv3.Marshal(n)
	if err != nil {
		return n.Value
	}
	return strings.TrimSuffix(string(data), "\n")
}
