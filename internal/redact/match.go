package redact

import (
	"fmt"
	"sort"
	"strings"
)

// span is a secret part of a text: text[from:to].
type span struct{ from, to int }

// scan finds the secret spans of text: forms contained in it, and runs of
// MinRun bytes it shares with a form; with first, it stops at the first.
// Its work is bounded: past the budget the whole text is one span.
type scan struct {
	s      *Set
	text   string
	first  bool
	budget int
	spans  []span
}

func newScan(s *Set, text string, first bool) *scan {
	return &scan{s: s, text: text, first: first, budget: 16*len(text) + 1<<20}
}

func (c *scan) done() bool { return c.first && len(c.spans) > 0 }

// spend charges n bytes of comparison; false when over budget (the whole
// text is then secret).
func (c *scan) spend(n int) bool {
	c.budget -= n
	if c.budget < 0 {
		c.spans = []span{{0, len(c.text)}}
		return false
	}
	return true
}

// contained finds the forms of MinContained bytes or more in the text.
func (c *scan) contained() {
	t := c.text
	for i := 0; i+MinContained <= len(t) && !c.done(); i++ {
		for _, f := range c.s.prefix[t[i:i+MinContained]] {
			if !c.spend(len(f)) {
				return
			}
			if strings.HasPrefix(t[i:], f) {
				c.spans = append(c.spans, span{i, i + len(f)})
			}
		}
	}
}

// runs finds the runs of MinRun bytes or more the text shares with a form.
func (c *scan) runs() {
	t := c.text
	for i := 0; i+gramLen <= len(t) && !c.done(); i++ {
		g, ok := c.s.grams[t[i:i+gramLen]]
		if !ok {
			continue
		}
		f := c.s.forms[g.form]
		l, p := i, g.pos
		for l > 0 && p > 0 && t[l-1] == f[p-1] {
			l, p = l-1, p-1
		}
		r, q := i+gramLen, g.pos+gramLen
		for r < len(t) && q < len(f) && t[r] == f[q] {
			r, q = r+1, q+1
		}
		if !c.spend(r - l) {
			return
		}
		if r-l >= MinRun {
			c.spans = append(c.spans, span{l, r})
			i = r - 1
		}
	}
}

// alone finds the short copied forms that stand alone in the text: not
// inside a word (no letter or digit on a side where the form has one).
func (c *scan) alone() {
	t := c.text
	if c.s.tokenLens == 0 {
		return
	}
	for i := 0; i < len(t) && !c.done(); i++ {
		if i > 0 && wordByte(t[i-1]) && wordByte(t[i]) {
			continue
		}
		for n := MinToken; n < MinContained && i+n <= len(t); n++ {
			j := i + n
			if c.s.tokenLens&(1<<n) == 0 || j < len(t) && wordByte(t[j]) && wordByte(t[j-1]) {
				continue
			}
			if _, ok := c.s.tokens[t[i:j]]; ok {
				c.spans = append(c.spans, span{i, j})
				i = j - 1
				break
			}
		}
	}
}

// wordByte reports whether b belongs to a word: a letter or a digit, or a
// byte of a multi-byte character.
func wordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// quoted finds the forms a text quotes whole: "form", 'form' or `form`.
func (c *scan) quoted() {
	t := c.text
	for i := 0; i < len(t) && !c.done(); i++ {
		q := t[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(t) && t[j] != q {
			if t[j] == '\\' && q == '"' {
				j++
			}
			j++
		}
		if j >= len(t) {
			continue
		}
		if !c.spend(j - i) {
			return
		}
		if _, ok := c.s.exact[t[i+1:j]]; ok && j > i+1 {
			c.spans = append(c.spans, span{i + 1, j})
			i = j
		}
	}
}

// Hides reports whether a value is secret: a form whole, a form of
// MinContained bytes or more inside it, a run of MinRun bytes shared with
// a form, or a short copied form standing alone in it.
func (s *Set) Hides(text string) bool {
	if s.Empty() || text == "" {
		return false
	}
	if _, ok := s.exact[text]; ok {
		return true
	}
	c := newScan(s, text, true)
	if c.contained(); !c.done() {
		c.runs()
	}
	if !c.done() {
		c.alone()
	}
	return len(c.spans) > 0
}

// Holds reports whether v (a string, a number, a map or a list) is or
// holds a secret value.
func (s *Set) Holds(v any) bool {
	if s.Empty() {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if s.Holds(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if s.Holds(e) {
				return true
			}
		}
	case nil:
	case string:
		return s.Hides(x)
	default:
		return s.Hides(fmt.Sprint(x))
	}
	return false
}

// MaskValue replaces, in place, every leaf of v that Hides by Hidden and
// returns v (a leaf itself is returned replaced).
func (s *Set) MaskValue(v any) any {
	if s.Empty() {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = s.MaskValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = s.MaskValue(e)
		}
	case nil:
	case string:
		if s.Hides(x) {
			return Hidden
		}
	default:
		if s.Hides(fmt.Sprint(x)) {
			return Hidden
		}
	}
	return v
}

// Mask replaces every secret part of a free text (an error message) by
// Hidden: forms quoted whole, forms of MinContained bytes or more, runs
// of MinRun bytes shared with a form, and copied forms of MinToken bytes
// or more standing alone.
func (s *Set) Mask(text string) string {
	if s.Empty() || text == "" {
		return text
	}
	c := newScan(s, text, false)
	c.quoted()
	c.contained()
	c.runs()
	c.alone()
	if len(c.spans) == 0 {
		return text
	}
	sort.Slice(c.spans, func(i, j int) bool { return c.spans[i].from < c.spans[j].from })
	var b strings.Builder
	at := 0
	for i := 0; i < len(c.spans); {
		from, to := c.spans[i].from, c.spans[i].to
		for i++; i < len(c.spans) && c.spans[i].from <= to; i++ {
			to = max(to, c.spans[i].to)
		}
		b.WriteString(text[at:from])
		b.WriteString(Hidden)
		at = to
	}
	b.WriteString(text[at:])
	return b.String()
}
