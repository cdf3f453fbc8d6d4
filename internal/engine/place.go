package engine

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// placedError is a failure of objects of the render, its problems placed
// at the template and line of the objects they are about: its message
// names each place ("templates/cm.yaml:7: ConfigMap web/settings:
// data.port: ..."), its diagnostics carry it. It wraps the failure, so
// errors.As still finds the problems' own types.
type placedError struct {
	head  string
	err   error
	lines []string
	ds    []*diag.Diagnostic
}

func (e *placedError) Error() string {
	if len(e.lines) == 1 {
		return e.head + ": " + e.lines[0]
	}
	return fmt.Sprintf("%s: %d problems:\n  %s", e.head, len(e.lines), strings.Join(e.lines, "\n  "))
}

func (e *placedError) Unwrap() error { return e.err }

// Diagnostics implements diag.Carrier.
func (e *placedError) Diagnostics() []*diag.Diagnostic { return e.ds }

// placeProblems places the problems of err (one per branch of a joined
// error) at the items whose objects they name (diag.Diagnostic.Resource);
// head says what failed.
func placeProblems(head string, err error, items []Item) error {
	branches := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		branches = j.Unwrap()
	}
	pe := &placedError{head: head, err: err}
	for _, b := range branches {
		line := b.Error()
		ds := diag.From(b)
		for _, d := range ds {
			c := *d
			if it := itemOf(items, c.Resource); it != nil && c.File == "" {
				place(&c, *it)
				if len(ds) == 1 && c.File != "" { // the message names the place too
					line = placePrefix(&c) + line
				}
			}
			pe.ds = append(pe.ds, &c)
		}
		pe.lines = append(pe.lines, line)
	}
	return pe
}

// placePrefix is "file:line: " of d.
func placePrefix(d *diag.Diagnostic) string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: ", d.File, d.Line)
	}
	return d.File + ": "
}

// itemOf is the first item whose object is res, nil when none is.
func itemOf(items []Item, res *diag.Resource) *Item {
	if res == nil {
		return nil
	}
	for i := range items {
		o := items[i].Obj
		if o.Kind() == res.Kind && o.Name() == res.Name && o.Namespace() == res.Namespace &&
			(res.APIVersion == "" || o.APIVersion() == res.APIVersion) {
			return &items[i]
		}
	}
	return nil
}
