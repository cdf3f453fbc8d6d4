package diff

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// CommentLimit is GitHub's limit on a pull-request comment, in
// characters.
const CommentLimit = 65536

// Markdown is the report as a pull-request comment (GitHub and GitLab
// markdown): a title, the summary, the warnings the change brings or
// removes, then one collapsible section per object. It stays within limit characters (0: CommentLimit): sections
// that do not fit are left out and a visible marker says how many.
func (r *Report) Markdown(title string, limit int) string {
	if limit <= 0 {
		limit = CommentLimit
	}
	if title == "" {
		title = "kudo-render diff"
	}
	head := fmt.Sprintf("### %s\n\n**%s**\n\n", title, r.Counts().Summary()) + refusals(r) + markdownWarnings(r.Warnings)
	var tail string
	if s := suppressedKeys(r); len(s) > 0 {
		for i, k := range s {
			s[i] = "<code>" + html.EscapeString(visible.Escape(k)) + "</code>"
		}
		tail = "Changed only in ignored fields: " + strings.Join(s, ", ") + "\n"
	}
	var shown []Object
	for _, o := range r.Objects {
		if o.Status != Suppressed {
			shown = append(shown, o)
		}
	}
	var b strings.Builder
	b.WriteString(head)
	used := utf8.RuneCountInString(head) + utf8.RuneCountInString(tail)
	for i, o := range shown {
		sec := section(o)
		n := utf8.RuneCountInString(sec)
		mark := truncated(len(shown) - i)
		if used+n+utf8.RuneCountInString(truncated(len(shown)-i-1)) > limit {
			if budget := limit - used - utf8.RuneCountInString(mark); i == 0 && budget > 200 {
				b.WriteString(cut(o, budget))
			}
			b.WriteString(mark)
			return b.String()
		}
		b.WriteString(sec)
		used += n
	}
	b.WriteString(tail)
	return b.String()
}

// truncated is the marker for n objects left out ("" for none).
func truncated(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("\n> [!WARNING]\n> **Truncated:** %d more changed objects are not shown: the comment would exceed %d characters. Run `kudo-render diff` for the whole report.\n", n, CommentLimit)
}

// section is one object's collapsible section.
func section(o Object) string {
	return sectionOf(o, diffLines(o))
}

func sectionOf(o Object, lines []string) string {
	mark := map[Status]string{Added: "+", Removed: "-", Changed: "~"}[o.Status]
	sum := fmt.Sprintf("%s %s <code>%s</code> (%s)", mark, o.Status, html.EscapeString(visible.Escape(o.Key.String())), html.EscapeString(visible.Escape(summaryOf(o))))
	body := strings.Join(lines, "\n")
	f := fence(body)
	return fmt.Sprintf("<details><summary>%s</summary>\n\n%sdiff\n%s\n%s\n\n</details>\n", sum, f, body, f)
}

// cut is an object's section with as many lines as fit in budget.
func cut(o Object, budget int) string {
	lines := diffLines(o)
	for len(lines) > 0 && utf8.RuneCountInString(sectionOf(o, lines)) > budget {
		lines = lines[:len(lines)*3/4]
		if len(lines) > 0 {
			lines[len(lines)-1] = "# … (cut: too long for a comment)"
		}
	}
	return sectionOf(o, lines)
}

// summaryOf is the short description after an object's key.
func summaryOf(o Object) string {
	var parts []string
	moved := false
	for _, m := range o.Moves {
		parts = append(parts, m.Short())
		moved = moved || m.What == "wave"
	}
	if !moved {
		parts = append([]string{fmt.Sprintf("wave %d", o.Wave)}, parts...)
	}
	if o.Hook && !slices.ContainsFunc(o.Moves, func(m Move) bool { return m.What == "hook" }) {
		parts = append(parts, "hook")
	}
	if len(o.Fields) > 0 {
		parts = append(parts, plural(len(o.Fields), "field"))
	}
	if o.HiddenFields > 0 {
		parts = append(parts, fmt.Sprintf("%d hidden", o.HiddenFields))
	}
	switch {
	case o.Update.Fails():
		parts = append(parts, "update refused")
	case o.Update != nil:
		parts = append(parts, "recreated")
	}
	return strings.Join(parts, ", ")
}

// refusals is the comment's warning about the updates that will fail,
// each with what to do ("" when none).
func refusals(r *Report) string {
	var b strings.Builder
	for _, o := range r.Objects {
		if !o.Update.Fails() {
			continue
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "> [!CAUTION]\n> **The API server will refuse %s**: the sync fails until it is done by hand.\n", plural(r.Counts().Refused, "update"))
		}
		fmt.Fprintf(&b, ">\n> - <code>%s</code>: %s<br>To apply it: %s\n", esc(o.Key.String()), esc(o.Update.String()), esc(o.Update.Advice))
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// esc is text for markdown: control characters escaped, HTML's special
// characters as entities.
func esc(s string) string { return html.EscapeString(visible.Escape(s)) }

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// diffLines are an object's changes in diff syntax: "@@ path @@" headers,
// "-" old and "+" new lines.
func diffLines(o Object) []string {
	out := rawDiffLines(o)
	for i, l := range out {
		out[i] = visible.Escape(l) // a carriage return would end the line, or the fence
	}
	return out
}

func rawDiffLines(o Object) []string {
	var out []string
	prefix := func(op string, v string) {
		for _, l := range strings.Split(v, "\n") {
			out = append(out, op+" "+l)
		}
	}
	if o.Body != "" {
		prefix(map[Status]string{Added: "+", Removed: "-"}[o.Status], strings.TrimSuffix(o.Body, "\n"))
		return out
	}
	for _, m := range o.Moves {
		out = append(out, "@@ "+m.String()+" @@")
	}
	if o.Update != nil {
		for _, l := range o.Update.Lines() {
			out = append(out, "! "+l)
		}
	}
	for _, f := range o.Fields {
		head := "@@ " + f.Path.String()
		if f.Op != OpChanged {
			head += " (" + string(f.Op) + ")"
		}
		out = append(out, head+" @@")
		switch {
		case f.Lines != nil:
			for _, l := range f.Lines {
				out = append(out, l.String())
			}
		case f.Op == OpReordered:
			prefix("-", f.From)
			prefix("+", f.To)
		default:
			if f.Op != OpAdded {
				prefix("-", f.From)
			}
			if f.Op != OpRemoved {
				prefix("+", f.To)
			}
		}
	}
	return out
}

// CodeBlock is body in a fenced code block of the language: a fence longer
// than any run of backticks in body, so that nothing in it closes the
// block.
func CodeBlock(lang, body string) string {
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	f := fence(body)
	return f + lang + "\n" + body + f + "\n"
}

// fence is a code fence longer than any run of backticks in s.
func fence(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}
