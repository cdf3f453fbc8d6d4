package fn

import (
	"bytes"
	"errors"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/par"
)

// Items as kyaml's fn/framework reads them: the item's node, its header
// read from the node, decoded and marked as a node. The fast path's items
// (rlist.go) are texts instead; the function treats both alike.

// nodeItems are the items of a framework.ResourceList with their headers.
func nodeItems(nodes []*yaml.RNode) ([]*item, error) {
	items := make([]*item, len(nodes))
	for i, n := range nodes {
		h, err := headerOf(n.YNode())
		if err != nil {
			return nil, itemReadError(i, n.YNode().Line, err)
		}
		items[i] = &item{node: n, line: n.YNode().Line, header: h}
	}
	return items, nil
}

// headerOf reads the header of an item's node: scalars only, whatever
// their tags (see readHeader).
func headerOf(root *yaml.Node) (itemHeader, error) {
	if root == nil || root.Kind != yaml.MappingNode {
		return itemHeader{}, errNotMapping
	}
	md := child(root, "metadata")
	h := itemHeader{
		APIVersion: scalarOf(child(root, "apiVersion")), Kind: scalarOf(child(root, "kind")),
		Name: scalarOf(child(md, "name")), Namespace: scalarOf(child(md, "namespace")),
	}
	if ann := child(md, "annotations"); ann != nil && ann.Kind == yaml.MappingNode {
		h.Annotations = map[string]string{}
		for i := 0; i+1 < len(ann.Content); i += 2 {
			h.Annotations[ann.Content[i].Value] = scalarOf(ann.Content[i+1])
		}
	}
	return h, nil
}

var errNotMapping = errors.New("an item is not a mapping (a Kubernetes object)")

// mentions reports whether s occurs in a node below n: in a key, a value
// or a comment (what bytes.Contains finds in an item's text).
func mentions(n *yaml.Node, s string, depth int) bool {
	if n == nil || depth > 10_000 {
		return false
	}
	if strings.Contains(n.Value, s) || strings.Contains(n.HeadComment, s) ||
		strings.Contains(n.LineComment, s) || strings.Contains(n.FootComment, s) {
		return true
	}
	for _, c := range n.Content {
		if mentions(c, s, depth+1) {
			return true
		}
	}
	return false
}

// markNode returns a copy of an item's node with the annotation
// config.kubernetes.io/local-config: "true", placed where markLocalConfig
// puts its line: first in a block-style metadata.annotations, or an
// annotations key first in a block-style metadata without one (taking
// over the head comment of the key it goes above). Other layouts get the
// annotation set or appended.
func markNode(n *yaml.RNode) *yaml.RNode {
	c := n.Copy()
	root := c.YNode()
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "true", Style: yaml.DoubleQuotedStyle}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: AnnLocalConfig}
	md := child(root, "metadata")
	if md != nil && md.Kind == yaml.MappingNode && md.Style&yaml.FlowStyle == 0 && len(md.Content) > 0 {
		switch ann := child(md, "annotations"); {
		case ann == nil:
			annKey := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "annotations"}
			prepend(md, annKey, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, v}})
			return c
		case ann.Kind == yaml.MappingNode && ann.Style&yaml.FlowStyle == 0 && len(ann.Content) > 0 && child(ann, AnnLocalConfig) == nil:
			prepend(ann, k, v)
			return c
		}
	}
	setLocalConfigNode(root)
	return c
}

// prepend puts a key and its value first in mapping m; the first key's
// head comment moves above the new key, as a line inserted above it would
// read.
func prepend(m, key, value *yaml.Node) {
	first := m.Content[0]
	key.HeadComment, first.HeadComment = first.HeadComment, ""
	m.Content = append([]*yaml.Node{key, value}, m.Content...)
}

// encodeNode is the YAML text of a node as kyaml writes it (two-space
// indentation, compact sequences), standing alone: an item whose aliases
// refer to anchors of another item is written with them resolved.
func encodeNode(n *yaml.Node) ([]byte, error) {
	text, err := yaml.String(n)
	if err != nil {
		return nil, err
	}
	if !hasAlias(n, 0) {
		return []byte(text), nil
	}
	var probe yaml.Node
	if yaml.Unmarshal([]byte(text), &probe) == nil {
		return []byte(text), nil
	}
	var v any // it refers to anchors elsewhere: resolve them
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return yaml.Marshal(v)
}

func hasAlias(n *yaml.Node, depth int) bool {
	if n == nil || depth > 10_000 {
		return false
	}
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c, depth+1) {
			return true
		}
	}
	return false
}

// parseNodes parses the texts of encoded objects into nodes (on all
// cores): the items a framework.ResourceList holds for them.
func parseNodes(texts [][]byte) ([]*yaml.RNode, error) {
	nodes := make([]*yaml.RNode, len(texts))
	errs := make([]error, len(texts))
	par.Do(len(texts), func(i int) {
		var doc yaml.Node
		if errs[i] = yaml.NewDecoder(bytes.NewReader(texts[i])).Decode(&doc); errs[i] == nil {
			nodes[i] = yaml.NewRNode(doc.Content[0])
		}
	})
	return nodes, par.FirstError(errs)
}
