package fn

import (
	"bytes"
	"errors"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/postprocess/refs"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// AnnLocalConfig marks an object that kpt and kustomize keep in the
// package but never apply (nor kustomize build outputs). The function
// sets it to "true" on the input items it consumes (see [Function]).
const AnnLocalConfig = "config.kubernetes.io/local-config"

// isInstance reports whether an item is a kudo.dev/v1beta1 Instance.
func (it *item) isInstance() bool {
	return it.header.APIVersion == "kudo.dev/v1beta1" && it.header.Kind == "Instance"
}

// isComposable reports whether an item is a Composable (any version of
// its API: another version fails when it is expanded).
func (it *item) isComposable() bool {
	return it.header.Kind == refs.ComposableKind && strings.HasPrefix(it.header.APIVersion, refs.ComposableGroup+"/")
}

// composableOwner is the owner marker of the object a Composable item
// generates: its group, kind, namespace and name (four segments, never a
// render's framework/namespace/instance).
func composableOwner(h itemHeader) string {
	return refs.ComposableGroup + "/" + refs.ComposableKind + "/" + h.Namespace + "/" + h.Name
}

// markSources returns the items that isSource selects and that are not
// marked local-config yet, marked (on all cores). The other items are not
// in the map: they are written as they were read.
func markSources(items []*item, isSource func(*item) bool) (map[*item]*item, error) {
	var todo []*item
	for _, it := range items {
		if isSource(it) && it.header.Annotations[AnnLocalConfig] != "true" {
			todo = append(todo, it)
		}
	}
	marked := make([]*item, len(todo))
	errs := make([]error, len(todo))
	par.Do(len(todo), func(i int) {
		marked[i], errs[i] = todo[i].marked()
		if errs[i] != nil {
			errs[i] = &itemError{item: todo[i], err: errs[i]}
		}
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	out := make(map[*item]*item, len(todo))
	for i, it := range todo {
		out[it] = marked[i]
	}
	return out, nil
}

// marked returns the item with the annotation
// config.kubernetes.io/local-config: "true": its node marked
// ([markNode]), or its text ([markLocalConfig]).
func (it *item) marked() (*item, error) {
	m := *it
	if it.node != nil {
		m.node = markNode(it.node)
		return &m, nil
	}
	text, err := markLocalConfig(it.text)
	if err != nil {
		return nil, err
	}
	m.text = text
	return &m, nil
}

// markLocalConfig returns an object's YAML text with the annotation
// config.kubernetes.io/local-config: "true" and nothing else changed. A
// block-style metadata gets one line (two without annotations) inserted
// above its first key, so comments, order, quoting and the orchestrator's
// path and index annotations stay as written; other layouts are edited
// as YAML nodes and encoded again. Either way the result decodes to the
// object plus the annotation (checked).
func markLocalConfig(text []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	var want map[string]any
	if err := doc.Decode(&want); err != nil {
		return nil, err
	}
	if want == nil || len(doc.Content) == 0 {
		return nil, errors.New("an item is empty")
	}
	setLocalConfig(want)
	root := doc.Content[0]
	if edited, ok := insertLocalConfig(text, root); ok && decodesTo(edited, want) {
		return edited, nil
	}
	if setLocalConfigNode(root) {
		strictyaml.SpellNulls(root)
		if edited, err := yaml.Marshal(root); err == nil && decodesTo(edited, want) {
			return edited, nil
		}
	}
	return yaml.Marshal(want) // aliases in metadata: the decoded object
}

func decodesTo(text []byte, want map[string]any) bool {
	var got map[string]any
	return yaml.Unmarshal(text, &got) == nil && reflect.DeepEqual(got, want)
}

// setLocalConfig sets the annotation on a decoded object.
func setLocalConfig(m map[string]any) {
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		m["metadata"] = md
	}
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann[AnnLocalConfig] = "true"
}

// insertLocalConfig inserts the annotation as a line of text above the
// first key of a block-style metadata.annotations, or an annotations key
// with it above the first key of a block-style metadata without one.
func insertLocalConfig(text []byte, root *yaml.Node) ([]byte, bool) {
	md := child(root, "metadata")
	if md == nil || md.Kind != yaml.MappingNode || md.Style&yaml.FlowStyle != 0 || len(md.Content) == 0 {
		return nil, false
	}
	entry := AnnLocalConfig + `: "true"`
	at := md.Content[0]
	var add []string
	switch ann := child(md, "annotations"); {
	case ann == nil:
		add = []string{"annotations:", "  " + entry}
	case ann.Kind == yaml.MappingNode && ann.Style&yaml.FlowStyle == 0 && len(ann.Content) > 0 && child(ann, AnnLocalConfig) == nil:
		at, add = ann.Content[0], []string{entry}
	default:
		return nil, false
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	row, col := at.Line-1, at.Column-1
	if row < 0 || row >= len(lines) || col < 0 || len(lines[row]) < col || len(bytes.TrimLeft(lines[row][:col], " ")) > 0 {
		return nil, false // the key does not start its line
	}
	var b bytes.Buffer
	b.Grow(len(text) + len(entry) + 32)
	for i, l := range lines {
		if i == row {
			for _, a := range add {
				b.Write(lines[row][:col])
				b.WriteString(a)
				b.WriteByte('\n')
			}
		}
		b.Write(l)
	}
	return b.Bytes(), true
}

// setLocalConfigNode sets the annotation in a YAML node tree; false when
// metadata or its annotations are not mappings (an alias, say).
func setLocalConfigNode(root *yaml.Node) bool {
	md := mappingAt(root, "metadata")
	ann := mappingAt(md, "annotations")
	if ann == nil {
		return false
	}
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "true", Style: yaml.DoubleQuotedStyle}
	for i := 0; i+1 < len(ann.Content); i += 2 {
		if ann.Content[i].Value == AnnLocalConfig {
			ann.Content[i+1] = v
			return true
		}
	}
	ann.Content = append(ann.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: AnnLocalConfig}, v)
	return true
}

// mappingAt returns the mapping under key in m, adding it when the key is
// absent or null; nil when m is nil or the value is something else.
func mappingAt(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		v := m.Content[i+1]
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: m.Style & yaml.FlowStyle}
			m.Content[i+1] = v
		}
		if v.Kind != yaml.MappingNode {
			return nil
		}
		return v
	}
	v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: m.Style & yaml.FlowStyle}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return v
}

