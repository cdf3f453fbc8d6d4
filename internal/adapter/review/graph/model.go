package graph

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/visible"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Ref is a resolved getValueFrom reference: From reads Field of To.
type Ref struct {
	From, To *object.Object
	Field    string
}

// Input is what a render tells about itself.
type Input struct {
	Items []engine.Item
	// Off are the Toggle tasks whose parameter is false.
	Off []engine.OffToggle
	// Refs are the resolved references.
	Refs []Ref
	// SecretValues are the values references copied out of Secrets
	// (engine.Options.SecretCopy): names and labels that hold one are
	// drawn hidden.
	SecretValues []any
}

// Node is an object, or with a coarser Detail a count of objects.
type Node struct {
	ID, Label string
	// Hook: runs once. Off: not rendered (its Toggle is off). External:
	// read by a reference but not part of the render.
	Hook, Off, External bool
	// Toggle is the Toggle that controls the node: "PARAM=true".
	Toggle string
}

// Group is an instance, a wave or a step.
type Group struct {
	ID, Label string
	Groups    []*Group
	Nodes     []*Node
}

// Edge links two nodes (a reference) or two waves (their order).
type Edge struct {
	From, To, Label string
	// Order links consecutive waves; Same links waves applied together.
	Order, Same bool
}

// Graph is a render ready to draw.
type Graph struct {
	Groups []*Group
	Edges  []Edge
	// Note says what was collapsed and why ("" when nothing was).
	Note string
	// Objects is the number of objects drawn or counted.
	Objects int
}

// id is the Mermaid- and DOT-safe id of an object's node, [A-Za-z0-9_]
// only: a prefix, then each part, "__" between them, empty parts at the
// end left out. Letters and digits are kept and every other byte is
// written as "_" and two hex digits, so "__" never occurs inside a part
// and, as every prefix is used with one number of parts, two different
// lists of parts never share an id (no hash that names could be crafted
// to collide with: an object drawn over another would vanish from the
// picture). Groups and counting nodes are numbered instead (i1, w2, s3,
// k4, n5, x6: a letter and digits, never "__").
func id(prefix string, parts ...string) string {
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range parts {
		b.WriteString("__")
		for i := 0; i < len(p); i++ {
			if c := p[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				b.WriteByte(c)
			} else {
				b.WriteString("_" + hex.EncodeToString([]byte{c}))
			}
		}
	}
	return b.String()
}

// objectID is the stable id of an object's node: its kind, namespace,
// name and API group.
func objectID(o *object.Object) string {
	return id("o", o.Kind(), o.Namespace(), o.Name(), o.Group())
}

// objectKey identifies an object (group, kind, namespace, name).
func objectKey(o *object.Object) string {
	return strings.Join([]string{o.Group(), o.Kind(), o.Namespace(), o.Name()}, "\x00")
}

// objectLabel is "Kind" over "namespace/name".
func objectLabel(o *object.Object) string {
	n := visible.Escape(o.Name())
	if o.Namespace() != "" {
		n = visible.Escape(o.Namespace()) + "/" + n
	}
	return visible.Escape(o.Kind()) + "\n" + n
}

// stepName is plan/phase/step.
func stepName(s engine.StepRef) string {
	return visible.Escape(s.Plan) + " / " + visible.Escape(s.Phase) + " / " + visible.Escape(s.Step)
}

func waveLabel(w int) string {
	if w < 0 {
		return "common (before every wave)"
	}
	return fmt.Sprintf("wave %d", w)
}

// sortedWaves are the keys of m in ascending order.
func sortedWaves[T any](m map[int]T) []int {
	ws := make([]int, 0, len(m))
	for w := range m {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	return ws
}
