package engine

import (
	"slices"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/redact"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// secrets hides the values of a render's Secrets in its errors, warnings
// and notes: the values the Secrets hold (where a message quotes them
// whole, in long runs, encoded or digested), and every value a reference
// copied out of one and of a secret parameter (wherever it appears). The set is built on first
// use: a render without errors or warnings pays nothing.
type secrets struct {
	objs   []*object.Object
	lookup []*object.Object
	copied []any
	set    *redact.Set
}

func (s *secrets) get() *redact.Set {
	if s.set == nil {
		s.set = redact.New()
		s.set.AddSecrets(s.objs, true)
		s.set.AddSecrets(s.lookup, true)
		for _, v := range s.copied {
			s.set.AddCopied(v)
		}
	}
	return s.set
}

// addLookup adds lookup objects (the KRM input items decoded late).
func (s *secrets) addLookup(objs []*object.Object) {
	s.lookup = append(slices.Clip(s.lookup), objs...)
	if s.set != nil {
		s.set.AddSecrets(objs, true)
	}
}

// copy records a value copied out of a Secret.
func (s *secrets) copy(v any) {
	s.copied = append(s.copied, v)
	if s.set != nil {
		s.set.AddCopied(v)
	}
}

// err masks an error.
func (s *secrets) err(err error) error {
	if err == nil {
		return nil
	}
	return s.get().Error(err)
}

// options are opts with its warnings and notes masked, and references
// that copy out of Secrets recorded.
func (s *secrets) options(opts Options) Options {
	if w := opts.Warn; w != nil {
		opts.Warn = func(msg string) { w(s.get().Mask(msg)) }
	}
	if n := opts.Note; n != nil {
		opts.Note = func(d *diag.Diagnostic) { n(s.get().Diagnostic(d)) }
	}
	sc := opts.SecretCopy
	opts.SecretCopy = func(obj *object.Object, field string, v any) {
		s.copy(v)
		if sc != nil {
			sc(obj, field, v)
		}
	}
	return opts
}

// paramSecrets collects the values of the secret parameters of one
// request and its dependencies (see secretNames): a template's fail, a
// line of invalid YAML or a refused parameter quoting one is an error
// before any Secret is rendered.
type paramSecrets struct {
	values []any
}

func (p *paramSecrets) add(vs []any) { p.values = append(p.values, vs...) }

// mask hides the collected values in err.
func (p *paramSecrets) mask(err error) error {
	if err == nil || len(p.values) == 0 {
		return err
	}
	s := redact.New()
	for _, v := range p.values {
		s.AddCopied(v)
	}
	return s.Error(err)
}