// orchestratorAnnotation reports whether kpt or kustomize add an
// annotation of this key to the items (and the functionConfig) they pass.
func orchestratorAnnotation(k string) bool {
	switch k {
	case "config.kubernetes.io/path", "config.kubernetes.io/index", "config.kubernetes.io/id",
		"config.k8s.io/id", "kustomize.config.k8s.io/id", AnnLocalConfig:
		return true
	}
	return strings.HasPrefix(k, "internal.config.kubernetes.io/")
}

// functionConfigItem returns the input item that is the functionConfig
// (kpt passes the file of --fn-config or configPath as an item too): the
// same object but for the orchestrator's annotations. nil when none is.
func functionConfigItem(items []*item, fc *kyaml.RNode) *item {
	h, err := headerOf(fc.YNode())
	if err != nil {
		return nil
	}
	var want map[string]any
	if fc.YNode().Decode(&want) != nil {
		return nil
	}
	stripOrchestrator(want)
	for _, it := range items {
		ih := it.header
		if ih.APIVersion != h.APIVersion || ih.Kind != h.Kind || ih.Name != h.Name || ih.Namespace != h.Namespace {
			continue
		}
		if m, err := it.decode(nil); err == nil {
			stripOrchestrator(m)
			if reflect.DeepEqual(m, want) {
				return it
			}
		}
	}
	return nil
}

// stripOrchestrator removes the orchestrator's annotations of a decoded
// object (and annotations, when no other is left).
func stripOrchestrator(m map[string]any) {
	md, _ := m["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		return
	}
	for k := range ann {
		if orchestratorAnnotation(k) {
			delete(ann, k)
		}
	}
	if len(ann) == 0 {
		delete(md, "annotations")
	}
}
