package tmpl

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/Masterminds/sprig/v3"

	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Error is a template problem at a line of a template file.
type Error struct {
	Template string // the template's name, e.g. "templates/service.yaml"
	Line     int    // line in the template file; 0 when unknown
	Msg      string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return e.Template + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
	}
	return e.Template + ": " + e.Msg
}

// Template is a parsed template.
type Template struct {
	name string
	t    *template.Template
	// lines maps the first byte of every text node's text to the line of
	// the template where that text starts. text/template writes a text
	// node's bytes to the output unchanged, so a Write whose slice starts
	// at one of these bytes tells where the output came from.
	lines map[*byte]int
	// builders are the list builders the template calls, bound to the
	// budget of each execution (see budgeted).
	builders []string
	// prepared holds copies of t ready to execute (*prepared): cloning
	// the template and binding the budgeted functions cost more than
	// executing a small template, and a copy can run again once done.
	prepared sync.Pool
}

// prepared is a copy of a template with its list builders bound to b.
type prepared struct {
	t *template.Template
	b *budget
}

// funcs is the function map, built on first use (commands that parse no
// template do not pay for it).
var funcs = sync.OnceValue(FuncMap)

// Parse parses src as the template name (a path such as
// "templates/service.yaml", used in every message).
//
// It parses as text/template's Template.Parse does, against every
// function templates may call, but the template it keeps knows only the
// functions src calls: text/template copies a template's function maps
// whenever it is cloned for an execution and checks every function added,
// which for all of them costs more than parsing most templates.
func Parse(name string, src []byte) (*Template, error) {
	trees, err := parse.Parse(name, string(src), "", "", funcs(), parseBuiltins)
	if err != nil {
		return nil, tidy(name, err)
	}
	tp := &Template{name: name, lines: map[*byte]int{}}
	starts := strictyaml.LineStarts(src)                // as go-yaml counts the rendered lines
	used := map[string]any{emitFunc: funcs()[emitFunc]} // guardAction adds calls of it
	for _, tree := range trees {
		walk(tree.Root, func(n parse.Node) {
			switch n := n.(type) {
			case *parse.TextNode:
				tp.index(n, starts)
			case *parse.ActionNode:
				guardAction(tree, n)
			case *parse.IdentifierNode:
				if f, ok := funcs()[n.Ident]; ok {
					used[n.Ident] = f
				}
			}
		})
	}
	tp.t = template.New(name).Option("missingkey=error").Funcs(used)
	for n, tree := range trees {
		if _, err := tp.t.AddParseTree(n, tree); err != nil {
			return nil, tidy(name, err)
		}
	}
	for _, b := range listBuilders {
		if _, ok := used[b]; ok {
			tp.builders = append(tp.builders, b)
		}
	}
	return tp, nil
}

// parseBuiltins are the names of text/template's builtin functions, which
// its parser accepts besides the function map (it reads only the names).
var parseBuiltins = map[string]any{"and": true, "call": true, "html": true, "index": true, "slice": true,
	"js": true, "len": true, "not": true, "or": true, "print": true, "printf": true, "println": true,
	"urlquery": true, "eq": true, "ge": true, "gt": true, "le": true, "lt": true, "ne": true}

// walk calls visit for every node under n but lists and pipelines, whose
// parts it walks: the text and actions of lists, the pipelines of actions,
// branches and template calls, their commands, the arguments of commands.
// Functions are called only in identifier nodes, and they are visited.
func walk(n parse.Node, visit func(parse.Node)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walk(c, visit)
			}
		}
		return
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walk(c, visit)
			}
		}
		return
	}
	visit(n)
	switch n := n.(type) {
	case *parse.ActionNode:
		walk(n.Pipe, visit)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, visit)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, visit)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, visit)
	case *parse.TemplateNode:
		walk(n.Pipe, visit)
	case *parse.CommandNode:
		for _, a := range n.Args {
			walk(a, visit)
		}
	case *parse.ChainNode:
		walk(n.Node, visit)
	}
}

func walkBranch(b *parse.BranchNode, visit func(parse.Node)) {
	walk(b.Pipe, visit)
	walk(b.List, visit)
	walk(b.ElseList, visit)
}

// guardAction makes an action that prints end in the emit check, so a
// value is measured before text/template formats it.
func guardAction(tree *parse.Tree, n *parse.ActionNode) {
	if p := n.Pipe; p != nil && len(p.Decl) == 0 && len(p.Cmds) > 0 {
		id := parse.NewIdentifier(emitFunc).SetTree(tree).SetPos(n.Pos)
		p.Cmds = append(p.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos, Args: []parse.Node{id}})
	}
}

