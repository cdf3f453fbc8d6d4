package diag

import "fmt"

// LimitError is a limit of the resource model that an input hit (see
// docs/limits.md). It names the limit, its value and how to raise it.
type LimitError struct {
	// Limit names what is bounded: "template output", "YAML values".
	Limit string
	// Max is the limit's value, in Unit.
	Max int64
	// Unit is "bytes", "values", "items", ...
	Unit string
	// Raise says how to raise it: a flag ("--max-template-bytes") and/or a
	// FunctionConfig field ("spec.limits.maxTemplateBytes").
	Raise string
	// Where, when known, names the input that hit it (a file, a source
	// URL, a template).
	Where string
}

func (e *LimitError) Error() string {
	s := ""
	if e.Where != "" {
		s = e.Where + ": "
	}
	s += fmt.Sprintf("%s exceeds the limit of %d %s", e.Limit, e.Max, e.Unit)
	if e.Raise != "" {
		s += " (raise it with " + e.Raise + ")"
	}
	return s
}
