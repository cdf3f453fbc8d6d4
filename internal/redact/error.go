package redact

import (
	"github.com/kudo-render/kudo-render/internal/diag"
)

// maskedError is an error whose message and diagnostics are masked; the
// error it wraps stays reachable with errors.As, for its type.
type maskedError struct {
	err error
	set *Set
}

// Error masks err: its message and its diagnostics (diag.From finds the
// masked ones first) hide the set's values. nil stays nil; an empty set
// leaves err as it is.
func (s *Set) Error(err error) error {
	if err == nil || s.Empty() {
		return err
	}
	return &maskedError{err: err, set: s}
}

func (e *maskedError) Error() string { return e.set.Mask(e.err.Error()) }

func (e *maskedError) Unwrap() error { return e.err }

// Diagnostics implements diag.Carrier: the wrapped error's diagnostics,
// their messages, fields and resource names masked.
func (e *maskedError) Diagnostics() []*diag.Diagnostic {
	in := diag.From(e.err)
	out := make([]*diag.Diagnostic, len(in))
	for i, d := range in {
		out[i] = e.set.Diagnostic(d)
	}
	return out
}

// Diagnostic is a copy of d with its message, field and resource name
// masked.
func (s *Set) Diagnostic(d *diag.Diagnostic) *diag.Diagnostic {
	c := *d
	c.Msg, c.Field = s.Mask(d.Msg), s.Mask(d.Field)
	if d.Resource != nil {
		r := *d.Resource
		r.Name, r.Namespace = s.whole(r.Name), s.whole(r.Namespace)
		c.Resource = &r
	}
	return &c
}

// whole is v, or Hidden when v Hides.
func (s *Set) whole(v string) string {
	if s.Hides(v) {
		return Hidden
	}
	return v
}
