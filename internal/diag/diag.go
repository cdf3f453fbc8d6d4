package diag

import (
	"fmt"
	"path"
	"strings"
)

// Severity of a diagnostic.
type Severity string

// Severities, as kyaml's framework.Result spells them.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Resource identifies the object a diagnostic is about.
type Resource struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

func (r *Resource) String() string {
	if r == nil {
		return ""
	}
	s := r.Kind
	if r.Namespace != "" {
		s += " " + r.Namespace + "/" + r.Name
	} else {
		s += " " + r.Name
	}
	return s
}

// Diagnostic is one problem at one place. Only Msg is required.
type Diagnostic struct {
	// Severity is error when empty.
	Severity Severity
	// File is the path of the file, relative to the root it was read from
	// (the bundle, the FunctionConfig's folder): "params.yaml",
	// "templates/cm.yaml".
	File string
	// Line is 1-based; 0 when unknown.
	Line int
	// Column is 1-based, in characters, as go-yaml counts them; 0 when
	// unknown. It is written only with a line: file:line:column, or
	// "line 3, column 7" without a file.
	Column int
	// Field is the path of the field inside the file or the object, e.g.
	// "parameters[3].default", "spec.template.spec.containers[0].image",
	// or a JSON pointer ("/NODE_COUNT").
	Field string
	// Resource is the object concerned, if any.
	Resource *Resource
	// Msg says what is wrong; it reads after the field.
	Msg string
}

// Error formats the diagnostic as file:line: field: message (parts that are
// unknown are left out). A resource is named before the field.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
	}
	b.WriteString(d.File)
	if d.Line > 0 {
		if d.File == "" {
			b.WriteString("line ")
		} else {
			b.WriteString(":")
		}
		fmt.Fprintf(&b, "%d", d.Line)
		switch {
		case d.Column > 0 && d.File == "":
			fmt.Fprintf(&b, ", column %d", d.Column)
		case d.Column > 0:
			fmt.Fprintf(&b, ":%d", d.Column)
		}
	}
	if d.Resource != nil {
		sep()
		b.WriteString(d.Resource.String())
	}
	if d.Field != "" {
		sep()
		b.WriteString(d.Field)
	}
	sep()
	b.WriteString(d.Msg)
	return b.String()
}

// Tolerated ends the message of a warning about something KUDO ignored.
const Tolerated = " (ignored, as KUDO did; --strict refuses it)"

// IsWarning reports whether d is a warning or an info.
func (d *Diagnostic) IsWarning() bool {
	return d.Severity == SeverityWarning || d.Severity == SeverityInfo
}

