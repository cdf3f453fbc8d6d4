package verify

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kudo-render/kudo-render/bundle"
)

// Severity says whether a finding fails verification.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem in one file of a bundle.
type Finding struct {
	Severity Severity
	// File is relative to the bundle root: "operator.yaml", "params.yaml",
	// "templates/statefulset.yaml".
	File string
	// Line is 1-based; 0 when the model does not know the line.
	Line int
	Msg  string
}

// String is "error: templates/x.yaml:12: message", without ":12" when the
// line is unknown.
func (f Finding) String() string {
	where := f.File
	if f.Line > 0 {
		where += ":" + strconv.Itoa(f.Line)
	}
	return string(f.Severity) + ": " + where + ": " + f.Msg
}

// Errors returns the findings of severity [Error].
func Errors(fs []Finding) []Finding {
	return slices.DeleteFunc(slices.Clone(fs), func(f Finding) bool { return f.Severity != Error })
}

// Bundle runs every check on b and returns the findings sorted by file,
// line and message (then severity), without duplicates.
func Bundle(b *bundle.Bundle) []Finding {
	v := &verifier{b: b, partial: b.Extends != nil}
	v.loadChecks()
	v.names()
	v.versions()
	v.paramDefs()
	v.tasks()
	v.plans()
	v.templates()
	return sortFindings(v.out)
}

// loadChecks reports, as errors, what loading refuses (bundle.Validate:
// references, task kinds, strategies, ...): a bundle that was loaded has
// passed them, one built or changed in memory may not have, and verify
// must never pass what a render refuses.
func (v *verifier) loadChecks() {
	err := bundle.Validate(v.b)
	var le *bundle.LoadError
	if !errors.As(err, &le) {
		return
	}
	for _, d := range le.Problems {
		v.errorf(cmp.Or(d.File, v.b.File), d.Line, "%s", fieldMsg(d))
	}
}

func compareFindings(x, y Finding) int {
	return cmp.Or(
		cmp.Compare(x.File, y.File),
		cmp.Compare(x.Line, y.Line),
		cmp.Compare(x.Msg, y.Msg),
		cmp.Compare(x.Severity, y.Severity),
	)
}

type verifier struct {
	b *bundle.Bundle
	// partial is set for a bundle whose `extends` is not resolved: the base
	// may define plans, tasks, parameters and pipes this bundle uses.
	partial bool
	out     []Finding
}

func (v *verifier) add(sev Severity, file string, line int, format string, args ...any) {
	v.out = append(v.out, Finding{Severity: sev, File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (v *verifier) errorf(file string, line int, format string, args ...any) {
	v.add(Error, file, line, format, args...)
}

func (v *verifier) warnf(file string, line int, format string, args ...any) {
	v.add(Warning, file, line, format, args...)
}

// paramsFile is where parameters are defined.
const paramsFile = "params.yaml"

// templatePath is the file of a template, relative to the bundle root.
func templatePath(name string) string { return "templates/" + name }
