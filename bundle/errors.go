package bundle

import (
	"errors"
	"fmt"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
	"strings"
)

// FieldError is a problem at one place of one file of a bundle.
type FieldError = strictyaml.Problem

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

// Diagnostics implements diag.Carrier.
func (e *LoadError) Diagnostics() []*diag.Diagnostic { return e.Problems }

// Unwrap gives errors.As access to each problem.
func (e *LoadError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// problems collects FieldErrors while loading.
type problems = strictyaml.Problems

func addErr(p *problems, err error) {
	var fe *FieldError
	if errors.As(err, &fe) {
		p.List = append(p.List, fe)
		return
	}
	p.List = append(p.List, &FieldError{Msg: err.Error()})
}
