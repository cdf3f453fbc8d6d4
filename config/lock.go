package config

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params/schema"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Pin is a git reference resolved to a commit by `kudo-render lock` for a
// source the config does not name itself (a base's `extends.git`, a
// repository reached through another). Sources with the same URL and ref
// use the commit.
type Pin struct {
	URL    string `yaml:"url" json:"url"`
	Ref    string `yaml:"ref,omitempty" json:"ref,omitempty"`
	Commit string `yaml:"commit" json:"commit"`
}

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

// PinFor returns the pinned commit of a git source, if any: its own
// commit, else a pin of the lock with the same URL and ref.
func (c *Config) PinFor(g bundle.GitSource) string {
	if g.Commit != "" {
		return g.Commit
	}
	if c == nil || c.Spec.Lock == nil {
		return ""
	}
	for _, p := range c.Spec.Lock.Pins {
		if p.URL == g.URL && p.Ref == g.Ref {
			return p.Commit
		}
	}
	return ""
}

// LockEdit is what `kudo-render lock` writes back into a config file.
type LockEdit struct {
	// Commits of the config's own git sources, by field path:
	// "spec.framework.git", "spec.base.git", "spec.repositories[2].git".
	Commits map[string]string
	Lock    *Lock
	// ResourceVersions, when not nil, replaces spec.expectedResourceVersions.
	ResourceVersions map[string]string
}

// GitFields lists the config's own git sources by field path.
func (c *Config) GitFields() map[string]*bundle.GitSource {
	out := map[string]*bundle.GitSource{}
	if g := c.Spec.Framework.Git; g != nil {
		out["spec.framework.git"] = g
	}
	if b := c.Spec.Base; b != nil && b.Git != nil {
		out["spec.base.git"] = b.Git
	}
	for i, r := range c.Spec.Repositories {
		if r.Git != nil {
			out[fmt.Sprintf("spec.repositories[%d].git", i)] = r.Git
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
	paths := make([]string, 0, len(e.Commits))
	for p := range e.Commits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		g := gitNode(spec, p)
		if g == nil {
			return nil, fmt.Errorf("%s: not found in the config", p)
		}
		setAfter(g, "commit", scalar(e.Commits[p]), "ref")
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

// gitNode finds the mapping at a GitFields path below spec.
func gitNode(spec *yaml.Node, p string) *yaml.Node {
	var i int
	switch {
	case p == "spec.framework.git":
		if f := child(spec, "framework"); f != nil {
			return child(f, "git")
		}
	case p == "spec.base.git":
		if b := child(spec, "base"); b != nil {
			return child(b, "git")
		}
	default:
		if _, err := fmt.Sscanf(p, "spec.repositories[%d].git", &i); err == nil {
			if r := child(spec, "repositories"); r != nil && i < len(r.Content) {
				return child(r.Content[i], "git")
			}
		}
	}
	return nil
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
