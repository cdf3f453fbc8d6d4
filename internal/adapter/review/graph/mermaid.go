package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// Mermaid's default limits (mermaid.initialize: maxTextSize, maxEdges).
const (
	MermaidMaxChars = 50_000
	MermaidMaxEdges = 500
)

// Options of a drawing.
type Options struct {
	// Detail: Auto (the default) picks the finest level within the
	// limits for Mermaid, and Objects for DOT.
	Detail Detail
	// MaxChars and MaxEdges are the limits Auto keeps Mermaid within;
	// 0: MermaidMaxChars, MermaidMaxEdges.
	MaxChars, MaxEdges int
}

// Mermaid draws the render as a Mermaid flowchart.
func Mermaid(in Input, opts Options) string {
	if opts.MaxChars <= 0 {
		opts.MaxChars = MermaidMaxChars
	}
	if opts.MaxEdges <= 0 {
		opts.MaxEdges = MermaidMaxEdges
	}
	if opts.Detail != Auto {
		return Build(in, opts.Detail).Mermaid()
	}
	for _, d := range []Detail{Objects, Kinds, Steps, Waves} {
		g := Build(in, d)
		if d != Objects {
			g.Note = collapsed(d, g.Objects, opts)
		}
		if text := g.Mermaid(); fits(text, g, opts) {
			return text
		}
	}
	return firstWaves(in, opts)
}

// collapsed is the note of a collapsed drawing.
func collapsed(d Detail, objects int, opts Options) string {
	how := map[Detail]string{Kinds: "counts per kind in each step", Steps: "one node per step", Waves: "one node per wave"}[d]
	return fmt.Sprintf("Collapsed to %s: %d objects drawn one by one would exceed Mermaid's limits (%d characters, %d edges). kudo-render graph -o dot draws every object.",
		how, objects, opts.MaxChars, opts.MaxEdges)
}

func fits(text string, g *Graph, opts Options) bool {
	return len(text) <= opts.MaxChars && len(g.Edges) <= opts.MaxEdges
}

// firstWaves draws as many of the first waves, one node each, as fit.
func firstWaves(in Input, opts Options) string {
	var waves []int
	seen := map[int]bool{}
	for _, it := range in.Items {
		if !seen[it.Wave] {
			seen[it.Wave] = true
			waves = append(waves, it.Wave)
		}
	}
	sort.Ints(waves)
	best := ""
	for lo, hi := 1, len(waves); lo <= hi; {
		k := (lo + hi) / 2
		g := build(in, Waves, waves[k-1])
		g.Note = collapsed(Waves, len(in.Items), opts) + fmt.Sprintf(" Only the first %d of %d waves are drawn.", k, len(waves))
		if text := g.Mermaid(); fits(text, g, opts) {
			best, lo = text, k+1
		} else {
			hi = k - 1
		}
	}
	return best
}

// Mermaid writes the graph as a Mermaid flowchart.
func (g *Graph) Mermaid() string {
	w := &mw{}
	w.line(0, "%% kudo-render graph: "+fmt.Sprint(g.Objects)+" objects")
	w.line(0, "flowchart TB")
	if g.Note != "" {
		w.line(1, `note["`+mq(g.Note)+`"]`)
		w.classes["note"] = append(w.classes["note"], "note")
	}
	for _, gr := range g.Groups {
		w.group(1, gr)
	}
	for _, e := range g.Edges {
		switch {
		case e.Same:
			w.line(1, e.From+" ~~~ "+e.To)
		case e.Order:
			w.line(1, e.From+` -.->|"`+mq(e.Label)+`"| `+e.To)
		default:
			w.line(1, e.From+` -->|"`+mq(e.Label)+`"| `+e.To)
		}
	}
	w.line(1, "classDef hook stroke-width:3px")
	w.line(1, "classDef toggle stroke:#1f77b4,stroke-width:2px")
	w.line(1, "classDef off stroke-dasharray:5 5,color:#888")
	w.line(1, "classDef external fill:#eee,stroke-dasharray:2 2")
	w.line(1, "classDef note fill:#fff5d6,stroke:#d4a72c")
	for _, c := range []string{"hook", "toggle", "off", "external", "note"} {
		if ids := w.classes[c]; len(ids) > 0 {
			w.line(1, "class "+strings.Join(ids, ",")+" "+c)
		}
	}
	return w.b.String()
}

// mw writes Mermaid lines.
type mw struct {
	b       strings.Builder
	classes map[string][]string
}

func (w *mw) line(depth int, s string) {
	if w.classes == nil {
		w.classes = map[string][]string{}
	}
	w.b.WriteString(strings.Repeat("  ", depth) + s + "\n")
}

func (w *mw) group(depth int, g *Group) {
	w.line(depth, "subgraph "+g.ID+`["`+mq(g.Label)+`"]`)
	w.line(depth+1, "direction TB")
	for _, sub := range g.Groups {
		w.group(depth+1, sub)
	}
	for _, n := range g.Nodes {
		open, close := "[", "]"
		if n.Hook {
			open, close = "[[", "]]"
		}
		w.line(depth+1, n.ID+open+`"`+mq(nodeLabel(n))+`"`+close)
		for _, c := range nodeClasses(n) {
			w.classes[c] = append(w.classes[c], n.ID)
		}
	}
	w.line(depth, "end")
}

// nodeLabel is a node's label with its marks.
func nodeLabel(n *Node) string {
	l := n.Label
	if n.Hook {
		l += "\n⟳ hook: runs once"
	}
	switch {
	case n.Off:
		l += "\ntoggle " + n.Toggle + ": not rendered"
	case n.Toggle != "":
		l += "\ntoggle " + n.Toggle
	}
	if n.External {
		l += "\n(not in this render)"
	}
	return l
}

func nodeClasses(n *Node) []string {
	var c []string
	if n.Hook {
		c = append(c, "hook")
	}
	switch {
	case n.Off:
		c = append(c, "off")
	case n.Toggle != "":
		c = append(c, "toggle")
	}
	if n.External {
		c = append(c, "external")
	}
	return c
}

// mq quotes text for a Mermaid label: control characters escaped (a
// carriage return would end the line, and the markdown fence around the
// graph), entities for the characters Mermaid reads ("%%" starts a
// directive such as %%{init}%% anywhere in the text, a backtick could
// close the fence), <br/> for line breaks.
func mq(s string) string { return mermaidQuote.Replace(lines(s)) }

var mermaidQuote = strings.NewReplacer("#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "%", "#37;", "`", "#96;", "\n", "<br/>")

// lines is s with the control characters of each line escaped.
func lines(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = visible.Escape(l)
	}
	return strings.Join(ls, "\n")
}
