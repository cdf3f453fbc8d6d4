package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/simpleyaml"
)

// Problem is a problem at one place of one YAML file: kudo-render's one
// diagnostic type.
type Problem = diag.Diagnostic

// Problems collects Problems.
type Problems = diag.List

var (
	nodeType   = reflect.TypeFor[yaml.Node]()
	opaqueType = reflect.TypeFor[Opaque]()
	lineRE     = lazy.Regexp(`^(?:yaml: )?line (\d+): (.*)$`)
	typeErrRE  = lazy.Regexp("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.*)$")
)

// Parse parses one YAML document. Syntax errors are added to p with
// their line; it returns nil when the document cannot be parsed.
func Parse(file string, data []byte, p *Problems) *yaml.Node {
	if pr := checkText(file, data); pr != nil {
		p.List = append(p.List, pr)
		return nil
	}
	if err := CheckValues(data, file); err != nil {
		p.Add(file, 0, "", "%v", err)
		return nil
	}
	// A file of one document in the plain block style is parsed by
	// simpleyaml into the nodes go-yaml would make; go-yaml reads the rest
	// (and reports any error).
	if !bytes.HasPrefix(data, []byte("---")) && !bytes.Contains(data, []byte("\n---")) {
		if roots, ok := simpleyaml.Parse(data); ok && len(roots) == 1 {
			return roots[0]
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg, _ := SyntaxLine(data, err)
		p.Add(file, line, "", "%s", msg)
		return nil
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.Add(file, 0, "", "file is empty")
		return nil
	}
	if bytes.IndexByte(data, '*') >= 0 { // an alias needs one
		if pr := checkNode(file, &doc); pr != nil {
			p.List = append(p.List, pr)
			return nil
		}
	}
	return doc.Content[0]
}

// DecodeLenient is Decode for files KUDO read leniently (operator.yaml and
// params.yaml of KUDO v1beta1 packages): an unknown field is a warning
// with a "did you mean", and decoding goes on.
func DecodeLenient(file string, n *yaml.Node, out any, p *Problems) bool {
	if pr := checkNode(file, n); pr != nil {
		p.List = append(p.List, pr)
		return false
	}
	before := len(p.Errors())
	paths := nodePaths{}
	checkFields(file, n, reflect.TypeOf(out), "", p, true, paths)
	if err := n.Decode(out); err != nil {
		p.List = append(p.List, paths.name(YAMLErrors(file, err))...)
	}
	return len(p.Errors()) == before
}

// Decode checks n against out's type for unknown fields, then
// decodes it. It reports whether decoding succeeded without problems.
func Decode(file string, n *yaml.Node, out any, p *Problems) bool {
	if pr := checkNode(file, n); pr != nil {
		p.List = append(p.List, pr)
		return false
	}
	before := len(p.List)
	paths := nodePaths{}
	checkFields(file, n, reflect.TypeOf(out), "", p, false, paths)
	if err := n.Decode(out); err != nil {
		p.List = append(p.List, paths.name(YAMLErrors(file, err))...)
	}
	return len(p.List) == before
}

// checkKnown walks n alongside the Go type t and reports every mapping key
// that t does not declare, with its line and field path.
func checkKnown(file string, n *yaml.Node, t reflect.Type, path string, p *Problems) {
	checkFields(file, n, t, path, p, false, nil)
}

// nodePaths are the field paths of the nodes checkFields visited, by
// line: go-yaml's type errors ("cannot unmarshal !!str `deploy` into
// map...") have a line but no field, which these name.
type nodePaths map[int][]nodePath

type nodePath struct {
	path string
	n    *yaml.Node
}

// name sets the Field of each problem without one from the node at its
// line: the scalar whose value the message quotes, else the last (the
// deepest) visited there.
func (np nodePaths) name(ps []*Problem) []*Problem {
	for _, pr := range ps {
		if pr.Field != "" || pr.Line == 0 || !strings.HasPrefix(pr.Msg, "expected ") {
			continue // not a type error (see YAMLErrors)
		}
		at := np[pr.Line]
		if len(at) == 0 {
			continue
		}
		pr.Field = at[len(at)-1].path
		for _, c := range at {
			if c.n.Kind == yaml.ScalarNode && strings.Contains(pr.Msg, strconv.Quote(c.n.Value)) {
				pr.Field = c.path
				break
			}
		}
	}
	return ps
}

// checkFields is checkKnown; lenient reports unknown fields as warnings
// with a "did you mean".
func checkFields(file string, n *yaml.Node, t reflect.Type, path string, p *Problems, lenient bool, paths nodePaths) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if paths != nil && path != "" {
		paths[n.Line] = append(paths[n.Line], nodePath{path, n})
	}
	if t == nodeType || reflect.PointerTo(t).Implements(opaqueType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // a type error, reported by Decode
		}
		fields := map[string]reflect.Type{}
		structFields(t, fields)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				// The field is the unknown key itself, so that a KRM
				// result's field.path points at it (the top level too);
				// the message names it too, to read on its own.
				msg := fmt.Sprintf("unknown field %q", k.Value) + suggest.DidYouMean(k.Value, slices.Sorted(maps.Keys(fields)))
				if lenient {
					p.Warn(file, k.Line, joinPath(path, k.Value), "%s", msg)
					continue
				}
				p.Add(file, k.Line, joinPath(path, k.Value), "%s", msg)
				continue
			}
			checkFields(file, v, ft, joinPath(path, k.Value), p, lenient, paths)
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for i, c := range n.Content {
				checkFields(file, c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), p, lenient, paths)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				checkFields(file, n.Content[i+1], t.Elem(), joinPath(path, n.Content[i].Value), p, lenient, paths)
			}
		}
	}
}

