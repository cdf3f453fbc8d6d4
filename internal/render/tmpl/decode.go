package tmpl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/simpleyaml"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"

	"go.yaml.in/yaml/v3"
)

// Doc is one YAML document of rendered output.
type Doc struct {
	Map  map[string]any
	Line int // template line where the document starts
	// Bool11 lists the JSON pointers of plain scalars that YAML 1.1 reads
	// as booleans and YAML 1.2 as strings (see object.Object.Bool11).
	Bool11 []string
}

// Decode splits rendered output into YAML documents. Empty documents are
// skipped; every other document must be a mapping with apiVersion and kind.
// Errors name the template and the template line.
func Decode(out *Output) ([]Doc, error) {
	if err := out.checkText(); err != nil {
		return nil, err
	}
	if line, err := strictyaml.CheckStream(out.Text, "the rendered YAML"); err != nil {
		return nil, &Error{Template: out.Name, Line: out.SourceLine(line), Msg: err.Error()}
	}
	lim := limits.Current()
	// Aliases can make a few bytes expand into billions of values ("billion
	// laughs"); decoding into yaml.Node skips go-yaml's own limit, so
	// toValue counts values (aliases expanded) against --max-yaml-values,
	// or what the render's budget has left when that is less, and nesting
	// against --max-yaml-depth.
	b := newValueBudget(lim, out.budget)
	docs, used, ok := decodeParallel(out, b)
	if !ok {
		one := b.pass()
		var err error
		if docs, err = decodeDocs(out, out.Text, 0, one, nil); err != nil {
			return nil, err
		}
		used = one.max - one.left
	}
	if err := out.budget.Charge(limits.RenderValues, used, out.Name); err != nil {
		return nil, err
	}
	if err := out.budget.Charge(limits.RenderObjects, int64(len(docs)), out.Name); err != nil {
		return nil, err
	}
	return docs, nil
}

// newValueBudget is the budget of values of one rendered text: the
// per-stream limit, or what the render's budget has left when that is
// less.
func newValueBudget(lim limits.Limits, render *limits.Budget) *valueBudget {
	b := &valueBudget{max: lim.YAMLValues, depth: lim.YAMLDepth}
	if left := render.Left(limits.RenderValues); left < b.max {
		b.max, b.render = left, render
	}
	return b
}

// pass is a copy of b for one pass of decoding, with all of its values
// left.
func (b *valueBudget) pass() *valueBudget {
	return &valueBudget{max: b.max, depth: b.depth, render: b.render, left: b.max}
}

// exceeded is the error of running out of values.
func (b *valueBudget) exceeded() error {
	if b.render != nil {
		return b.render.Err(limits.RenderValues, "the rendered YAML (aliases expanded)")
	}
	return limits.Err("yaml-values", b.max, "the rendered YAML (aliases expanded)")
}

// decodeDocs decodes the documents of text, which starts at line
// offset+1 of the rendered output. With shared set (a part decoded on its
// own), each document may use only what shared has left, and takes what
// it used from it.
func decodeDocs(out *Output, text []byte, offset int, b *valueBudget, shared *atomic.Int64) ([]Doc, error) {
	// Text in the plain block style most templates render is parsed by
	// simpleyaml, several times faster than go-yaml, to the same nodes,
	// one document at a time; on any error go-yaml decodes it again, so
	// errors read as they always have.
	left := b.left
	var docs []Doc
	var used int64
	simple := simpleyaml.Each(text, false, func(root *yaml.Node) bool {
		doc, n, err := decodeRoot(out, root, offset, b, shared)
		used += n
		docs = append(docs, doc)
		return err == nil
	})
	if simple {
		return docs, nil
	}
	b.left, docs = left, nil
	if shared != nil {
		shared.Add(used)
	}
	aliases := bytes.IndexByte(text, '*') >= 0
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, out.yamlError(text, offset, err)
		}
		if len(n.Content) == 0 {
			continue
		}
		root := n.Content[0]
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			continue
		}
		if aliases {
			if err := out.checkAliases(root, offset, b, shared); err != nil {
				return nil, err
			}
		}
		doc, _, err := decodeRoot(out, root, offset, b, shared)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
}

