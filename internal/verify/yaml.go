package verify

import (
	"errors"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// checkYAML reports whether rendered output is a valid YAML stream, with
// the template line of the first problem. It reads the stream as every
// YAML input is read (strictyaml.Stream: characters, size and aliases
// checked, lines as go-yaml counts them).
func checkYAML(out *tmpl.Output) (int, string) {
	for _, err := range strictyaml.Stream("", out.Text) {
		var d *diag.Diagnostic
		if errors.As(err, &d) {
			return out.SourceLine(d.Line), "invalid YAML after rendering: " + d.Msg
		}
	}
	return 0, ""
}
