package fn

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// item is one item of a ResourceList: the node kyaml's fn/framework read
// (nodes.go), or, on the fast path for very large lists, its own YAML
// text, as the orchestrator wrote it (dedented); and the few fields the
// function reads of every item. On the fast path its full content is
// decoded only when needed (Instance objects, references, resources of
// the framework's definitions), so items passed through cost their bytes,
// not a tree of nodes.
type item struct {
	node   *kyaml.RNode // nil on the fast path
	text   []byte       // nil on the framework path
	line   int          // line of the item in the input
	indent int          // columns its lines were dedented by (fast path)
	header itemHeader
}

type itemHeader struct {
	APIVersion, Kind, Name, Namespace string
	Annotations                       map[string]string
}

// readHeader reads the header of an item: scalars only, whatever their
// tags, so that no item fails for a number where a string was expected.
func readHeader(text []byte) (itemHeader, error) {
	if err := strictyaml.CheckValues(text, "the item"); err != nil {
		return itemHeader{}, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return itemHeader{}, err
	}
	if _, err := strictyaml.CheckAliases(&doc, limits.Current().YAMLValues); err != nil {
		return itemHeader{}, err
	}
	if len(doc.Content) == 0 {
		return itemHeader{}, errNotMapping
	}
	return headerOf(doc.Content[0])
}