// checkAliases refuses a document whose aliases expand it past what is
// left of --max-yaml-values, in time linear in its nodes and before
// toValue expands anything, at the alias that takes it over.
func (o *Output) checkAliases(root *yaml.Node, offset int, b *valueBudget, shared *atomic.Int64) error {
	left := b.left
	if shared != nil {
		left = shared.Load()
	}
	_, err := strictyaml.CheckAliases(root, max(left, 0))
	var ae *strictyaml.AliasError
	if !errors.As(err, &ae) {
		return err
	}
	ae.Max = b.max // what is left of it was checked: name the limit
	line := ae.At.Line + offset
	return &Error{Template: o.Name, Line: o.SourceLine(line), Msg: fmt.Sprintf("%v (rendered line %d, column %d)", ae, line, ae.At.Column)}
}

// decodeRoot decodes the root node of a document that has content; used
// is what it took from shared.
func decodeRoot(out *Output, root *yaml.Node, offset int, b *valueBudget, shared *atomic.Int64) (Doc, int64, error) {
	line := out.SourceLine(root.Line + offset)
	if root.Kind != yaml.MappingNode {
		return Doc{}, 0, &Error{Template: out.Name, Line: line, Msg: "rendered YAML document is not a mapping (a Kubernetes object)"}
	}
	b.bool11, b.path = nil, b.path[:0]
	if shared != nil {
		b.left = shared.Load()
	}
	before := b.left
	v, err := toValue(root, b, 0)
	if err != nil {
		var at *atLine
		if errors.As(err, &at) {
			line = out.SourceLine(at.line + offset)
		}
		var dup *duplicateKey
		if errors.As(err, &dup) {
			err = fmt.Errorf("duplicate key %q: first at line %d (the API server refuses it; YAML readers keep only one)", dup.key, out.SourceLine(dup.first+offset))
		}
		return Doc{}, 0, &Error{Template: out.Name, Line: line, Msg: err.Error()}
	}
	var used int64
	if shared != nil {
		used = before - b.left
		if shared.Add(-used) < 0 {
			return Doc{}, used, b.exceeded()
		}
	}
	m := v.(map[string]any)
	for _, f := range []string{"apiVersion", "kind"} {
		if s, _ := m[f].(string); s == "" {
			return Doc{}, used, &Error{Template: out.Name, Line: line, Msg: fmt.Sprintf("rendered object has no %s", f)}
		}
	}
	return Doc{Map: m, Line: line, Bool11: b.bool11}, used, nil
}

// yamlError is a syntax error of text, which starts at line offset+1 of
// the rendered output, at the template line it came from.
func (o *Output) yamlError(text []byte, offset int, err error) error {
	rendered, problem, block := strictyaml.SyntaxLine(text, err)
	if rendered > 0 {
		rendered += offset
	}
	if rendered == 0 {
		return &Error{Template: o.Name, Msg: "invalid YAML after rendering: " + problem}
	}
	where := ""
	if block {
		where = " in the block that starts here"
	}
	return &Error{Template: o.Name, Line: o.SourceLine(rendered),
		Msg: fmt.Sprintf("invalid YAML after rendering: %s%s (rendered line %d: %q)", problem, where, rendered, o.renderedLine(rendered))}
}

