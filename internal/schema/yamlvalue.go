package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// maxYAMLNodes bounds the values one YAML schema expands to (aliases can
// repeat a subtree many times).
const maxYAMLNodes = 1 << 18

// yamlConverter converts a YAML node into the JSON model (nil, bool,
// string, json.Number, []any, map[string]any), recording the line of every
// JSON pointer. Scalars follow their YAML 1.2 tag: !!int and !!float become
// numbers as written when the text is a JSON number (else their value),
// !!bool and !!null their value, anything else its text.
type yamlConverter struct {
	maxDepth int
	nodes    int
	lines    map[string]int
}

// convError is a conversion problem at a line and JSON pointer.
type convError struct {
	line int
	ptr  string
	msg  string
}

func (e *convError) Error() string { return fmt.Sprintf("line %d: %s: %s", e.line, e.ptr, e.msg) }

func (y *yamlConverter) value(n *yaml.Node, ptr string, depth int) (any, error) {
	y.nodes++
	if y.nodes > maxYAMLNodes {
		return nil, &convError{n.Line, ptr, fmt.Sprintf("expands to more than %d values (YAML aliases?)", maxYAMLNodes)}
	}
	if y.lines != nil {
		if _, ok := y.lines[ptr]; !ok {
			y.lines[ptr] = n.Line
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return y.value(n.Content[0], ptr, depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, &convError{n.Line, ptr, "unknown alias"}
		}
		return y.value(n.Alias, ptr, depth)
	case yaml.ScalarNode:
		return y.scalar(n, ptr)
	case yaml.SequenceNode:
		if depth >= y.maxDepth {
			return nil, &convError{n.Line, ptr, fmt.Sprintf("nested deeper than %d levels", y.maxDepth)}
		}
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			v, err := y.value(c, ptr+"/"+strconv.Itoa(i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		if depth >= y.maxDepth {
			return nil, &convError{n.Line, ptr, fmt.Sprintf("nested deeper than %d levels", y.maxDepth)}
		}
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode && k.Alias != nil {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, &convError{k.Line, ptr, "has a key that is not a scalar: JSON keys are strings"}
			}
			if k.ShortTag() == "!!merge" {
				return nil, &convError{k.Line, ptr, "YAML merge keys (<<) are not supported in schemas"}
			}
			if _, dup := out[k.Value]; dup {
				return nil, &convError{k.Line, ptr, fmt.Sprintf("has the key %q twice", k.Value)}
			}
			cptr := ptr + "/" + escapePtr(k.Value)
			if y.lines != nil {
				y.lines[cptr] = k.Line
			}
			cv, err := y.value(v, cptr, depth+1)
			if err != nil {
				return nil, err
			}
			out[k.Value] = cv
		}
		return out, nil
	}
	return nil, &convError{n.Line, ptr, "unsupported YAML node"}
}

func (y *yamlConverter) scalar(n *yaml.Node, ptr string) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &convError{n.Line, ptr, err.Error()}
		}
		return b, nil
	case "!!int", "!!float":
		if jsonNumberRE().MatchString(n.Value) {
			return json.Number(n.Value), nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, &convError{n.Line, ptr, err.Error()}
		}
		switch t := v.(type) {
		case int:
			return json.Number(strconv.Itoa(t)), nil
		case int64:
			return json.Number(strconv.FormatInt(t, 10)), nil
		case uint64:
			return json.Number(strconv.FormatUint(t, 10)), nil
		case float64:
			if math.IsNaN(t) || math.IsInf(t, 0) {
				return nil, &convError{n.Line, ptr, fmt.Sprintf("%s is not a JSON number", n.Value)}
			}
			return json.Number(strconv.FormatFloat(t, 'f', -1, 64)), nil
		}
		return n.Value, nil
	}
	return n.Value, nil
}
