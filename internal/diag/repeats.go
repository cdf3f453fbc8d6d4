package diag

import (
	"fmt"
	"strings"
)

// shownOthers is how many other resources a collapsed diagnostic names.
const shownOthers = 3

// Collapse says each problem once. Diagnostics that differ only in the
// name and namespace of their resource (one template's conversion in
// 1,000 instances) become the first of them, its message followed by how
// many other objects of that kind it concerns and the first of their
// names; a diagnostic repeated exactly (one dependency's typo in 1,000
// instances) becomes one that says how many times. Order is that of the
// first of each group; ds is not changed.
func Collapse(ds []*Diagnostic) []*Diagnostic {
	type group struct {
		first  *Diagnostic
		times  int
		others []string // namespace/name of the other resources, once each
		seen   map[string]bool
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, d := range ds {
		k, who := collapseKey(d)
		g := byKey[k]
		if g == nil {
			g = &group{first: d, seen: map[string]bool{who: true}}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.times++
		if !g.seen[who] {
			g.seen[who] = true
			g.others = append(g.others, who)
		}
	}
	out := make([]*Diagnostic, len(groups))
	for i, g := range groups {
		out[i] = g.first
		switch {
		case len(g.others) > 0:
			c := *g.first
			c.Msg += fmt.Sprintf(" (and %d more %s: %s)", len(g.others), plural(len(g.others), "object", "objects"), names(g.others))
			out[i] = &c
		case g.times > 1:
			c := *g.first
			c.Msg += fmt.Sprintf(" (%d times)", g.times)
			out[i] = &c
		}
	}
	return out
}

// collapseKey is what a diagnostic says but for the name of its
// resource, and that name (namespace/name).
func collapseKey(d *Diagnostic) (key, who string) {
	var kind string
	if r := d.Resource; r != nil {
		kind = r.APIVersion + "\x00" + r.Kind
		who = r.Name
		if r.Namespace != "" {
			who = r.Namespace + "/" + r.Name
		}
	}
	return strings.Join([]string{string(d.Severity), d.File, fmt.Sprint(d.Line, ":", d.Column), d.Field, d.Msg, kind, fmt.Sprint(d.Resource != nil)}, "\x00"), who
}

// names lists the first shownOthers names, and "…" when there are more.
func names(all []string) string {
	if len(all) <= shownOthers {
		return strings.Join(all, ", ")
	}
	return strings.Join(all[:shownOthers], ", ") + ", …"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
