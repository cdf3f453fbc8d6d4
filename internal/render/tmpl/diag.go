package tmpl

import "github.com/kudo-render/kudo-render/internal/diag"

// Diagnostics implements diag.Carrier: the template file and line.
func (e *Error) Diagnostics() []*diag.Diagnostic {
	return []*diag.Diagnostic{{File: e.Template, Line: e.Line, Msg: e.Msg}}
}
