package strictyaml

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// Aliases make a few bytes of YAML stand for billions of values ("billion
// laughs": nested anchors, merge keys, aliases in flow collections).
// go-yaml's yaml.Node keeps an alias as one node, so parsing is cheap; the
// cost comes when something walks the nodes with aliases expanded:
// decoding them, checking their fields. go-yaml's own guard (the
// "excessive aliasing" ratio of decode.go) counts per decoder, and every
// UnmarshalYAML method starts a decoder of its own with its counts at
// zero, so a fan-out across types with such methods (operator.yaml's plans,
// phases and steps) never trips it; walks outside the decoder (checkFields,
// a node-to-value conversion) are not counted at all. CheckAliases counts
// the values of a document with aliases expanded, in time linear in its
// nodes, before any of that.

// AliasError is a document that holds more values than the limit with its
// aliases expanded; At is the alias (or, with no alias to blame, the
// node) where the count crossed the limit.
type AliasError struct {
	At    *yaml.Node
	Max   int64
	Cycle bool // At is an alias inside the node its anchor names
}

func (e *AliasError) Error() string {
	if e.Cycle {
		return fmt.Sprintf("alias *%s is inside the value of its own anchor", e.At.Value)
	}
	what := "the YAML (aliases expanded)"
	if e.At.Kind == yaml.AliasNode {
		what = fmt.Sprintf("alias *%s (aliases expanded)", e.At.Value)
	}
	return limits.Err("yaml-values", e.Max, what).Error()
}

// Unwrap gives errors.As the limit's error.
func (e *AliasError) Unwrap() error {
	if e.Cycle {
		return nil
	}
	return limits.Err("yaml-values", e.Max, "")
}

// CheckAliases counts the values decoding n makes (as the decoder of
// rendered templates counts them: every node but mapping keys, a merge
// key's value included, an alias as itself plus its anchor's value) and
// returns that count, or an *AliasError when it is over max. Memory and
// time are linear in the nodes of n, however far the aliases fan out.
func CheckAliases(n *yaml.Node, max int64) (int64, error) {
	c := &aliasCounter{max: max, sizes: map[*yaml.Node]int64{}}
	if err := c.walk(n); err != nil {
		return 0, err
	}
	return c.total, nil
}

type aliasCounter struct {
	max, total int64
	// sizes holds the expanded size of anchored nodes (saturated at
	// max+1); inProgress while the node is being counted.
	sizes map[*yaml.Node]int64
}

const inProgress = -1

// walk adds the values of n to total in document order, so the first
// alias that takes total over max is the one reported.
func (c *aliasCounter) walk(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	if c.total++; c.total > c.max {
		return &AliasError{At: n, Max: c.max}
	}
	if n.Kind == yaml.AliasNode {
		s, err := c.size(n.Alias, n)
		if err != nil {
			return err
		}
		if c.total += s; c.total > c.max {
			return &AliasError{At: n, Max: c.max}
		}
		return nil
	}
	return eachValue(n, c.walk)
}

// size is the number of values n expands to, saturated at max+1 and
// memoized for anchored nodes, the only ones aliases name (and so the
// only ones a cycle runs through). from is the alias that led here, for
// a cycle's message.
func (c *aliasCounter) size(n, from *yaml.Node) (int64, error) {
	if n == nil {
		return 0, nil
	}
	if n.Anchor != "" {
		if s, ok := c.sizes[n]; ok {
			if s == inProgress {
				return 0, &AliasError{At: from, Max: c.max, Cycle: true}
			}
			return s, nil
		}
		c.sizes[n] = inProgress
	}
	s := int64(1)
	var err error
	if n.Kind == yaml.AliasNode {
		var t int64
		t, err = c.size(n.Alias, n)
		s = min(s+t, c.max+1)
	} else {
		err = eachValue(n, func(v *yaml.Node) error {
			t, err := c.size(v, from)
			s = min(s+t, c.max+1)
			return err
		})
	}
	if err != nil {
		return 0, err
	}
	if n.Anchor != "" {
		c.sizes[n] = s
	}
	return s, nil
}

// eachValue calls f on the children of n that decode as values: the
// items of a sequence or document, the values of a mapping (a merge
// key's value included), not the keys.
func eachValue(n *yaml.Node, f func(*yaml.Node) error) error {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := f(n.Content[i]); err != nil {
				return err
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, ch := range n.Content {
			if err := f(ch); err != nil {
				return err
			}
		}
	}
	return nil
}
