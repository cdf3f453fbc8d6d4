package lazy

import (
	"regexp"
	"sync"
)

// Regexp returns a function that compiles expr on its first call (it
// panics then if expr is not valid, as regexp.MustCompile does) and
// returns the same *regexp.Regexp to every call, from any goroutine.
func Regexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
