package adopt

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
)

// statusOrder is the order of the summary line.
var statusOrder = []Status{Unchanged, Changed, Restarts, CannotApply, NotLive, HookNotLive, NotRendered}

// Text writes the report for a terminal: the Instances, one line per
// object, the changed fields under their object, and a verdict.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	for i, in := range r.Instances {
		role := "Instance"
		if i > 0 {
			role = "  dependency Instance"
		}
		fmt.Fprintf(&b, "%s %s/%s (%s)\n", role, r.Namespace, in.Name, clean(in.OperatorVersion))
	}
	width := 0
	for _, o := range r.Objects {
		width = max(width, len(o.Status))
	}
	for _, o := range r.Objects {
		fmt.Fprintf(&b, "  %-*s  %s", width, o.Status, clean(o.Key.String()))
		switch {
		case o.Reason != "":
			fmt.Fprintf(&b, ": %s", clean(o.Reason))
		case o.Note != "":
			fmt.Fprintf(&b, " (%s)", clean(o.Note))
		case o.Status == HookNotLive:
			b.WriteString(" (runs at every sync)")
		}
		b.WriteString("\n")
		for _, f := range o.Fields {
			fmt.Fprintf(&b, "      %s\n", fieldLine(f))
		}
		for _, by := range o.ChangedBy {
			fmt.Fprintf(&b, "      changed by %s since KUDO applied it\n", clean(by))
		}
	}
	for _, wr := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", clean(wr))
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fieldLine is one changed field: ~ path: from → to.
func fieldLine(f diff.Field) string {
	sym := map[diff.Op]string{diff.OpAdded: "+", diff.OpRemoved: "-", diff.OpChanged: "~", diff.OpReordered: "↕"}[f.Op]
	from, to, path := oneLine(f.From), oneLine(f.To), clean(f.Path.String())
	if f.Masked {
		from, to = diff.Hidden, diff.Hidden
	}
	switch {
	case len(f.Lines) > 0:
		return fmt.Sprintf("%s %s: %d lines differ", sym, path, len(f.Lines))
	case f.Op == diff.OpAdded:
		return fmt.Sprintf("%s %s: %s", sym, path, to)
	case f.Op == diff.OpRemoved:
		return fmt.Sprintf("%s %s: %s", sym, path, from)
	}
	return fmt.Sprintf("%s %s: %s → %s", sym, path, from, to)
}

// oneLine is a value on one line of at most 120 bytes, control
// characters (which would reach a terminal or end a markdown block) shown
// as "?".
func oneLine(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\n", " "))
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:117], "") + "..."
	}
	return clean(s)
}

// clean shows the control characters of a text from the cluster as "?":
// they would reach a terminal or end a markdown block.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

// Markdown is the report as a pull-request comment: the verdict, then the
// text report in a fenced block longer than any run of backticks in it.
func (r *Report) Markdown() (string, error) {
	var b strings.Builder
	if err := r.Text(&b); err != nil {
		return "", err
	}
	icon := "✅"
	if !r.Adoptable() {
		icon = "⚠️"
	}
	return fmt.Sprintf("### kudo-render adopt check\n\n%s **%s**\n\n%s", icon, r.Summary(), diff.CodeBlock("text", b.String())), nil
}

// Summary is the verdict line: counts by status, then whether the
// install is adoptable.
func (r *Report) Summary() string {
	c := r.Counts()
	var parts []string
	for _, s := range statusOrder {
		if c[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[s], s))
		}
	}
	verdict := "adoptable: the first sync changes nothing and restarts nothing"
	if !r.Adoptable() {
		verdict = "not adoptable as it is: the first sync would change what is listed"
	}
	if len(parts) == 0 {
		parts = []string{"no objects"}
	}
	return strings.Join(parts, ", ") + "; " + verdict
}

// JSON is the report as JSON.
func (r *Report) JSON() ([]byte, error) {
	out := struct {
		*Report
		Adoptable bool
	}{r, r.Adoptable()}
	data, err := json.MarshalIndent(out, "", "  ")
	return append(data, '\n'), err
}

// PatchesText writes the patches of Apply, one per line with its body.
func PatchesText(w io.Writer, patches []Patch, dryRun bool) error {
	var b strings.Builder
	verb := "patched"
	if dryRun {
		verb = "would patch"
	}
	for _, p := range patches {
		fmt.Fprintf(&b, "%s %s: %s\n", verb, p.Key, p.What)
		if dryRun {
			fmt.Fprintf(&b, "    %s\n", p.Data)
		}
	}
	if len(patches) == 0 {
		b.WriteString("nothing to do: the install is already adopted\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
