package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
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

// id is a Mermaid- and DOT-safe id: a prefix, the readable parts, and a
// short hash of the exact parts (so ids differing only in characters that
// are replaced stay distinct).
func id(prefix string, parts ...string) string {
	exact := strings.Join(parts, "\x00")
	sum := sha256.Sum256([]byte(exact))
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range parts {
		b.WriteByte('_')
		for _, c := range p {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				b.WriteRune(c)
			} else {
				b.WriteByte('_')
			}
		}
	}
	return b.String() + "_" + hex.EncodeToString(sum[:3])
}

// gid is the short id of a group or a counting node: a prefix and a hash
// of the exact parts.
func gid(prefix string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return prefix + hex.EncodeToString(sum[:4])
}

// objectID is the stable id of an object's node.
func objectID(o *object.Object) string {
	return id("o", o.Kind(), o.Namespace(), o.Name())
}

// objectKey identifies an object (group, kind, namespace, name).
func objectKey(o *object.Object) string {
	return o.Group() + "/" + o.Kind() + "/" + o.Namespace() + "/" + o.Name()
}

// objectLabel is "Kind" over "namespace/name".
func objectLabel(o *object.Object) string {
	n := o.Name()
	if o.Namespace() != "" {
		n = o.Namespace() + "/" + n
	}
	return o.Kind() + "\n" + n
}

// stepName is plan/phase/step.
func stepName(s engine.StepRef) string {
	return s.Plan + " / " + s.Phase + " / " + s.Step
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
