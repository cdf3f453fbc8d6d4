package verify

import (
	"bytes"
	"slices"
	"text/template/parse"

	"github.com/kudo-render/kudo-render/internal/render/tmpl"
)

// implicits are the top-level variables templates see: KUDO's
// renderer.NewVariableMap().WithDefaults() plus Params and Pipes, and
// kudo-render's Resources (objects of the framework's resource
// definitions).
var implicits = []string{
	"OperatorName", "Name", "Namespace", "AppVersion", "OperatorVersion",
	"PlanName", "PhaseName", "StepName", "Params", "Pipes", "Resources",
}

func isImplicit(name string) bool { return slices.Contains(implicits, name) }

// value is what the walker knows about the value of an expression.
type value int

const (
	unknown   value = iota // anything else
	root                   // the data templates are executed with
	paramsMap              // .Params
	pipesMap               // .Pipes
)

// useKind says what a use refers to.
type useKind int

const (
	useImplicit  useKind = iota // a field of the root data
	useParam                    // a parameter, by field or index
	useParamSoft                // a parameter tested with hasKey: no error if undefined
	usePipe                     // a pipe key
)

// use is one reference found in a template.
type use struct {
	kind useKind
	name string
	line int
}

// analysis is what a template refers to.
type analysis struct {
	uses []use
	// dynamic is set when the parameters (or the whole data) are used as
	// a value, e.g. `range $k, $v := .Params` or `toYaml .Params`: any
	// parameter may be used then.
	dynamic bool
}

// analyse walks every parse tree of t fully. The dot of a `define`d
// template is what its `template` calls pass, when they all agree.
func analyse(t *tmpl.Template, src []byte) *analysis {
	trees := t.Trees()
	// First pass: what each defined template is called with.
	pre := &walker{src: src, calls: map[string][]value{}}
	for _, tr := range trees {
		pre.tree(tr, root)
	}
	w := &walker{src: src, calls: map[string][]value{}, a: &analysis{}}
	for _, tr := range trees {
		dot := root
		if tr.Name != t.Name() {
			calls := pre.calls[tr.Name]
			dot = merge(calls)
			if dot == unknown && (slices.Contains(calls, root) || slices.Contains(calls, paramsMap)) {
				w.a.dynamic = true // called with the parameters and with other data
			}
		}
		w.tree(tr, dot)
	}
	return w.a
}

// merge is the dot of a defined template called with each of vs.
func merge(vs []value) value {
	if len(vs) == 0 {
		return root
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return unknown
		}
	}
	return vs[0]
}

type walker struct {
	src   []byte
	calls map[string][]value
	a     *analysis // nil in the first pass
}

// scope is the dot and the variables at one point of a template.
type scope struct {
	dot  value
	vars map[string]value
}

func (s *scope) child(dot value) *scope {
	vars := make(map[string]value, len(s.vars))
	for k, v := range s.vars {
		vars[k] = v
	}
	return &scope{dot: dot, vars: vars}
}

func (w *walker) tree(tr *parse.Tree, dot value) {
	if tr == nil || tr.Root == nil {
		return
	}
	w.node(tr.Root, &scope{dot: dot, vars: map[string]value{"$": dot}})
}

func (w *walker) line(pos parse.Pos) int {
	p := min(max(int(pos), 0), len(w.src))
	return 1 + bytes.Count(w.src[:p], []byte("\n"))
}

func (w *walker) record(kind useKind, name string, pos parse.Pos) {
	if w.a != nil {
		w.a.uses = append(w.a.uses, use{kind: kind, name: name, line: w.line(pos)})
	}
}

// escape notes a value used as a whole.
func (w *walker) escape(v value) {
	if w.a != nil && (v == root || v == paramsMap) {
		w.a.dynamic = true
	}
}

