package diff

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// ANSI colours of the text report.
const (
	red, green, yellow, cyan, reset = "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m", "\x1b[0m"
)

// Text writes the report for people, coloured when color is set (the
// command sets it on a terminal only).
func (r *Report) Text(w io.Writer, color bool) error {
	p := &printer{w: w, color: color}
	for _, o := range r.Objects {
		if o.Status != Suppressed {
			p.object(o)
		}
	}
	if s := suppressedKeys(r); len(s) > 0 {
		p.line("", fmt.Sprintf("changed only in ignored fields (--ignore): %s", strings.Join(s, ", ")))
	}
	p.warnings(r.Warnings)
	if len(r.Objects) > 0 || len(r.Warnings) > 0 {
		p.line("", "")
	}
	p.line("", r.Counts().Summary())
	return p.err
}

// printer writes lines, remembering the first error.
type printer struct {
	w     io.Writer
	color bool
	err   error
}

// line writes one line, its control characters escaped (a value's
// carriage return or escape sequence never reaches the terminal).
func (p *printer) line(col, s string) {
	if p.err != nil {
		return
	}
	s = visible.Escape(s)
	if p.color && col != "" {
		s = col + s + reset
	}
	_, p.err = io.WriteString(p.w, s+"\n")
}

func (p *printer) object(o Object) {
	head := map[Status]string{Added: "+", Removed: "-", Changed: "~"}[o.Status] + " " + o.Key.String()
	col := map[Status]string{Added: green, Removed: red, Changed: yellow}[o.Status]
	p.line(col, head+" ("+where(o)+")")
	for _, m := range o.Moves {
		p.line(cyan, "    "+m.String())
	}
	if o.Update != nil {
		col := red
		if !o.Update.Fails() {
			col = cyan
		}
		for _, l := range o.Update.Lines() {
			p.line(col, "    "+l)
		}
	}
	for _, f := range o.Fields {
		p.field(f)
	}
	if o.Body != "" {
		for _, l := range strings.Split(strings.TrimSuffix(o.Body, "\n"), "\n") {
			p.line(col, "    "+l)
		}
	}
}

// where is an object's status, wave and hook in words.
func where(o Object) string {
	s := fmt.Sprintf("%s, wave %d", o.Status, o.Wave)
	if o.Hook {
		s += ", hook: runs once"
	}
	if o.HiddenFields > 0 {
		s += fmt.Sprintf(", %d hidden field changes", o.HiddenFields)
	}
	return s
}

func (p *printer) field(f Field) {
	path := f.Path.String()
	switch {
	case f.Lines != nil:
		p.line("", "    "+path+":")
		for _, l := range f.Lines {
			p.line(lineColor(l.Op), "      "+l.String())
		}
	case f.Op == OpAdded:
		p.value(green, "  + "+path, f.To)
	case f.Op == OpRemoved:
		p.value(red, "  - "+path, f.From)
	case f.Op == OpReordered:
		p.line(yellow, "  ~ "+path+": order changed")
	case f.Masked && f.Op == OpChanged:
		p.line(yellow, "  ~ "+path+": changed (secret values hidden)")
	case !strings.Contains(f.From+f.To, "\n"):
		p.line(yellow, "  ~ "+path+": "+f.From+" → "+f.To)
	default:
		p.line(yellow, "  ~ "+path+":")
		p.value(red, "      was", f.From)
		p.value(green, "      now", f.To)
	}
}

// value prints "head: v", or head and v's lines indented below.
func (p *printer) value(col, head, v string) {
	if !strings.Contains(v, "\n") {
		p.line(col, head+": "+v)
		return
	}
	p.line(col, head+":")
	for _, l := range strings.Split(v, "\n") {
		p.line(col, "        "+l)
	}
}

func lineColor(op byte) string {
	switch op {
	case '+':
		return green
	case '-':
		return red
	}
	return ""
}

// String is the line as a diff line: "+ text", "- text", "  text", or
// "  …" for unchanged lines left out.
func (l Line) String() string {
	if l.Op == '~' {
		return "  …"
	}
	return string(l.Op) + " " + l.Text
}

// String is the move in words.
func (m Move) String() string {
	switch m.What {
	case "wave":
		dir := "later"
		if atoi(m.To) < atoi(m.From) {
			dir = "earlier"
		}
		return fmt.Sprintf("moved: wave %s → %s (applied %s)", m.From, m.To, dir)
	case "hook":
		if m.To == "true" {
			return "moved: now a hook (runs once, then deleted)"
		}
		return "moved: no longer a hook (stays applied)"
	}
	return fmt.Sprintf("moved: first applied by step %s → %s", m.From, m.To)
}

// Short is the move in a few words: "wave 1 → 0", "now a hook".
func (m Move) Short() string {
	switch m.What {
	case "hook":
		if m.To == "true" {
			return "now a hook"
		}
		return "no longer a hook"
	case "step":
		return "step " + m.From + " → " + m.To
	}
	return m.What + " " + m.From + " → " + m.To
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// suppressedKeys are the keys of the suppressed objects.
func suppressedKeys(r *Report) []string {
	var s []string
	for _, o := range r.Objects {
		if o.Status == Suppressed {
			s = append(s, o.Key.String())
		}
	}
	return s
}
