package params

import "github.com/kudo-render/kudo-render/internal/suggest"

// Suggest returns the defined name closest to name: one equal to it but for
// case, or else one at most two edits away (compared without case). The
// first of equally close names wins.
func Suggest(name string, defined []string) (string, bool) {
	return suggest.Closest(name, defined)
}

// MaxSuggestions is how many misspelt names of one list of problems get a
// suggestion: each is compared with every defined name, so a list of
// thousands of unknown names against thousands of defined ones would
// cost their product. A typo is rarely one of thousands.
const MaxSuggestions = 16

// Suggester makes at most MaxSuggestions suggestions ([Suggest]); the
// zero value is ready to use.
type Suggester struct{ made int }

// Suggest is [Suggest] while suggestions are left.
func (s *Suggester) Suggest(name string, defined []string) (string, bool) {
	if s.made >= MaxSuggestions {
		return "", false
	}
	s.made++
	return Suggest(name, defined)
}
