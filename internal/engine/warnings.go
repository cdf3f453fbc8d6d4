package engine

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// AnnWarnings carries, on an object, the warnings and notes of the render
// about it, one per line: a conversion to another API version, a field
// its API type does not have, a value copied out of a Secret, a problem
// of its package KUDO ignored. Argo CD and Flux show objects, not the
// renderer's stderr. The key is kudo-render's: an object without
// warnings has none, whatever its template wrote.
const AnnWarnings = "kudorender.dev/warnings"

// Bounds of AnnWarnings: the lines and bytes of one object's warnings
// (the API server takes 256 KiB of annotations per object). What does not
// fit is counted on a last line.
const (
	WarningsMaxLines     = 20
	WarningsMaxBytes     = 4096
	WarningsMaxLineBytes = 1024
)

// finding is a warning or a note of a render and the objects it is about.
type finding struct {
	d    *diag.Diagnostic
	objs []*object.Object
}

// findings collects the warnings and notes of a render, in the order they
// are found, until the render ends: then each object gets its own
// (annotate) and each problem is reported once (report).
type findings struct {
	list []*finding
}

// add records d about objs.
func (f *findings) add(d *diag.Diagnostic, objs ...*object.Object) {
	f.list = append(f.list, &finding{d: d, objs: objs})
}

// annotate writes on every object of items its warnings (AnnWarnings),
// masked as every other report of the render, each once; an object without
// any has no such annotation.
func (f *findings) annotate(items []Item, sec *secrets) {
	lines := map[*object.Object][]string{}
	for _, fd := range f.list {
		if len(fd.objs) == 0 {
			continue
		}
		c := sec.get().Diagnostic(fd.d)
		c.Resource = nil // the object it is on
		text := c.Error()
		for _, o := range fd.objs {
			if !contains(lines[o], text) {
				lines[o] = append(lines[o], text)
			}
		}
	}
	for _, it := range items {
		if ls := lines[it.Obj]; len(ls) > 0 {
			object.SetStrings(it.Obj.Map, map[string]string{AnnWarnings: WarningsText(ls)}, "metadata", "annotations")
		} else if ann := it.Obj.MapAt("metadata", "annotations"); ann != nil {
			delete(ann, AnnWarnings)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WarningsText joins warnings into the text of AnnWarnings: one per line,
// each ended by a line break (so YAML writes it as a literal block, a
// warning per line), line breaks inside one made spaces, a line cut at
// WarningsMaxLineBytes; at most WarningsMaxLines lines and
// WarningsMaxBytes bytes, a last line counting those left out.
func WarningsText(lines []string) string {
	clean := make([]string, len(lines))
	total := 0
	for i, l := range lines {
		clean[i] = cut(strings.Join(strings.Fields(l), " "), WarningsMaxLineBytes)
		total += len(clean[i]) + 1
	}
	if len(clean) <= WarningsMaxLines && total <= WarningsMaxBytes {
		return strings.Join(clean, "\n") + "\n"
	}
	var b strings.Builder
	for i, l := range clean {
		more := fmt.Sprintf("… and %d more (see the render's warnings)\n", len(clean)-i)
		if i == WarningsMaxLines-1 || b.Len()+len(l)+1+len(more) > WarningsMaxBytes {
			b.WriteString(more)
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// cut is s in at most n bytes, cut at a rune and ended with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n - len("…")
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}

// report gives each warning and note to opts (Note, else Warn), each
// problem once (diag.Collapse: a template's conversion in 1,000 instances
// is one line that counts them), in the order found.
func (f *findings) report(opts Options) {
	if len(f.list) == 0 {
		return
	}
	ds := make([]*diag.Diagnostic, len(f.list))
	for i, fd := range f.list {
		ds[i] = fd.d
	}
	for _, d := range diag.Collapse(ds) {
		opts.note(d)
	}
}