// structFields adds the YAML keys of struct t to fields, with the keys of
// its `,inline` structs.
func structFields(t reflect.Type, fields map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if opts == "inline" && f.Type.Kind() == reflect.Struct {
			structFields(f.Type, fields)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f.Type
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// YAMLErrors turns a go-yaml error into Problems with lines.
func YAMLErrors(file string, err error) []*Problem {
	var te *yaml.TypeError
	var msgs []string
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	out := make([]*Problem, 0, len(msgs))
	for _, m := range msgs {
		fe := &Problem{File: file}
		fe.Line, fe.Msg, _ = ErrorLine(m)
		if sm := typeErrRE().FindStringSubmatch(fe.Msg); sm != nil {
			if sm[2] != "" {
				fe.Msg = fmt.Sprintf("expected %s, got %s %q", describeGoType(sm[3]), sm[1], sm[2])
			} else {
				fe.Msg = fmt.Sprintf("expected %s, got %s", describeGoType(sm[3]), sm[1])
			}
		}
		out = append(out, fe)
	}
	return out
}

// parserProblems are the messages of go-yaml's parser (not its scanner).
// For them go-yaml reports the 0-based line where the enclosing block
// starts, so one is added to get the 1-based line.
var parserProblems = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"did not find expected '-' indicator", "did not find expected <document start>",
	"did not find expected <stream-start>", "did not find expected key",
	"did not find expected node content", "found duplicate %TAG directive",
	"found duplicate %YAML directive", "found incompatible YAML document",
	"found undefined tag handle",
}

// ErrorLine reads the 1-based line out of a go-yaml message ("yaml: line
// 5: ..."), correcting go-yaml's 0-based line of parser errors. block
// reports that the line is where the enclosing block starts rather than
// the exact place. line is 0 when the message has none.
func ErrorLine(msg string) (line int, problem string, block bool) {
	sm := lineRE().FindStringSubmatch(msg)
	if sm == nil {
		return 0, strings.TrimPrefix(msg, "yaml: "), false
	}
	line, _ = strconv.Atoi(sm[1])
	if slices.Contains(parserProblems, sm[2]) {
		return line + 1, sm[2], true
	}
	return line, sm[2], false
}

// SyntaxLine is ErrorLine for a syntax error go-yaml v3 found in data,
// at the line of the mistake. go-yaml v3 reports a parser error (a bad
// indentation: "did not find expected key") at the line where the
// enclosing block starts, and a scanner error (a tab that violates
// indentation) where the token before it ends, often the line before.
// go-yaml v2, which Helm reads with (through sigs.k8s.io/yaml), keeps the
// place of the problem itself: data is read again with it, and when it
// finds the same problem its line is taken (block is then false). The
// caller has checked data against the value limit (CheckValues). A
// problem go-yaml finds at the end of the text (an unclosed bracket) is
// placed on the last line that holds a character, not the one after.
func SyntaxLine(data []byte, err error) (line int, problem string, block bool) {
	line, problem, block = syntaxLine(data, err)
	return min(line, lastLine(data)), problem, block
}

func syntaxLine(data []byte, err error) (line int, problem string, block bool) {
	line, problem, block = ErrorLine(err.Error())
	if line == 0 || !slices.Contains(misplaced, problem) {
		return line, problem, block
	}
	dec := yamlv2.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		err2 := dec.Decode(&v)
		if err2 == nil {
			continue
		}
		sm := lineRE().FindStringSubmatch(err2.Error())
		if sm == nil || sm[2] != problem {
			return line, problem, block // v2 disagrees: keep v3's
		}
		l2, _ := strconv.Atoi(sm[1])
		if slices.Contains(parserProblems, problem) {
			l2++ // v2 reports a parser problem's mark 0-based
		}
		return l2, problem, false
	}
}

