package adopt

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kudo-render/kudo-render/review/diff"
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
		fmt.Fprintf(&b, "%s %s/%s (%s)\n", role, r.Namespace, in.Name, in.OperatorVersion)
	}
	width := 0
	for _, o := range r.Objects {
		width = max(width, len(o.Status))
	}
	for _, o := range r.Objects {
		fmt.Fprintf(&b, "  %-*s  %s", width, o.Status, o.Key)
		switch {
		case o.Reason != "":
			fmt.Fprintf(&b, ": %s", o.Reason)
		case o.Note != "":
			fmt.Fprintf(&b, " (%s)", o.Note)
		case o.Status == HookNotLive:
			b.WriteString(" (runs at every sync)")
		}
		b.WriteString("\n")
		for _, f := range o.Fields {
			fmt.Fprintf(&b, "      %s\n", fieldLine(f))
		}
		for _, by := range o.ChangedBy {
			fmt.Fprintf(&b, "      changed by %s since KUDO applied it\n", by)
		}
	}
	for _, wr := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wr)
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fieldLine is one changed field: ~ path: from → to.
func fieldLine(f diff.Field) string {
	sym := map[diff.Op]string{diff.OpAdded: "+", diff.OpRemoved: "-", diff.OpChanged: "~", diff.OpReordered: "↕"}[f.Op]
	from, to := oneLine(f.From), oneLine(f.To)
	if f.Masked {
		from, to = diff.Hidden, diff.Hidden
	}
	switch {
	case len(f.Lines) > 0:
		return fmt.Sprintf("%s %s: %d lines differ", sym, f.Path, len(f.Lines))
	case f.Op == diff.OpAdded:
		return fmt.Sprintf("%s %s: %s", sym, f.Path, to)
	case f.Op == diff.OpRemoved:
		return fmt.Sprintf("%s %s: %s", sym, f.Path, from)
	}
	return fmt.Sprintf("%s %s: %s → %s", sym, f.Path, from, to)
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return strings.ReplaceAll(s, "\n", " ")
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
