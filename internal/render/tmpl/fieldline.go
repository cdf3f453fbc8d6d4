package tmpl

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FieldLine returns a function that finds the template line of a field of
// the doc-th object of the output (counted as Decode counts them): the
// line of the deepest part of the field path that the rendered YAML
// holds, so a field the API server defaults is placed at its nearest
// written parent. It decodes the output again on each call: it serves
// error messages, not renders. The path is dotted with subscripts
// ("spec.ports[0].port", "limits[cpu]") or a JSON pointer ("/spec/x").
func (o *Output) FieldLine(doc int) func(path string) int {
	return func(path string) int {
		root := o.document(doc)
		if root == nil {
			return 0
		}
		line := root.Line
		n := root
		for _, seg := range splitPath(path) {
			next, at := child(n, seg)
			if next == nil {
				break
			}
			n, line = next, at
		}
		return o.SourceLine(line)
	}
}

// document returns the root node of the doc-th non-empty document.
func (o *Output) document(doc int) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(o.Text))
	for i := 0; ; {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) || err != nil {
			return nil
		}
		if len(n.Content) == 0 {
			continue
		}
		root := n.Content[0]
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			continue
		}
		if i == doc {
			return root
		}
		i++
	}
}

// child returns the node at seg below n and the line the field is
// written on (a mapping key's line), or nil.
func child(n *yaml.Node, seg string) (*yaml.Node, int) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				return n.Content[i+1], n.Content[i].Line
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i], n.Content[i].Line
		}
	}
	return nil, 0
}

// splitPath splits a dotted field path with subscripts, or a JSON
// pointer, into its segments.
func splitPath(path string) []string {
	if strings.HasPrefix(path, "/") {
		parts := strings.Split(path[1:], "/")
		for i, p := range parts {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
		}
		return parts
	}
	var out []string
	for path != "" {
		switch {
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(out, path[1:])
			}
			out = append(out, path[1:end])
			path = path[end+1:]
		case path[0] == '.':
			path = path[1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, path[:end])
			path = path[end:]
		}
	}
	return out
}