// Newf makes an error diagnostic.
func Newf(file string, line int, field, format string, args ...any) *Diagnostic {
	return &Diagnostic{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// List collects diagnostics.
type List struct{ List []*Diagnostic }

// Add appends an error diagnostic.
func (l *List) Add(file string, line int, field, format string, args ...any) {
	l.List = append(l.List, Newf(file, line, field, format, args...))
}

// Warn appends a warning.
func (l *List) Warn(file string, line int, field, format string, args ...any) {
	d := Newf(file, line, field, format, args...)
	d.Severity = SeverityWarning
	l.List = append(l.List, d)
}

// Errors returns the diagnostics that are errors.
func (l *List) Errors() []*Diagnostic {
	var out []*Diagnostic
	for _, d := range l.List {
		if !d.IsWarning() {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns the diagnostics that are warnings or infos.
func (l *List) Warnings() []*Diagnostic {
	var out []*Diagnostic
	for _, d := range l.List {
		if d.IsWarning() {
			out = append(out, d)
		}
	}
	return out
}

// Err returns nil when l holds no error diagnostics, else an *Error with
// the given head holding every error diagnostic.
func (l *List) Err(head string) error {
	errs := l.Errors()
	if len(errs) == 0 {
		return nil
	}
	return &Error{Head: head, List: errs}
}

// Error is a failure made of one or more diagnostics.
type Error struct {
	// Head says what failed: `cannot load framework "zookeeper"`.
	Head string
	List []*Diagnostic
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Head)
	if len(e.List) == 1 {
		if e.Head != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.List[0].Error())
		return b.String()
	}
	if e.Head != "" {
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%d problems:", len(e.List))
	for _, d := range e.List {
		b.WriteString("\n  ")
		b.WriteString(d.Error())
	}
	return b.String()
}

// Unwrap gives errors.As access to each diagnostic.
func (e *Error) Unwrap() []error {
	out := make([]error, len(e.List))
	for i, d := range e.List {
		out[i] = d
	}
	return out
}

// Diagnostics implements [Carrier].
func (e *Error) Diagnostics() []*Diagnostic { return e.List }

// Carrier is implemented by errors that hold diagnostics: every error
// that knows where its problems are (a file and line, a field, a
// resource) hands them on through it, so that the CLI message and the
// KRM results tell the same places. A wrapper that adds context of its
// own (a KudoOperator dependency, a task) implements it too, returning
// the diagnostics of its cause with that context.
type Carrier interface {
	Diagnostics() []*Diagnostic
}

// Placed is implemented by a problem of the public FunctionConfig API
// (config.Problem), which gives its place in plain values so that a
// program outside this module can read and build it: From makes a
// Diagnostic of it.
type Placed interface {
	Place() (file string, line, column int, field, msg string)
}

// From returns the diagnostics of err, one per problem. It walks err's
// tree as errors.As does (Unwrap() error and Unwrap() []error):
//
//   - a [Carrier] gives its diagnostics (it has put in them whatever
//     context it adds);
//   - a [Diagnostic] gives itself, with the context that plain wrappers
//     around it add ("cannot resolve references: ...") put before its
//     message; so does a [Placed] problem;
//   - each branch of a joined error (errors.Join, an error with
//     Unwrap() []error) gives its own, a branch without any one holding
//     its message;
//   - an error without any becomes one diagnostic holding its whole
//     message.
//
// nil gives nil.
func From(err error) []*Diagnostic {
	if err == nil {
		return nil
	}
	if ds, _ := collect(err); len(ds) > 0 {
		return ds
	}
	return []*Diagnostic{{Msg: err.Error()}}
}

// collect returns the diagnostics found in err's tree, nil when there
// are none; bare tells that they are diagnostics themselves rather than
// a carrier's, so the wrappers above them add their context.
func collect(err error) (ds []*Diagnostic, bare bool) {
	switch e := err.(type) {
	case Carrier:
		if ds := e.Diagnostics(); len(ds) > 0 {
			return ds, false
		}
	case *Diagnostic:
		return []*Diagnostic{e}, true
	case Placed:
		file, line, column, field, msg := e.Place()
		return []*Diagnostic{{File: file, Line: line, Column: column, Field: field, Msg: msg}}, true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		inner := u.Unwrap()
		if inner == nil {
			return nil, false
		}
		ds, bare := collect(inner)
		if !bare || len(ds) == 0 {
			return ds, bare
		}
		ctx, ok := strings.CutSuffix(err.Error(), inner.Error())
		if !ok {
			return nil, false // the wrapper rewrote the message: keep it whole
		}
		if ctx = strings.TrimSuffix(strings.TrimSpace(ctx), ":"); ctx == "" {
			return ds, true
		}
		out := make([]*Diagnostic, len(ds))
		for i, d := range ds {
			c := *d
			c.Msg = ctx + ": " + c.Msg
			out[i] = &c
		}
		return out, true
	case interface{ Unwrap() []error }:
		var out []*Diagnostic
		for _, b := range u.Unwrap() {
			if b == nil {
				continue
			}
			if ds, _ := collect(b); len(ds) > 0 {
				out = append(out, ds...)
			} else {
				out = append(out, &Diagnostic{Msg: b.Error()})
			}
		}
		return out, false
	}
	return nil, false
}

// InDir returns err with the file of each of its diagnostics taken as
// relative to dir: a KudoOperator dependency's problems, found relative to
// its own package, are given relative to the package rendered
// ("zookeeper/operator.yaml" for the package at ./zookeeper). Its message
// is err's, those files named the same way where it names them
// ("operator.yaml:9: ..."). A dir of "" (or ".") leaves err as it is.
func InDir(dir string, err error) error {
	if err == nil || dir == "" || dir == "." {
		return err
	}
	return &inDir{dir: dir, err: err}
}

type inDir struct {
	dir string
	err error
}

func (e *inDir) Error() string {
	msg := e.err.Error()
	var pairs []string
	seen := map[string]bool{}
	for _, d := range From(e.err) {
		if f := d.File; f != "" && !path.IsAbs(f) && !seen[f] {
			seen[f] = true
			to := path.Join(e.dir, f)
			if strings.HasPrefix(msg, f+":") {
				msg = to + strings.TrimPrefix(msg, f)
			}
			// a place starts after a space, a line break or a parenthesis
			for _, before := range []string{" ", "\n", "\t", "("} {
				pairs = append(pairs, before+f+":", before+to+":")
			}
		}
	}
	if len(pairs) == 0 {
		return msg
	}
	return strings.NewReplacer(pairs...).Replace(msg) // one pass, however many files
}

func (e *inDir) Unwrap() error { return e.err }

// Diagnostics implements [Carrier].
func (e *inDir) Diagnostics() []*Diagnostic {
	ds := From(e.err)
	out := make([]*Diagnostic, len(ds))
	for i, d := range ds {
		c := *d
		if c.File != "" && !path.IsAbs(c.File) {
			c.File = path.Join(e.dir, c.File)
		}
		out[i] = &c
	}
	return out
}
