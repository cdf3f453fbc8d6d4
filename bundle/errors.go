package bundle

import (
	"errors"
	"fmt"
	"strings"
)

// FieldError is a problem at one place of one file of a bundle.
type FieldError struct {
	File  string // path relative to the bundle root, e.g. "params.yaml"
	Line  int    // 1-based; 0 when unknown
	Field string // field path, e.g. "parameters[3].default"
	Msg   string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// LoadError is returned by [Load] and [LoadDir]. It lists every problem
// found, so that one run shows them all.
type LoadError struct {
	Framework string // the package name, or the folder name if unknown
	Problems  []*FieldError
}

func (e *LoadError) Error() string {
	head := fmt.Sprintf("cannot load framework %q: ", e.Framework)
	if len(e.Problems) == 1 {
		return head + e.Problems[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%d problems:", head, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to each problem.
func (e *LoadError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// problems collects FieldErrors while loading.
type problems struct{ list []*FieldError }

func (p *problems) add(file string, line int, field, format string, args ...any) {
	p.list = append(p.list, &FieldError{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (p *problems) addErr(err error) {
	var fe *FieldError
	if errors.As(err, &fe) {
		p.list = append(p.list, fe)
		return
	}
	p.list = append(p.list, &FieldError{Msg: err.Error()})
}