// misplaced are the problems go-yaml v3 reports away from the mistake
// (a bad indentation, a tab) and v2 at it. Others stay where v3 puts
// them: an unclosed bracket or quote at its opening line, not at the end
// of the file where v2 notices it.
var misplaced = []string{
	"did not find expected key", "did not find expected '-' indicator",
	"found a tab character that violates indentation",
}

func describeGoType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	default:
		return "a mapping"
	}
}

// Opaque is implemented by types that decode themselves from any shape of
// YAML: Decode does not look for unknown fields inside them.
type Opaque interface{ StrictYAMLOpaque() }

// Value converts a node to a plain value the way parameters are read: nil
// for absent or null, the literal text for scalars (so 1000000 stays
// "1000000"), []any and map[string]any for collections.
func Value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		return n.Value, nil
	case yaml.AliasNode:
		return Value(n.Alias)
	default:
		if _, err := CheckAliases(n, limits.Current().YAMLValues); err != nil {
			return nil, err
		}
		return DecodeAny(n)
	}
}

// LineOf returns the line of the value at path below the mapping n, or of
// the deepest part of path that exists (so a missing field points at its
// parent). It returns 0 when n is nil.
func LineOf(n *yaml.Node, path ...string) int {
	if n == nil {
		return 0
	}
	line := n.Line
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				n, line, found = n.Content[i+1], n.Content[i].Line, true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}

// MaxValues estimates, from its bytes alone, how many values decoding
// data could make: every value needs a separator or an indicator (a
// comma, colon, dash, bracket, brace or line break) or an alias. It errs
// high, never low, so data under the limit is safe to decode into nodes.
func MaxValues(data []byte) int64 {
	var n int64 = 1
	for _, c := range data {
		switch c {
		case ',', ':', '-', '[', '{', '\n', '*', '?':
			n += 2
		}
	}
	return n
}

// CheckValues refuses data that could decode into more values than
// limits.YAMLValues, before any node is made; what names the input.
func CheckValues(data []byte, what string) error {
	max := limits.Current().YAMLValues
	if MaxValues(data) <= max {
		return nil
	}
	return limits.Err("yaml-values", max, what)
}

// CheckStream is CheckValues for each document of a YAML stream (the
// decoder holds one document at a time). It returns the 1-based line
// where the document that is too large starts, lines counted as go-yaml
// counts them.
func CheckStream(data []byte, what string) (int, error) {
	lf := onlyLF(data)
	start, line := 0, 1
	for l, off := 2, nextLine(data, 0, lf); off >= 0; l, off = l+1, nextLine(data, off, lf) {
		if hasMarker(data[off:], "---") || hasMarker(data[off:], "...") {
			if err := CheckValues(data[start:off], what); err != nil {
				return line, err
			}
			start, line = off, l
		}
	}
	if err := CheckValues(data[start:], what); err != nil {
		return line, err
	}
	return 0, nil
}

// hasMarker reports whether b starts with a document marker.
func hasMarker(b []byte, m string) bool {
	return bytes.HasPrefix(b, []byte(m)) && (len(b) == len(m) || b[len(m)] == ' ' || b[len(m)] == '\n' || b[len(m)] == '\r' || b[len(m)] == '\t')
}

// SpellNulls writes every empty null of n that stands in a flow-style
// collection (a key without a value, as in {d}) as null: go-yaml v3
// encodes such a value as ”, which reads back as an empty string, so
// re-encoding a decoded node changed the document. An empty null in block
// style (`d:`) encodes as it was and is left alone. Nesting beyond
// 10,000 levels is left alone (decoding refuses it first).
func SpellNulls(n *yaml.Node) { spellNulls(n, false, 0) }

func spellNulls(n *yaml.Node, flow bool, depth int) {
	if n == nil || depth > 10_000 {
		return
	}
	if n.Kind == yaml.ScalarNode && flow && n.Tag == "!!null" && n.Value == "" {
		n.Value = "null"
	}
	flow = flow || n.Style&yaml.FlowStyle != 0
	for _, c := range n.Content {
		spellNulls(c, flow, depth+1)
	}
}
