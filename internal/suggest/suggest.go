package suggest

import "strings"

// maxSuggestDistance is how many edits a misspelt name may be away from a
// defined one and still be suggested.
const maxSuggestDistance = 2

// Closest returns the defined name closest to name: one equal to it but for
// case, or else one at most maxSuggestDistance edits away (compared without
// case). The first of equally close names wins. A name that would have to
// be replaced entirely ("X" for "Y") is not suggested.
func Closest(name string, defined []string) (string, bool) {
	lname := []rune(strings.ToLower(name))
	best, bestDist := "", maxSuggestDistance+1
	for _, d := range defined {
		ld := []rune(strings.ToLower(d))
		if abs(len(ld)-len(lname)) > maxSuggestDistance {
			continue
		}
		dist := levenshtein(lname, ld)
		if dist >= max(len(lname), len(ld)) && dist > 0 {
			continue
		}
		if dist < bestDist {
			best, bestDist = d, dist
		}
	}
	return best, bestDist <= maxSuggestDistance
}

// levenshtein is the edit distance between a and b (insertions, deletions
// and substitutions of one rune each).
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// DidYouMean is `; did you mean "x"?` when a defined name is close to name
// (see [Closest]), else "": the tail of a message that refuses name.
func DidYouMean(name string, defined []string) string {
	if s, ok := Closest(name, defined); ok {
		return `; did you mean "` + s + `"?`
	}
	return ""
}

// MaxSuggestions is how many misspelt names of one list of problems get a
// suggestion: each is compared with every defined name, so a list of
// thousands of unknown names against thousands of defined ones would
// cost their product. A typo is rarely one of thousands.
const MaxSuggestions = 16

// Suggester makes at most MaxSuggestions suggestions ([Closest]); the
// zero value is ready to use.
type Suggester struct{ made int }

// Suggest is [Closest] while suggestions are left.
func (s *Suggester) Suggest(name string, defined []string) (string, bool) {
	if s.made >= MaxSuggestions {
		return "", false
	}
	s.made++
	return Closest(name, defined)
}
