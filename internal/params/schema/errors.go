package schema

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Violation is one way in which a value does not satisfy a schema.
type Violation struct {
	// Pointer is the JSON pointer of the offending value: "/NODE_COUNT"
	// for a parameter, "/spec/partitions" inside a resource. "" is the
	// whole value.
	Pointer string
	// Message says what is wrong; it reads after the pointer.
	Message string
	// Resource names the resource of a [Resources] violation,
	// "<Kind>/<metadata.name>" (or "resources[<index>]" when it has no
	// usable name); empty for parameters.
	Resource string
	// Source is where the resource came from, when known: what the
	// source function given to [Resources] says (a file, an input item).
	Source string
}

func (v Violation) String() string {
	var b strings.Builder
	if v.Resource != "" {
		b.WriteString(v.Resource)
		if v.Source != "" {
			fmt.Fprintf(&b, " (%s)", v.Source)
		}
		b.WriteString(": ")
	}
	p := v.Pointer
	if p == "" {
		p = "/"
	}
	b.WriteString(p)
	b.WriteString(": ")
	b.WriteString(v.Message)
	return b.String()
}

// ValidationError lists every violation found by [ValidateParams] or
// [Resources], sorted (by resource, then pointer, then message).
type ValidationError struct {
	// What is "parameter" or "resource".
	What       string
	Violations []Violation
}

func (e *ValidationError) Error() string {
	what := e.What
	if what == "" {
		what = "value"
	}
	if len(e.Violations) == 1 {
		return "invalid " + what + " " + e.Violations[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid %ss (%d problems):", what, len(e.Violations))
	for _, v := range e.Violations {
		b.WriteString("\n  ")
		b.WriteString(v.String())
	}
	return b.String()
}

// Problem is a problem at one place of one file: file, line, field and
// message (the field of a schema problem is "schema" followed by the JSON
// pointer inside the schema, e.g. "schema/properties/size/type").
type Problem = strictyaml.Problem

// SchemaError is returned when a schema cannot be used: it does not
// decode, is too large or too deep, refers outside itself, or does not
// compile. Problems lists every problem found.
type SchemaError struct {
	// Schema names the schema: "params.schema.json", "definitions/x.yaml".
	Schema   string
	Problems []*Problem
}

func (e *SchemaError) Error() string {
	head := "invalid schema " + e.Schema
	if len(e.Problems) == 1 {
		return head + ": " + e.Problems[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d problems):", head, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to each problem.
func (e *SchemaError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// DefinitionsError is returned by [LoadDefinitions]: every problem of
// every definitions file, each with its file, line and field.
type DefinitionsError struct {
	Problems []*Problem
}

func (e *DefinitionsError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid resource definition: " + e.Problems[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid resource definitions (%d problems):", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to each problem.
func (e *DefinitionsError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}
