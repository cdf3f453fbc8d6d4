package render

import "github.com/kudo-render/kudo-render/internal/diag"

// Diagnostics implements diag.Carrier: the diagnostics of the cause (the
// template file and line), each saying which task failed.
func (e *Error) Diagnostics() []*diag.Diagnostic {
	inner := diag.From(e.Err)
	out := make([]*diag.Diagnostic, len(inner))
	for i, d := range inner {
		c := *d
		if e.Task != "" {
			c.Msg = "task " + e.Task + " in " + e.Where + ": " + c.Msg
		}
		out[i] = &c
	}
	return out
}
