package graph

import (
	"fmt"
	"strings"
)

// DOT draws the render as a Graphviz digraph (every object unless
// opts.Detail says otherwise).
func DOT(in Input, opts Options) string {
	return Build(in, opts.Detail).DOT()
}

// DOT writes the graph as a Graphviz digraph: groups are clusters, waves
// are linked through an invisible anchor node each.
func (g *Graph) DOT() string {
	w := &dw{}
	w.line(0, `digraph "kudo-render" {`)
	w.line(1, `graph [compound=true, rankdir=TB, fontname="Helvetica", fontsize=11];`)
	w.line(1, `node [shape=box, fontname="Helvetica", fontsize=10];`)
	w.line(1, `edge [fontname="Helvetica", fontsize=9];`)
	w.line(1, fmt.Sprintf("// %d objects", g.Objects))
	if g.Note != "" {
		w.line(1, fmt.Sprintf(`label=%s; labelloc=t;`, dq(g.Note)))
	}
	for _, gr := range g.Groups {
		w.group(1, gr)
	}
	for _, e := range g.Edges {
		switch {
		case e.Order:
			style := "dashed"
			if e.Same {
				style = "invis"
			}
			w.line(1, fmt.Sprintf(`%s -> %s [ltail=%s, lhead=%s, style=%s, label=%s];`,
				dq(e.From+"_anchor"), dq(e.To+"_anchor"), dq("cluster_"+e.From), dq("cluster_"+e.To), style, dq(e.Label)))
		default:
			w.line(1, fmt.Sprintf(`%s -> %s [label=%s];`, dq(e.From), dq(e.To), dq(e.Label)))
		}
	}
	w.line(0, "}")
	return w.b.String()
}

type dw struct{ b strings.Builder }

func (w *dw) line(depth int, s string) { w.b.WriteString(strings.Repeat("  ", depth) + s + "\n") }

func (w *dw) group(depth int, g *Group) {
	w.line(depth, "subgraph "+dq("cluster_"+g.ID)+" {")
	w.line(depth+1, "label="+dq(g.Label)+";")
	w.line(depth+1, dq(g.ID+"_anchor")+" [shape=point, style=invis, width=0];")
	for _, sub := range g.Groups {
		w.group(depth+1, sub)
	}
	for _, n := range g.Nodes {
		var attrs []string
		attrs = append(attrs, "label="+dq(nodeLabel(n)))
		var style []string
		if n.Hook {
			style = append(style, "rounded", "bold")
		}
		if n.Off {
			style = append(style, "dashed")
			attrs = append(attrs, "fontcolor=gray40")
		} else if n.Toggle != "" {
			attrs = append(attrs, "color=blue")
		}
		if n.External {
			style = append(style, "dotted")
		}
		if len(style) > 0 {
			attrs = append(attrs, "style="+dq(strings.Join(style, ",")))
		}
		w.line(depth+1, dq(n.ID)+" ["+strings.Join(attrs, ", ")+"];")
	}
	w.line(depth, "}")
}

// dq quotes a DOT string, the control characters of each line escaped.
func dq(s string) string { return `"` + dotQuote.Replace(lines(s)) + `"` }

var dotQuote = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