// child is the value of key in mapping m, or nil.
func child(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalarOf(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// resourceList is a ResourceList read by readResourceList.
type resourceList struct {
	items          []*item
	functionConfig []byte // YAML text of functionConfig, nil when absent
}

// readResourceList splits a ResourceList into its items and its
// functionConfig without decoding the items whole. kpt and kustomize
// write ResourceLists in block style; any other layout (flow style, JSON)
// is decoded whole instead, which costs more memory and is therefore
// bounded more tightly (a quarter of the input limit).
func readResourceList(data []byte, lim limits.Limits) (*resourceList, error) {
	if err := strictyaml.CheckText(data); err != nil {
		return nil, fmt.Errorf("cannot read the ResourceList: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errEmptyInput
	}
	rl, err := splitBlock(data)
	if err == nil {
		err = rl.readHeaders(lim)
	}
	if errors.Is(err, errNotBlock) {
		// Another layout, or items that only make sense together
		// (aliases): decode the whole list.
		if max := lim.KRMInputBytes / 4; int64(len(data)) > max {
			return nil, limits.Err("krm-input-bytes", max, "the ResourceList (not in block style, so decoded whole)")
		}
		if rl, err = decodeWhole(data); err == nil {
			if err = rl.readHeaders(lim); errors.Is(err, errNotBlock) {
				err = errors.New("cannot read the ResourceList: an item refers to an anchor it does not define")
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return rl, nil
}

// readHeaders reads the header of every item.
func (rl *resourceList) readHeaders(lim limits.Limits) error {
	if err := checkItems(len(rl.items), lim); err != nil {
		return err
	}
	// Items are parsed on all cores; the first error in item order wins,
	// as when they were read one after another.
	errs := make([]error, len(rl.items))
	par.Do(len(rl.items), func(i int) {
		rl.items[i].header, errs[i] = readHeader(rl.items[i].text)
	})
	for i, err := range errs {
		if err != nil {
			if strings.Contains(err.Error(), "unknown anchor") {
				return errNotBlock
			}
			var ae *strictyaml.AliasError
			if errors.As(err, &ae) { // the item's lines are the list's from its first
				return fmt.Errorf("cannot read items[%d]: line %d, column %d of the ResourceList: %v", i, rl.items[i].line+ae.At.Line-1, rl.items[i].indent+ae.At.Column, err)
			}
			return itemReadError(i, rl.items[i].line, err)
		}
	}
	return nil
}

// itemReadError is the error of an item that cannot be read.
func itemReadError(i, line int, err error) error {
	return fmt.Errorf("cannot read items[%d] (line %d of the ResourceList): %v", i, line, err)
}

var errNotBlock = errors.New("not a block-style ResourceList")

// errEmptyInput: nothing came on stdin, as from `kudo-render < /dev/null`
// or a pipe that produced nothing.
var errEmptyInput = errors.New("cannot read the input: stdin is empty; without a command kudo-render is a KRM function and reads a config.kubernetes.io/v1 ResourceList on stdin (kpt fn render, kustomize build --enable-alpha-plugins --enable-exec); kudo-render --help lists the commands")

// topLevelKeys are the keys of a ResourceList the splitter knows; any
// other key makes it decode the whole list.
var topLevelKeys = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "items": true, "functionConfig": true, "results": true}

// splitBlock splits a block-style ResourceList by its lines.
func splitBlock(data []byte) (*resourceList, error) {
	lines := splitLines(data)
	if lines == nil {
		return nil, errNotBlock
	}
	rl := &resourceList{}
	sawKind := false
	for i := 0; i < len(lines); {
		l := lines[i]
		if blankOrComment(l) || i == 0 && strings.TrimSpace(string(l)) == "---" {
			i++
			continue
		}
		if indentOf(l) != 0 || l[0] == '-' || l[0] == '{' || l[0] == '[' || l[0] == '"' || l[0] == '\'' {
			return nil, errNotBlock
		}
		key, rest, ok := strings.Cut(string(l), ":")
		if !ok || !topLevelKeys[key] {
			return nil, errNotBlock
		}
		end := blockEnd(lines, i+1)
		body := lines[i+1 : end]
		rest = strings.TrimSpace(stripComment(rest))
		switch key {
		case "kind":
			sawKind = rest == "ResourceList" || rest == "List"
		case "items":
			items, err := splitItems(rest, body, i+2)
			if err != nil {
				return nil, err
			}
			rl.items = items
		case "functionConfig":
			fc, err := blockValue(rest, body)
			if err != nil {
				return nil, err
			}
			rl.functionConfig = fc
		}
		i = end
	}
	if !sawKind {
		return nil, errors.New("cannot read the input: it is not a config.kubernetes.io/v1 ResourceList")
	}
	return rl, nil
}

// blockEnd returns the index of the next line that starts a top-level key.
func blockEnd(lines [][]byte, from int) int {
	for j := from; j < len(lines); j++ {
		l := lines[j]
		if !blankOrComment(l) && indentOf(l) == 0 && l[0] != '-' {
			return j
		}
	}
	return len(lines)
}

// splitItems splits the block sequence of items.
func splitItems(inline string, body [][]byte, firstLine int) ([]*item, error) {
	switch inline {
	case "":
	case "[]", "null", "~":
		if !onlyBlank(body) {
			return nil, errNotBlock
		}
		return nil, nil
	default:
		return nil, errNotBlock
	}
	seqIndent := -1
	var items []*item
	var cur [][]byte
	start := 0
	flush := func() error {
		if cur == nil {
			return nil
		}
		text, indent, err := dedentItem(cur, seqIndent)
		if err != nil {
			return err
		}
		items = append(items, &item{text: text, line: firstLine + start, indent: indent})
		cur = nil
		return nil
	}
	for j, l := range body {
		if blankOrComment(l) {
			if cur != nil {
				cur = append(cur, l)
			}
			continue
		}
		ind := indentOf(l)
		if seqIndent < 0 {
			seqIndent = ind
		}
		switch {
		case ind == seqIndent && isSeqEntry(l[ind:]):
			if err := flush(); err != nil {
				return nil, err
			}
			cur, start = [][]byte{l}, j
		case ind > seqIndent && cur != nil:
			cur = append(cur, l)
		default:
			return nil, errNotBlock
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return items, nil
}

func isSeqEntry(l []byte) bool {
	return len(l) > 0 && l[0] == '-' && (len(l) == 1 || l[1] == ' ')
}

// dedentItem turns the lines of one sequence entry into the item's own
// YAML text: "- " becomes indentation, then the item's indentation goes;
// indent is the number of columns taken off.
func dedentItem(lines [][]byte, seqIndent int) (text []byte, indent int, err error) {
	first := lines[0][seqIndent+1:]
	content := seqIndent + 1 + len(first) - len(bytes.TrimLeft(first, " "))
	rest := lines[1:]
	if len(bytes.TrimSpace(first)) == 0 { // "-" alone: the item starts below
		content = -1
		for _, l := range rest {
			if !blankOrComment(l) {
				content = indentOf(l)
				break
			}
		}
		if content < 0 {
			return nil, 0, errNotBlock
		}
	} else {
		if fc := bytes.TrimLeft(first, " "); len(fc) > 0 && strings.IndexByte("{[&*!|>\"'", fc[0]) >= 0 {
			return nil, 0, errNotBlock // flow, anchored, tagged or scalar items
		}
		rest = append([][]byte{append(bytes.Repeat([]byte(" "), content), bytes.TrimLeft(first, " ")...)}, rest...)
	}
	var b bytes.Buffer
	for _, l := range rest {
		switch {
		case len(l) >= content && indentOf(l) >= content:
			b.Write(l[content:])
		case len(bytes.TrimSpace(l)) == 0:
		case blankOrComment(l):
			b.Write(bytes.TrimLeft(l, " "))
		default:
			return nil, 0, errNotBlock
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), content, nil
}

// blockValue returns the YAML text of a top-level key's value: inline, or
// the block below it, dedented.
func blockValue(inline string, body [][]byte) ([]byte, error) {
	if inline != "" {
		if !onlyBlank(body) {
			return nil, errNotBlock
		}
		return []byte(inline + "\n"), nil
	}
	content := -1
	var b bytes.Buffer
	for _, l := range body {
		if blankOrComment(l) {
			continue
		}
		if content < 0 {
			content = indentOf(l)
		}
		if indentOf(l) < content {
			return nil, errNotBlock
		}
	}
	if content <= 0 {
		return nil, nil
	}
	for _, l := range body {
		if indentOf(l) >= content {
			b.Write(l[content:])
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// decodeWhole reads a ResourceList of any layout by decoding it. Items
// keep their scalars as written; an item that uses an anchor of another
// item is decoded with its aliases resolved, so that it stands alone.
func decodeWhole(data []byte) (*resourceList, error) {
	if err := strictyaml.CheckValues(data, "the ResourceList"); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("cannot read the ResourceList: %v", err)
	}
	if _, err := strictyaml.CheckAliases(&doc, limits.Current().YAMLValues); err != nil {
		var ae *strictyaml.AliasError
		errors.As(err, &ae)
		return nil, fmt.Errorf("cannot read the ResourceList: line %d, column %d: %v", ae.At.Line, ae.At.Column, err)
	}
	var root *yaml.Node
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if k := scalarOf(child(root, "kind")); k != "ResourceList" && k != "List" {
		return nil, errors.New("cannot read the input: it is not a config.kubernetes.io/v1 ResourceList")
	}
	rl := &resourceList{}
	if items := child(root, "items"); items != nil && items.Kind == yaml.SequenceNode {
		for i, n := range items.Content {
			text, err := standalone(n)
			if err != nil {
				return nil, fmt.Errorf("cannot read items[%d]: %v", i, err)
			}
			rl.items = append(rl.items, &item{text: text, line: n.Line})
		}
	}
	if fc := child(root, "functionConfig"); fc != nil {
		text, err := standalone(fc)
		if err != nil {
			return nil, fmt.Errorf("cannot read the functionConfig: %v", err)
		}
		rl.functionConfig = text
	}
	return rl, nil
}

// standalone encodes a node as a document of its own.
func standalone(n *yaml.Node) ([]byte, error) {
	strictyaml.SpellNulls(n)
	text, err := yaml.Marshal(n)
	if err != nil {
		return nil, err
	}
	var probe yaml.Node
	if yaml.Unmarshal(text, &probe) == nil {
		return text, nil
	}
	var v any // it refers to anchors elsewhere: resolve them
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return yaml.Marshal(v)
}

func splitLines(data []byte) [][]byte {
	if bytes.Contains(data, []byte("\n\t")) || bytes.HasPrefix(data, []byte("\t")) || !bytes.HasSuffix(data, []byte("\n")) {
		return nil // tabs in indentation, no final line break: let the YAML decoder judge
	}
	if strictyaml.Breaks(data) != bytes.Count(data, []byte("\n")) {
		return nil // a bare CR, NEL, LS or PS ends a line for go-yaml: let it count the lines
	}
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines
}

func indentOf(l []byte) int { return len(l) - len(bytes.TrimLeft(l, " ")) }

func blankOrComment(l []byte) bool {
	t := bytes.TrimLeft(l, " ")
	return len(t) == 0 || t[0] == '#'
}

func onlyBlank(lines [][]byte) bool {
	for _, l := range lines {
		if !blankOrComment(l) {
			return false
		}
	}
	return true
}

// stripComment removes a trailing comment from an inline value.
func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 && !strings.ContainsAny(s[:i], `"'`) {
		return s[:i]
	}
	return s
}
