package config

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/schema"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Pin is a reference of a remote source resolved by `kudo-render lock` for
// a source the config does not name itself (a base's `extends.git`, a
// repository reached through another): a git branch or tag to a commit,
// an OCI tag (in ref) to a digest. Sources with the same URL and ref use
// the pin.
type Pin struct {
	URL    string `yaml:"url" json:"url"`
	Ref    string `yaml:"ref,omitempty" json:"ref,omitempty"`
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"`
	Digest string `yaml:"digest,omitempty" json:"digest,omitempty"`
}

// newPin records the pin v of s in the field its kind names.
func newPin(s bundle.Source, v string) Pin {
	p := Pin{URL: s.SourceURL(), Ref: s.SourceRef()}
	if _, field := s.LockFields(); field == "digest" {
		p.Digest = v
	} else {
		p.Commit = v
	}
	return p
}

// value is the pin: a commit or a digest.
func (p Pin) value() string { return p.Commit + p.Digest }

// source is the source a pin stands for, pinned (for checking the pin).
func (p Pin) source() bundle.Source {
	if p.Digest != "" {
		return bundle.OCISource{URL: p.URL, Tag: p.Ref, Digest: p.Digest}
	}
	return bundle.GitSource{URL: p.URL, Ref: p.Ref, Commit: p.Commit}
}

// pinKey is what pins are matched by: the URL and the ref.
func pinKey(s bundle.Source) string { return s.SourceURL() + "\x00" + s.SourceRef() }

// Lock is what `kudo-render lock` records besides commits: pins of nested
// git sources and the digests of schemas, which may not change within a
// version (Governor: schemas are immutable).
type Lock struct {
	Pins []Pin `yaml:"pins,omitempty" json:"pins,omitempty"`
	// Schemas maps "<framework>/<slug>/<version>" (resource definitions)
	// and "<framework>@<version>/params" (params.schema.json) to
	// "sha256:<hex>" of their canonical JSON.
	Schemas map[string]string `yaml:"schemas,omitempty" json:"schemas,omitempty"`
}

// PinFor returns the pin of a remote source, if any: its own (a git
// commit:), else a pin of the lock with the same URL and ref.
func (c *Config) PinFor(s bundle.Source) string {
	if pin := s.SourcePin(); pin != "" {
		return pin
	}
	if c == nil || c.Spec.Lock == nil {
		return ""
	}
	for _, p := range c.Spec.Lock.Pins {
		if p.URL == s.SourceURL() && p.Ref == s.SourceRef() {
			return p.value()
		}
	}
	return ""
}

// LockEdit is what `kudo-render lock` writes back into a config file.
type LockEdit struct {
	// Pinned are the config's own remote sources with their pins, by
	// field path: "spec.framework.git", "spec.base.git",
	// "spec.repositories[2].git". The pin is written after the ref
	// (Source.LockFields: commit: after ref:).
	Pinned map[string]bundle.Source
	Lock   *Lock
	// ResourceVersions, when not nil, replaces spec.expectedResourceVersions.
	ResourceVersions map[string]string
}

// Remotes lists the places of the config that may name a remote source,
// by field path: "spec.framework", "spec.base", "spec.repositories[2]".
func (c *Config) Remotes() map[string]*bundle.Remote {
	out := map[string]*bundle.Remote{"spec.framework": &c.Spec.Framework.Remote}
	if b := c.Spec.Base; b != nil {
		out["spec.base"] = &b.Remote
	}
	for i := range c.Spec.Repositories {
		out[fmt.Sprintf("spec.repositories[%d]", i)] = &c.Spec.Repositories[i].Remote
	}
	return out
}

// SourceFields lists the config's own remote sources by field path:
// "spec.framework.git", "spec.base.git", "spec.repositories[2].git".
func (c *Config) SourceFields() map[string]bundle.Source {
	out := map[string]bundle.Source{}
	for field, r := range c.Remotes() {
		for _, s := range r.Sources() {
			out[field+"."+s.SourceKind()] = s
		}
	}
	return out
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
func CheckSchemaLock(b *bundle.Bundle, lock *Lock) error {
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
