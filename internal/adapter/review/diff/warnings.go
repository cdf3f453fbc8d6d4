package diff

import (
	"fmt"
	"html"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/visible"
)

// Warning is one warning the renders carry on their objects
// (kudorender.dev/warnings, see package engine), said once for all the
// objects it is on.
type Warning struct {
	Text string
	// Status is Added (a warning of the new render that the old one did
	// not have on these objects), Removed (the old render's, gone) or
	// Unchanged.
	Status Status
	// Objects are those that carry it, in render order (the new render's;
	// the old one's for a removed warning).
	Objects []Key
}

// Unchanged is the status of a warning both renders carry.
const Unchanged Status = "unchanged"

// warnings lists the warnings of both renders: those of the new render in
// its order (added where an object did not carry them before), then those
// only the old render had.
func warnings(from, to []engine.Item) []Warning {
	had := carried(from)
	has := carried(to)
	var out []Warning
	index := map[string]int{}
	add := func(text string, st Status, k Key) {
		key := string(st) + "\x00" + text
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Warning{Text: text, Status: st})
		}
		out[i].Objects = append(out[i].Objects, k)
	}
	for _, it := range to {
		k := KeyOf(it.Obj)
		for _, l := range warningLines(it) {
			st := Added
			if had[k][l] {
				st = Unchanged
			}
			add(l, st, k)
		}
	}
	for _, it := range from {
		k := KeyOf(it.Obj)
		for _, l := range warningLines(it) {
			if !has[k][l] {
				add(l, Removed, k)
			}
		}
	}
	return out
}

// carried is the warnings of each object of a render.
func carried(items []engine.Item) map[Key]map[string]bool {
	out := map[Key]map[string]bool{}
	for _, it := range items {
		k := KeyOf(it.Obj)
		for _, l := range warningLines(it) {
			if out[k] == nil {
				out[k] = map[string]bool{}
			}
			out[k][l] = true
		}
	}
	return out
}

// warningLines are the warnings an item's object carries.
func warningLines(it engine.Item) []string {
	text := it.Obj.String("metadata", "annotations", engine.AnnWarnings)
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// shownWarningObjects is how many objects a warning names in a report.
const shownWarningObjects = 3

// where names the objects of a warning: the first few, and how many more.
func (w Warning) where() string {
	names := make([]string, 0, shownWarningObjects)
	for i, k := range w.Objects {
		if i == shownWarningObjects {
			break
		}
		names = append(names, k.String())
	}
	s := strings.Join(names, ", ")
	if n := len(w.Objects) - len(names); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}

// warningCounts says how many warnings are new, gone and unchanged.
func warningCounts(ws []Warning) (added, removed, unchanged int) {
	for _, w := range ws {
		switch w.Status {
		case Added:
			added++
		case Removed:
			removed++
		default:
			unchanged++
		}
	}
	return added, removed, unchanged
}

// textWarnings writes the warnings section of the text report: the new
// and gone warnings, and how many are unchanged.
func (p *printer) warnings(ws []Warning) {
	added, removed, unchanged := warningCounts(ws)
	if added+removed+unchanged == 0 {
		return
	}
	p.line("", "")
	p.line("", fmt.Sprintf("warnings on the objects (kudorender.dev/warnings): %d new, %d gone, %d unchanged", added, removed, unchanged))
	for _, w := range ws {
		switch w.Status {
		case Added:
			p.line(yellow, "  new: "+w.Text+" (on "+w.where()+")")
		case Removed:
			p.line(green, "  gone: "+w.Text+" (on "+w.where()+")")
		}
	}
}

// shownMarkdownWarnings is how many new or gone warnings the comment lists.
const shownMarkdownWarnings = 10

// markdownWarnings is the warnings section of the pull-request comment:
// the new and gone warnings (the first shownMarkdownWarnings), and how
// many are unchanged; "" when the renders carry none.
func markdownWarnings(ws []Warning) string {
	added, removed, unchanged := warningCounts(ws)
	if added+removed+unchanged == 0 {
		return ""
	}
	var b strings.Builder
	kind := "NOTE"
	if added > 0 {
		kind = "WARNING"
	}
	fmt.Fprintf(&b, "> [!%s]\n> **Warnings on the objects** (`kudorender.dev/warnings`): %d new, %d gone, %d unchanged\n", kind, added, removed, unchanged)
	n := 0
	for _, w := range ws {
		if w.Status == Unchanged {
			continue
		}
		if n == shownMarkdownWarnings {
			fmt.Fprintf(&b, "> - … and %d more (run `kudo-render diff` for all)\n", added+removed-n)
			break
		}
		n++
		word := map[Status]string{Added: "new", Removed: "gone"}[w.Status]
		fmt.Fprintf(&b, "> - %s: <code>%s</code> on %s\n", word, html.EscapeString(visible.Escape(w.Text)), html.EscapeString(visible.Escape(w.where())))
	}
	return b.String() + "\n"
}
