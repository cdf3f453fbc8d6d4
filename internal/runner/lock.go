package runner

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/schema"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// newPin records the pin v of s in the field its kind names.
func newPin(s bundle.Source, v string) config.Pin {
	p := config.Pin{URL: s.SourceURL(), Ref: s.SourceRef()}
	if _, field := s.LockFields(); field == "digest" {
		p.Digest = v
	} else {
		p.Commit = v
	}
	return p
}

// pinKey is what pins are matched by: the URL and the ref.
func pinKey(s bundle.Source) string { return s.SourceURL() + "\x00" + s.SourceRef() }

// LockEdit is what `kudo-render lock` writes back into a config file.
type LockEdit struct {
	// Pinned are the config's own remote sources with their pins, by
	// field path: "spec.framework.git", "spec.base.git",
	// "spec.repositories[2].git". The pin is written after the ref
	// (Source.LockFields: commit: after ref:).
	Pinned map[string]bundle.Source
	Lock   *config.Lock
	// ResourceVersions, when not nil, replaces spec.expectedResourceVersions.
	ResourceVersions map[string]string
}

// ApplyLock writes a LockEdit into the YAML text of a config, keeping its
// comments and layout: `commit:` goes right after `ref:`.
func ApplyLock(data []byte, e LockEdit) ([]byte, error) {
	doc := &yaml.Node{}
	for d, err := range strictyaml.Stream("", data) { // the first document
		if err != nil {
			return nil, err
		}
		doc = d
		break
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the config is not a mapping")
	}
	root := doc.Content[0]
	spec := child(root, "spec")
	if spec == nil {
		return nil, fmt.Errorf("the config has no spec")
	}
	for _, p := range slices.Sorted(maps.Keys(e.Pinned)) {
		n := sourceNode(spec, p)
		if n == nil {
			return nil, fmt.Errorf("%s: not found in the config", p)
		}
		ref, pin := e.Pinned[p].LockFields()
		setAfter(n, pin, scalar(e.Pinned[p].SourcePin()), ref)
	}
	if e.Lock != nil && (len(e.Lock.Pins) > 0 || len(e.Lock.Schemas) > 0) {
		var n yaml.Node
		if err := n.Encode(e.Lock); err != nil {
			return nil, err
		}
		setAfter(spec, "lock", &n, "")
	}
	if e.ResourceVersions != nil {
		var n yaml.Node
		if err := n.Encode(e.ResourceVersions); err != nil {
			return nil, err
		}
		setAfter(spec, "expectedResourceVersions", &n, "")
	}
	strictyaml.SpellNulls(doc) // {x} stays {x: null}, not {x: ''}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func child(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// sourceNode finds the mapping at a SourceFields path below spec
// ("spec.framework.git", "spec.repositories[2].git").
func sourceNode(spec *yaml.Node, p string) *yaml.Node {
	place, kind, ok := strings.Cut(strings.TrimPrefix(p, "spec."), ".")
	if !ok {
		return nil
	}
	var i int
	var n *yaml.Node
	if _, err := fmt.Sscanf(place, "repositories[%d]", &i); err == nil {
		if r := child(spec, "repositories"); r != nil && i >= 0 && i < len(r.Content) {
			n = r.Content[i]
		}
	} else {
		n = child(spec, place)
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return child(n, kind)
}

// setAfter sets key in mapping m to v: in place when the key exists, else
// right after the key `after` (or at the end).
func setAfter(m *yaml.Node, key string, v *yaml.Node, after string) {
	if m.Style == yaml.FlowStyle {
		m.Style = 0 // flow mappings would squeeze the new key in one line
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	k := scalar(key)
	k.Tag = ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		if after != "" && m.Content[i].Value == after {
			rest := append([]*yaml.Node{k, v}, m.Content[i+2:]...)
			m.Content = append(m.Content[:i+2], rest...)
			return
		}
	}
	m.Content = append(m.Content, k, v)
}

// SchemaDigests lists the digests of a bundle's schemas as the lock keys
// them: "<framework>/<slugPlural>/<version>" for resource definitions and
// "<framework>@<version>/params" for params.schema.json.
func SchemaDigests(b *bundle.Bundle) (map[string]string, error) {
	out := map[string]string{}
	if len(b.ParamsSchema) > 0 {
		d, err := schema.Digest(b.ParamsSchema)
		if err != nil {
			return nil, err
		}
		out[b.ID()+"/params"] = d
	}
	if len(b.Definitions) > 0 {
		defs, err := schema.LoadDefinitions(b)
		if err != nil {
			return nil, err
		}
		for _, def := range defs {
			d, err := schema.Digest(def.Schema)
			if err != nil {
				return nil, err
			}
			out[b.Name+"/"+def.ID()] = d
		}
	}
	return out, nil
}

// SchemaChangedError is a schema that differs from the digest the lock
// recorded for the same version.
type SchemaChangedError struct{ Changed []string }

func (e *SchemaChangedError) Error() string {
	return strings.Join(e.Changed, "; ")
}

// CheckSchemaLock refuses schemas that changed under a version the lock
// recorded: schemas are immutable per version (Governor), so a change
// needs a new version.
func CheckSchemaLock(b *bundle.Bundle, lock *config.Lock) error {
	if lock == nil || len(lock.Schemas) == 0 {
		return nil
	}
	got, err := SchemaDigests(b)
	if err != nil {
		return err
	}
	var changed []string
	for _, k := range slices.Sorted(maps.Keys(got)) {
		want, ok := lock.Schemas[k]
		if !ok || want == got[k] {
			continue
		}
		what := strings.TrimPrefix(k, b.Name+"/")
		if strings.HasSuffix(k, "/params") {
			what = "params.schema.json of " + strings.TrimSuffix(k, "/params")
		}
		changed = append(changed, fmt.Sprintf("schema of %s changed: publish a new version (locked %s, now %s)", what, want, got[k]))
	}
	if len(changed) > 0 {
		return &SchemaChangedError{Changed: changed}
	}
	return nil
}