func (o *Output) renderedLine(n int) string {
	starts := o.lineStarts()
	if n < 1 || n > len(starts) {
		return ""
	}
	end := len(o.Text)
	if n < len(starts) {
		end = starts[n]
	}
	s := strings.TrimRight(string(o.Text[starts[n-1]:end]), "\r\n\u0085\u2028\u2029")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// toValue converts a YAML node into plain Go values the way Kubernetes
// reads YAML: mappings become map[string]any, integers int64, floats
// float64; timestamps and binary stay strings.
func toValue(n *yaml.Node, budget *valueBudget, depth int64) (any, error) {
	if budget.left--; budget.left < 0 {
		return nil, budget.exceeded()
	}
	if depth > budget.depth {
		return nil, &atLine{line: n.Line, err: limits.Err("yaml-depth", budget.depth, "the rendered YAML")}
	}
	switch n.Kind {
	case yaml.AliasNode:
		return toValue(n.Alias, budget, depth)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return toValue(n.Content[0], budget, depth)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			budget.path = append(budget.path, strconv.Itoa(i))
			v, err := toValue(c, budget, depth+1)
			budget.path = budget.path[:len(budget.path)-1]
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				merged, err := toValue(v, budget, depth+1)
				if err != nil {
					return nil, err
				}
				if err := merge(out, merged); err != nil {
					return nil, fmt.Errorf("line %d: %w", k.Line, err)
				}
				continue
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: mapping keys must be scalars", k.Line)
			}
			if _, ok := out[k.Value]; ok {
				if first := explicitKey(n.Content[:i], k.Value); first != nil {
					return nil, &atLine{line: k.Line, err: &duplicateKey{key: k.Value, first: first.Line}}
				}
			}
			budget.path = append(budget.path, k.Value)
			val, err := toValue(v, budget, depth+1)
			budget.path = budget.path[:len(budget.path)-1]
			if err != nil {
				return nil, err
			}
			out[k.Value] = val
		}
		return out, nil
	case yaml.ScalarNode:
		if n.Style == 0 && bool11[n.Value] && n.Tag == "!!str" {
			budget.bool11 = append(budget.bool11, pointer(budget.path))
		}
		return scalar(n), nil
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// bool11 are the plain scalars that YAML 1.1 (Kubernetes' reader) reads
// as booleans and YAML 1.2 (this decoder) as strings.
var bool11 = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// pointer is the JSON pointer of a field path.
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// duplicateKey is a key written twice in one mapping; first is the
// rendered line of its first occurrence.
type duplicateKey struct {
	key   string
	first int
}

func (e *duplicateKey) Error() string { return fmt.Sprintf("duplicate key %q", e.key) }

// explicitKey returns the key node among the keys and values of a
// mapping's content that is key, written as such (not merged in by <<).
func explicitKey(content []*yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(content); i += 2 {
		if k := content[i]; k.Tag != "!!merge" && k.Kind == yaml.ScalarNode && k.Value == key {
			return k
		}
	}
	return nil
}

// atLine is an error at a line of the rendered text.
type atLine struct {
	line int
	err  error
}

func (e *atLine) Error() string { return e.err.Error() }
func (e *atLine) Unwrap() error { return e.err }

// valueBudget counts the values of one template's rendered YAML.
type valueBudget struct {
	left, max, depth int64
	// render is set when max is what the render's budget had left (less
	// than --max-yaml-values): running out is then its limit.
	render *limits.Budget
	// path is the field path being decoded; bool11 collects the plain
	// scalars YAML 1.1 reads as booleans.
	path   []string
	bool11 []string
}

// checkText refuses rendered text that YAML may not hold (a NUL byte or
// another control character, invalid UTF-8, a byte order mark after the
// start: strictyaml.CheckText), at the template line that produced it.
func (o *Output) checkText() error {
	te := strictyaml.CheckText(o.Text)
	if te == nil {
		return nil
	}
	return &Error{Template: o.Name, Line: o.SourceLine(te.Line), Msg: fmt.Sprintf("the rendered text holds %s (rendered line %d, column %d)", te.What, te.Line, te.Column)}
}

func merge(dst map[string]any, src any) error {
	switch s := src.(type) {
	case map[string]any:
		for k, v := range s {
			if _, ok := dst[k]; !ok {
				dst[k] = v
			}
		}
	case []any:
		for _, x := range s {
			if err := merge(dst, x); err != nil {
				return err
			}
		}
	default:
		return errors.New("merge key << needs a mapping")
	}
	return nil
}

func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return n.Value
		}
		return b
	case "!!int":
		s := strings.ReplaceAll(n.Value, "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return i
		}
		if strings.HasPrefix(s, "0") && len(s) > 1 {
			if i, err := strconv.ParseInt(s[1:], 8, 64); err == nil {
				return i
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return n.Value
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return n.Value
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 && !strings.ContainsAny(n.Value, ".eE") {
			return int64(f)
		}
		return f
	default:
		return n.Value
	}
}

func atoi(s string) int {
	i, _ := strconv.Atoi(s)
	return i
}
