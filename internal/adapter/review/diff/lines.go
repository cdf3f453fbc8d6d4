package diff

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Line is one line of a long string's change.
type Line struct {
	// Op is ' ' (context), '+', '-', or '~' (unchanged lines left out).
	Op   byte
	Text string
}

// lines are the changed lines of two texts with context lines around
// them; runs of unchanged lines further away are one '~' line.
func lines(a, b string, context int) []Line {
	if strings.Count(a, "\n")+strings.Count(b, "\n") > maxMyersLines {
		return trimContext(ends(a, b), context)
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // a time limit would make the result vary
	ca, cb, table := dmp.DiffLinesToChars(a, b)
	var all []Line
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), table) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffDelete:
			op = '-'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				all = append(all, Line{Op: op, Text: strings.TrimSuffix(l, "\n")})
			}
		}
	}
	return trimContext(all, context)
}

// maxMyersLines bounds the texts compared line by line with Myers'
// algorithm (quadratic at worst); longer texts are compared by their
// common first and last lines.
const maxMyersLines = 4000

// ends compares two texts by their common first and last lines: what lies
// between is removed and added whole.
func ends(a, b string) []Line {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	p := 0
	for p < len(la) && p < len(lb) && la[p] == lb[p] {
		p++
	}
	s := 0
	for s < len(la)-p && s < len(lb)-p && la[len(la)-1-s] == lb[len(lb)-1-s] {
		s++
	}
	var out []Line
	add := func(op byte, ls []string) {
		for _, l := range ls {
			out = append(out, Line{Op: op, Text: l})
		}
	}
	add(' ', la[:p])
	add('-', la[p:len(la)-s])
	add('+', lb[p:len(lb)-s])
	add(' ', la[len(la)-s:])
	return out
}

// trimContext keeps changed lines and up to n lines around each.
func trimContext(all []Line, n int) []Line {
	keep := make([]bool, len(all))
	for i, l := range all {
		if l.Op == ' ' {
			continue
		}
		for j := max(0, i-n); j <= min(len(all)-1, i+n); j++ {
			keep[j] = true
		}
	}
	var out []Line
	for i, l := range all {
		switch {
		case keep[i]:
			out = append(out, l)
		case len(out) == 0 || out[len(out)-1].Op != '~':
			out = append(out, Line{Op: '~'})
		}
	}
	return out
}
