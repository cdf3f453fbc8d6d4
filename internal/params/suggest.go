package params

import "github.com/kudo-render/kudo-render/internal/suggest"

// Suggest returns the defined name closest to name: one equal to it but for
// case, or else one at most two edits away (compared without case). The
// first of equally close names wins.
func Suggest(name string, defined []string) (string, bool) {
	return suggest.Closest(name, defined)
}