// Name returns the template's name.
func (t *Template) Name() string { return t.name }

// Tree returns the parse trees of the template and the templates it
// defines, for static checks.
func (t *Template) Trees() []*parse.Tree {
	var out []*parse.Tree
	for _, sub := range t.t.Templates() {
		if sub.Tree != nil {
			out = append(out, sub.Tree)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// index records the template line where the text of n starts.
// starts are the offsets of the lines of the source.
func (t *Template) index(n *parse.TextNode, starts []int) {
	if len(n.Text) > 0 {
		t.lines[&n.Text[0]] = sort.Search(len(starts), func(i int) bool { return starts[i] > int(n.Pos) })
	}
}

// Execute renders the template with data.
func (t *Template) Execute(data any) (*Output, error) { return t.ExecuteWithin(data, nil) }

// ExecuteWithin is Execute within the budget of a render: the text it
// renders is charged to b's render-bytes as it is written, and [Decode] of
// the output charges b's render-values. A nil b bounds nothing but the
// per-template limits.
func (t *Template) ExecuteWithin(data any, b *limits.Budget) (*Output, error) {
	rec := &recorder{lines: t.lines, max: limits.Current().TemplateBytes, budget: b, name: t.name}
	p, err := t.prepare()
	if err != nil {
		return nil, tidy(t.name, err)
	}
	err = p.t.Execute(rec, data)
	t.prepared.Put(p) // executing leaves the template as it was
	rec.settle()
	if err != nil {
		return nil, suggestKey(tidy(t.name, err), data)
	}
	return &Output{Name: t.name, Text: rec.buf.Bytes(), marks: rec.marks, budget: b}, nil
}

// prepare returns a copy of the template to execute with a fresh budget.
func (t *Template) prepare() (*prepared, error) {
	if p, ok := t.prepared.Get().(*prepared); ok {
		*p.b = *newBudget()
		return p, nil
	}
	exec, err := t.t.Clone()
	if err != nil {
		return nil, err
	}
	b := newBudget()
	exec.Funcs(budgeted(b, t.builders))
	return &prepared{t: exec, b: b}, nil
}

// Render parses and executes in one call.
func Render(name string, src []byte, data any) (*Output, error) {
	t, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	return t.Execute(data)
}

type mark struct {
	off  int // offset in the output
	line int // template line of the text written there; 0 for action output
}

type recorder struct {
	max   int64 // --max-template-bytes, read once per execution
	buf   bytes.Buffer
	lines map[*byte]int
	marks []mark
	// budget is the render's; charged is what the text has taken from it
	// so far, in steps of chargeStep bytes.
	budget  *limits.Budget
	charged int64
	name    string
}

// chargeStep is how much of the render's budget a template takes at a
// time: one atomic operation per step rather than per write.
const chargeStep = 64 << 10

func (r *recorder) Write(p []byte) (int, error) {
	n := int64(r.buf.Len()) + int64(len(p))
	if n > r.max {
		return 0, limits.Err("template-bytes", r.max, "the rendered text")
	}
	if n > r.charged && r.budget != nil {
		step := max(n-r.charged, min(chargeStep, r.max-r.charged))
		if r.budget.Charge(limits.RenderBytes, step, "") != nil {
			step = n - r.charged // what is left may still hold this write
			if err := r.budget.Charge(limits.RenderBytes, step, "the rendered text"); err != nil {
				return 0, err
			}
		}
		r.charged += step
	}
	if len(p) > 0 {
		r.marks = append(r.marks, mark{off: r.buf.Len(), line: r.lines[&p[0]]})
	}
	return r.buf.Write(p)
}

// settle gives back to the budget what the last step took beyond the
// text.
func (r *recorder) settle() {
	r.budget.Refund(limits.RenderBytes, r.charged-int64(r.buf.Len()))
}

// Output is rendered text that remembers where each part came from.
type Output struct {
	Name   string
	Text   []byte
	marks  []mark
	starts []int // offsets of the lines, see lineStarts
	// budget is the render's budget the text was rendered within; Decode
	// charges it the values it makes.
	budget *limits.Budget
}

// SourceLine maps a 1-based line of the rendered text to the line of the
// template that produced it. Text copied from the template maps exactly;
// output of an action maps to the line where the preceding text ended. It
// returns 0 when nothing is known.
func (o *Output) SourceLine(line int) int {
	if line < 1 {
		return 0
	}
	starts := o.lineStarts()
	off := len(o.Text)
	if line <= len(starts) {
		off = starts[line-1]
	}
	// the last mark starting at or before off
	i := sort.Search(len(o.marks), func(i int) bool { return o.marks[i].off > off }) - 1
	if i < 0 {
		return 0
	}
	if m := o.marks[i]; m.line > 0 {
		return m.line + o.lineOf(off) - o.lineOf(m.off)
	}
	// Output of an action: the line where the text before it ends. Lines
	// the action itself wrote are not template lines.
	for j := i - 1; j >= 0; j-- {
		if m := o.marks[j]; m.line > 0 {
			return m.line + o.lineOf(o.marks[j+1].off) - o.lineOf(m.off)
		}
	}
	return 1
}

// lineStarts returns the offset of every line of the text, computed once
// (decodeParallel computes it before its goroutines read it).
func (o *Output) lineStarts() []int {
	if o.starts == nil {
		o.starts = strictyaml.LineStarts(o.Text) // lines as go-yaml counts them
	}
	return o.starts
}

// lineOf returns the 1-based line of the text that holds offset off.
func (o *Output) lineOf(off int) int {
	starts := o.lineStarts()
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

var (
	// "template: NAME:12:5: executing \"NAME\" at <.X>: msg"
	execRE = lazy.Regexp(`^template: (.*?):(\d+)(?::\d+)?: executing "[^"]*" (at <.*)$`)
	// "template: NAME:12: msg"
	parseRE = lazy.Regexp(`^template: (.*?):(\d+): (.*)$`)
)

// tidy turns text/template's errors into *Error with the template line.
func tidy(name string, err error) error {
	msg := err.Error()
	var ee template.ExecError
	if errors.As(err, &ee) {
		msg = ee.Err.Error()
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	if m := execRE().FindStringSubmatch(msg); m != nil {
		return &Error{Template: name, Line: atoi(m[2]), Msg: m[3]}
	}
	if m := parseRE().FindStringSubmatch(msg); m != nil {
		return &Error{Template: name, Line: atoi(m[2]), Msg: m[3] + suggestFunc(m[3])}
	}
	return &Error{Template: name, Msg: strings.TrimPrefix(msg, "template: ")}
}

var (
	// `at <.Params.X>: map has no entry for key "X"`
	missingKeyRE = lazy.Regexp(`^at <((?:\.[A-Za-z0-9_]+)+)>: map has no entry for key "([^"]*)"$`)
	// `function "X" not defined`
	undefinedFuncRE = lazy.Regexp(`^function "([^"]*)" not defined$`)
)

// suggestKey adds "did you mean" to a missing map key of data (an
// undefined `.Params.X`), from the keys of the map that lacks it.
func suggestKey(err error, data any) error {
	var te *Error
	if !errors.As(err, &te) {
		return err
	}
	m := missingKeyRE().FindStringSubmatch(te.Msg)
	if m == nil {
		return err
	}
	path := strings.Split(strings.TrimPrefix(m[1], "."), ".")
	cur := data
	for _, field := range path[:len(path)-1] {
		next, ok := mapEntry(cur, field)
		if !ok {
			return err
		}
		cur = next
	}
	keys := mapKeys(cur)
	if keys == nil {
		return err
	}
	te.Msg += suggest.DidYouMean(m[2], keys)
	return te
}

// mapEntry is m[key] when m is a map with string keys.
func mapEntry(m any, key string) (any, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Map || v.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	e := v.MapIndex(reflect.ValueOf(key).Convert(v.Type().Key()))
	if !e.IsValid() {
		return nil, false
	}
	return e.Interface(), true
}

// mapKeys are the keys of m, sorted, when it is a map with string keys.
func mapKeys(m any) []string {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Map || v.Type().Key().Kind() != reflect.String {
		return nil
	}
	keys := make([]string, 0, v.Len())
	for _, k := range v.MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	return keys
}

// suggestFunc is "did you mean" for an undefined function named in msg,
// from the functions templates may call.
func suggestFunc(msg string) string {
	m := undefinedFuncRE().FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	if _, ok := sprig.GenericFuncMap()[m[1]]; ok {
		return fmt.Sprintf("; Sprig's %q is not among the functions kudo-render offers", m[1])
	}
	names := make([]string, 0, len(funcs())+len(parseBuiltins))
	for n := range funcs() {
		if n != emitFunc {
			names = append(names, n)
		}
	}
	for n := range parseBuiltins {
		names = append(names, n)
	}
	sort.Strings(names)
	return suggest.DidYouMean(m[1], names)
}
