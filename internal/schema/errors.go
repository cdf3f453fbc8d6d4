package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/diag"
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
	// Ref is the resource's identity as written (apiVersion, kind,
	// namespace, name), when it has a kind and a name.
	Ref *diag.Resource
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

// Diagnostics implements diag.Carrier: one diagnostic per violation, its
// field the pointer as a field path ("spec.partitions", "NODE_COUNT"),
// its resource the resource's identity and its file the file of its
// source (an input item's "topics.yaml #2" is topics.yaml).
func (e *ValidationError) Diagnostics() []*diag.Diagnostic {
	out := make([]*diag.Diagnostic, len(e.Violations))
	for i, v := range e.Violations {
		file, _, _ := strings.Cut(v.Source, " #")
		d := &diag.Diagnostic{File: file, Field: FieldPath(v.Pointer), Resource: v.Ref, Msg: v.Message}
		if v.Ref == nil && v.Resource != "" {
			d.Msg = v.Resource + ": " + d.Msg // a resource without kind or name: resources[3]
		}
		out[i] = d
	}
	return out
}

// Diagnostics implements diag.Carrier: every problem of the schema.
func (e *SchemaError) Diagnostics() []*diag.Diagnostic { return e.Problems }

// Diagnostics implements diag.Carrier: every problem of every
// definitions file.
func (e *DefinitionsError) Diagnostics() []*diag.Diagnostic { return e.Problems }

// FieldPath writes a JSON pointer as a field path: "/spec/brokers/0/id"
// is "spec.brokers[0].id"; "" (the whole value) is "".
func FieldPath(ptr string) string {
	if ptr == "" || ptr == "/" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapePtr(tok)
		if _, err := strconv.ParseUint(tok, 10, 31); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}
