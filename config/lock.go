package config

import (
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
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

// Value is the pin: a commit or a digest.
func (p Pin) Value() string { return p.Commit + p.Digest }

// Source is the source a pin stands for, pinned.
func (p Pin) Source() bundle.Source {
	if p.Digest != "" {
		return bundle.OCISource{URL: p.URL, Tag: p.Ref, Digest: p.Digest}
	}
	return bundle.GitSource{URL: p.URL, Ref: p.Ref, Commit: p.Commit}
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
			return p.Value()
		}
	}
	return ""
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