func (w *walker) node(n parse.Node, s *scope) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			w.node(c, s)
		}
	case *parse.ActionNode:
		v := w.pipe(n.Pipe, s)
		if len(n.Pipe.Decl) == 0 {
			w.escape(v) // printed
		}
	case *parse.IfNode:
		c := s.child(s.dot)
		w.pipe(n.Pipe, c)
		w.list(n.List, c, s.dot)
		w.list(n.ElseList, c, s.dot)
	case *parse.WithNode:
		c := s.child(s.dot)
		v := w.pipe(n.Pipe, c)
		w.list(n.List, c, v)
		w.list(n.ElseList, c, s.dot)
	case *parse.RangeNode:
		c := s.child(s.dot)
		v := w.pipe(n.Pipe, c)
		w.escape(v)
		for _, d := range n.Pipe.Decl {
			c.vars[d.Ident[0]] = unknown // key or element
		}
		w.list(n.List, c, unknown)
		w.list(n.ElseList, c, s.dot)
	case *parse.TemplateNode:
		v := unknown
		if n.Pipe != nil {
			v = w.pipe(n.Pipe, s)
		}
		w.calls[n.Name] = append(w.calls[n.Name], v)
	}
	// TextNode, CommentNode, BreakNode, ContinueNode: nothing to see.
}

func (w *walker) list(l *parse.ListNode, s *scope, dot value) {
	if l != nil {
		w.node(l, s.child(dot))
	}
}

// pipe walks a pipeline, declares its variables in s and returns its
// value.
func (w *walker) pipe(p *parse.PipeNode, s *scope) value {
	if p == nil {
		return unknown
	}
	v := unknown
	for i, c := range p.Cmds {
		if i > 0 {
			w.escape(v) // passed to the next command
		}
		v = w.command(c, s, i > 0)
	}
	if len(p.Cmds) != 1 {
		v = unknown
	}
	for _, d := range p.Decl {
		if len(p.Decl) == 1 {
			s.vars[d.Ident[0]] = v
		} else {
			s.vars[d.Ident[0]] = unknown
		}
	}
	return v
}

// command walks one command of a pipeline; piped says the previous
// command's value is passed as the last argument.
func (w *walker) command(c *parse.CommandNode, s *scope, piped bool) value {
	if len(c.Args) == 0 {
		return unknown
	}
	fn, isFunc := c.Args[0].(*parse.IdentifierNode)
	if !isFunc {
		if len(c.Args) == 1 && !piped {
			return w.arg(c.Args[0], s)
		}
		// A method call with arguments: every argument is a value.
		for _, a := range c.Args {
			w.escape(w.arg(a, s))
		}
		return unknown
	}
	args := c.Args[1:]
	switch fn.Ident {
	case "index", "get", "hasKey":
		if len(args) == 0 {
			return unknown
		}
		v := w.arg(args[0], s)
		for i, a := range args[1:] {
			str, ok := a.(*parse.StringNode)
			if !ok || v == unknown {
				w.escape(v) // indexed with a computed key
				for _, rest := range args[1+i:] {
					w.escape(w.arg(rest, s))
				}
				return unknown
			}
			if fn.Ident == "hasKey" && v == paramsMap {
				w.record(useParamSoft, str.Text, str.Pos)
				return unknown
			}
			v = w.field(v, str.Text, str.Pos)
		}
		if fn.Ident == "hasKey" || piped {
			return unknown
		}
		return v
	}
	for _, a := range args {
		w.escape(w.arg(a, s))
	}
	return unknown
}

// arg walks one argument and returns its value.
func (w *walker) arg(n parse.Node, s *scope) value {
	switch n := n.(type) {
	case *parse.DotNode:
		return s.dot
	case *parse.FieldNode:
		return w.fields(s.dot, n.Ident, n.Pos)
	case *parse.VariableNode:
		v, ok := s.vars[n.Ident[0]]
		if !ok {
			v = unknown
		}
		return w.fields(v, n.Ident[1:], n.Pos)
	case *parse.ChainNode:
		return w.fields(w.arg(n.Node, s), n.Field, n.Pos)
	case *parse.PipeNode:
		return w.pipe(n, s)
	}
	return unknown
}

// fields follows .A.B.C from v.
func (w *walker) fields(v value, idents []string, pos parse.Pos) value {
	for _, id := range idents {
		v = w.field(v, id, pos)
	}
	return v
}

// field is v.name.
func (w *walker) field(v value, name string, pos parse.Pos) value {
	switch v {
	case root:
		if !isImplicit(name) {
			w.record(useImplicit, name, pos)
		}
		switch name {
		case "Params":
			return paramsMap
		case "Pipes":
			return pipesMap
		}
	case paramsMap:
		w.record(useParam, name, pos)
	case pipesMap:
		w.record(usePipe, name, pos)
	}
	return unknown
}
