package diff

import (
	"encoding/json"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/redact"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Hidden replaces a secret value in every output.
const Hidden = redact.Hidden

// secrets decides what a report hides: the values of Secrets, values
// copied out of them (Options.SecretValues) in every form, and digests
// of secret data.
type secrets struct {
	show bool
	set  *redact.Set
}

func newSecrets(from, to []engine.Item, opts Options) *secrets {
	s := &secrets{show: opts.ShowSecrets, set: redact.New()}
	if s.show {
		return s
	}
	for _, side := range [][]engine.Item{from, to} {
		for _, it := range side {
			if redact.IsSecret(it.Obj) {
				// Not the values themselves (a user name that is also the
				// instance's name would hide every object name): their
				// encodings and digests.
				s.set.AddSecret(it.Obj.Map, false)
			}
		}
	}
	for _, v := range opts.SecretValues {
		s.set.AddCopied(v)
	}
	return s
}

// holds reports whether an object holds a secret value: a Secret, or an
// object a value was copied into.
func (s *secrets) holds(k Key, o *object.Object) bool {
	return !s.show && (isSecret(k) || s.set.Holds(o.Map))
}

// value reports whether a change's value (a string, or YAML) holds a
// secret.
func (s *secrets) value(v string, isText bool) bool {
	if s.show || v == "" || s.set.Empty() {
		return false
	}
	if s.set.Hides(v) {
		return true
	}
	var parsed any
	return !isText && strictyaml.Unmarshal("", []byte(v), &parsed) == nil && s.set.Holds(parsed)
}

// text is s, or Hidden when it holds a secret (names, keys).
func (s *secrets) text(v string) string {
	if s.show || !s.set.Hides(v) {
		return v
	}
	return Hidden
}

// key is k with a secret name or namespace hidden.
func (s *secrets) key(k Key) Key {
	k.Name, k.Namespace = s.text(k.Name), s.text(k.Namespace)
	return k
}

// path is p with secret map keys and list selectors hidden.
func (s *secrets) path(p Path) Path {
	var out Path
	for i, e := range p {
		m := e
		m.Key = s.text(e.Key)
		if f, v, ok := strings.Cut(e.Match, "="); ok {
			m.Match = f + "=" + s.text(v)
		}
		if m != e && out == nil {
			out = append(Path{}, p...)
		}
		if out != nil {
			out[i] = m
		}
	}
	if out == nil {
		return p
	}
	return out
}

// copiesObject reports whether an annotation holds a copy of an object:
// kubectl's last-applied configuration, or any JSON object with an
// apiVersion and a kind.
func copiesObject(key, value string) bool {
	if key == "kubectl.kubernetes.io/last-applied-configuration" {
		return true
	}
	v := strings.TrimSpace(value)
	if !strings.HasPrefix(v, "{") {
		return false
	}
	var m struct {
		APIVersion *string `json:"apiVersion"`
		Kind       *string `json:"kind"`
	}
	return json.Unmarshal([]byte(v), &m) == nil && m.APIVersion != nil && m.Kind != nil
}
