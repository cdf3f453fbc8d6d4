package simpleyaml

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Parse parses the documents of text into the nodes go-yaml's parser makes,
// when text is in the style the package documentation describes, and
// reports false for anything else (go-yaml decodes the text then). Only the
// documents with content are returned (their root mappings), in order.
func Parse(text []byte) ([]*yaml.Node, bool) {
	var roots []*yaml.Node
	ok := Each(text, true, func(root *yaml.Node) bool {
		roots = append(roots, root)
		return true
	})
	return roots, ok
}

// Each is Parse calling yield with each root as it is parsed:
// it stops, false, when yield returns false. Unless keep is set, the nodes
// of a document are reused for the next one once yield returns.
func Each(text []byte, keep bool, yield func(root *yaml.Node) bool) bool {
	if !printable(text) {
		return false
	}
	var doc []simpleLine
	var slab []yaml.Node
	var blanks simpleBlanks // blank lines not yet followed by a line of text
	flush := func() bool {
		if !keep {
			slab = slab[:0]
		}
		p := &simpleParser{lines: doc, slab: &slab, tail: blanks}
		if len(p.lines) == 0 {
			return true // an empty document
		}
		first := p.lines[0]
		if first.isItem() {
			return false
		}
		root, ok := p.mapping(first.indent)
		if !ok || p.i != len(p.lines) {
			return false // a line less indented than the first
		}
		return yield(root)
	}
	for n, start := 1, 0; start < len(text); n++ {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text) - start
		}
		line := text[start : start+end]
		start += end + 1
		switch {
		case string(line) == "---":
			if !flush() {
				return false
			}
			doc, blanks = doc[:0], simpleBlanks{}
			continue
		case bytes.HasPrefix(line, []byte("---")), bytes.HasPrefix(line, []byte("...")):
			return false
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		eol := start <= len(text)
		if indent == len(line) { // a blank line: counted, not kept
			blanks.n, blanks.deepest, blanks.eol = blanks.n+1, max(blanks.deepest, indent), eol
			continue
		}
		if line[len(line)-1] == ' ' {
			return false // trailing blanks
		}
		doc = append(doc, simpleLine{n: n, indent: indent, text: string(line[indent:]), eol: eol, before: blanks})
		blanks = simpleBlanks{}
	}
	return flush()
}

// printable reports whether text holds only line feeds and characters
// that both go-yaml's reader and its scanner take as printable and not as
// a line break: printable ASCII and, in UTF-8, U+00A0 to U+FFFD but for
// the surrogates, the line and paragraph separators (U+2028, U+2029: line
// breaks to YAML) and the byte order mark (U+FEFF). Tabs, carriage
// returns, control characters, NEL (U+0085), characters beyond U+FFFF and
// invalid UTF-8 are refused.
func printable(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c > 0x7e) && c != '\n' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			return false // invalid UTF-8
		}
		if r < 0xa0 || r > 0xfffd || r >= 0xd800 && r <= 0xdfff || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false
		}
		i += size
	}
	return true
}

// plainByte are the bytes of the plain scalars Parse reads: letters,
// digits, the space, the ASCII punctuation but # and the bytes of the
// non-ASCII characters [printable] allows. Inside a plain scalar
// of the block style, past its first character, only " #" and ": " mean
// something to YAML (the flow indicators , [ ] { } only in flow style).
var plainByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range " -._/:+~();@<>=,!%?*&$^|\\'\"[]{}`" {
		t[c] = true
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = true // the bytes of the UTF-8 characters printable allows
	}
	return t
}()

// simpleLine is one line: its number, indentation and the rest.
type simpleLine struct {
	n, indent int
	text      string
	eol       bool         // a line break ends it (the last line of a text may have none)
	before    simpleBlanks // the blank lines just before it
}

// simpleBlanks are consecutive blank lines (empty or of spaces only): how
// many, the most spaces one holds, and whether the last ends with a line
// break. Only literal block scalars read them.
type simpleBlanks struct {
	n, deepest int
	eol        bool
}

func (l simpleLine) isItem() bool { return l.text == "-" || len(l.text) > 1 && l.text[:2] == "- " }

type simpleParser struct {
	lines []simpleLine
	i     int
	depth int          // of nested collections, at most maxSimpleDepth
	slab  *[]yaml.Node // nodes are allocated in chunks, shared by the documents of a text
	tail  simpleBlanks // the blank lines after the document's last line
}

// node returns a new node: the next of the slab.
func (p *simpleParser) node(n yaml.Node) *yaml.Node {
	if len(*p.slab) == cap(*p.slab) {
		*p.slab = make([]yaml.Node, 0, 256)
	}
	*p.slab = append(*p.slab, n)
	return &(*p.slab)[len(*p.slab)-1]
}

// next is the next line with content, if any.
func (p *simpleParser) next() (simpleLine, bool) {
	if p.i == len(p.lines) {
		return simpleLine{}, false
	}
	return p.lines[p.i], true
}

// maxSimpleDepth bounds the nesting Parse reads (go-yaml refuses
// more than 10,000 levels; --max-yaml-depth applies after either).
const maxSimpleDepth = 1000

// mapping parses a block mapping whose keys are at indent.
func (p *simpleParser) mapping(indent int) (*yaml.Node, bool) {
	if p.depth++; p.depth > maxSimpleDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	l, _ := p.next()
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: l.n, Column: indent + 1})
	for {
		l, ok := p.next()
		if !ok || l.indent < indent {
			return m, true
		}
		if l.indent > indent || l.isItem() {
			return nil, false
		}
		key, ok := p.simpleKey(l)
		if !ok {
			return nil, false
		}
		p.i++
		value, ok := p.mappingValue(l, key, indent)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, key, value)
	}
}

// mappingValue parses the value of key, on line l of a mapping at indent:
// the rest of the line, the block below it, or an empty (null) value.
func (p *simpleParser) mappingValue(l simpleLine, key *yaml.Node, indent int) (*yaml.Node, bool) {
	rest := l.text[len(key.Value)+1:]
	col := indent + len(key.Value) + 2 // 1-based column after the colon
	if rest != "" {
		for rest != "" && rest[0] == ' ' {
			rest, col = rest[1:], col+1
		}
		if rest == "|" || rest == "|-" || rest == "|+" {
			return p.literal(rest[1:], l.n, col, indent)
		}
		v, ok := p.simpleScalar(rest, l.n, col)
		if !ok {
			return nil, false
		}
		if next, more := p.next(); more && next.indent > indent {
			return nil, false // a continuation line
		}
		return v, true
	}
	next, more := p.next()
	switch {
	case more && next.indent > indent:
		if next.isItem() {
			return p.sequence(next.indent)
		}
		return p.mapping(next.indent)
	case more && next.indent == indent && next.isItem():
		return p.sequence(indent)
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.n, Column: col}), true
}

// literal parses a literal block scalar ("|", "|-" or "|+": chomp is
// "", "-" or "+") whose indicator is at line:col, after a key at indent.
// Its first line must hold text, and no line of only blanks may reach past
// its indentation; anything else is left to go-yaml.
func (p *simpleParser) literal(chomp string, line, col, indent int) (*yaml.Node, bool) {
	if p.i == len(p.lines) || p.lines[p.i].before.n > 0 || p.lines[p.i].indent <= indent {
		return nil, false
	}
	ci := p.lines[p.i].indent // the content's indentation
	var content []string
	for ; p.i < len(p.lines) && p.lines[p.i].indent >= ci; p.i++ {
		l := p.lines[p.i]
		if l.before.deepest > ci {
			return nil, false
		}
		for range l.before.n {
			content = append(content, "")
		}
		content = append(content, strings.Repeat(" ", l.indent-ci)+l.text)
	}
	after := p.tail // the blank lines after the scalar: before the next line, or at the end
	if p.i < len(p.lines) {
		after = p.lines[p.i].before
	}
	trailing := after.n
	if after.deepest > ci || !p.lines[p.i-1].eol || p.i == len(p.lines) && trailing > 0 && !after.eol {
		return nil, false // a line of blanks that is text, or a text ending without a line break
	}
	v := strings.Join(content, "\n")
	switch chomp {
	case "":
		v += "\n"
	case "+":
		v += strings.Repeat("\n", trailing+1)
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Value: v, Line: line, Column: col}), true
}

// sequence parses a block sequence whose dashes are at indent.
func (p *simpleParser) sequence(indent int) (*yaml.Node, bool) {
	if p.depth++; p.depth > maxSimpleDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	l, _ := p.next()
	s := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: l.n, Column: indent + 1})
	for {
		l, ok := p.next()
		if !ok || l.indent != indent || !l.isItem() {
			if ok && l.indent > indent {
				return nil, false
			}
			return s, true
		}
		rest := l.text[min(2, len(l.text)):]
		if rest == "" || rest[0] == ' ' || rest == "-" || len(rest) > 1 && rest[:2] == "- " {
			return nil, false // a block below the dash, or a sequence in a sequence
		}
		item := simpleLine{n: l.n, indent: indent + 2, text: rest}
		var v *yaml.Node
		if isKeyLine(item) {
			p.lines[p.i] = item // the item's mapping starts on the dash's line
			v, ok = p.mapping(indent + 2)
		} else {
			p.i++
			v, ok = p.simpleScalar(rest, l.n, indent+3)
			if next, more := p.next(); ok && more && next.indent > indent {
				return nil, false
			}
		}
		if !ok {
			return nil, false
		}
		s.Content = append(s.Content, v)
	}
}

// simpleKey is the key of a "key: value" or "key:" line: a plain scalar of
// letters, digits and - . _ / that does not start with - (and at most
// maxSimpleKey long).
func (p *simpleParser) simpleKey(l simpleLine) (*yaml.Node, bool) {
	i, ok := keyEnd(l)
	if !ok {
		return nil, false
	}
	k := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: l.text[:i], Line: l.n, Column: l.indent + 1})
	k.Tag = plainTag(k)
	return k, true
}

// isKeyLine reports whether l starts with a key (see simpleKey).
func isKeyLine(l simpleLine) bool {
	_, ok := keyEnd(l)
	return ok
}

// keyEnd is where the key of l ends, at its colon.
func keyEnd(l simpleLine) (int, bool) {
	i := 0
	for i < len(l.text) && isKeyByte(l.text[i]) {
		i++
	}
	if i == 0 || i > maxSimpleKey || i == len(l.text) || l.text[i] != ':' || i+1 < len(l.text) && l.text[i+1] != ' ' || l.text[0] == '-' {
		return 0, false
	}
	return i, true
}

// maxSimpleKey is well below the 1,024 characters go-yaml looks ahead
// for the colon of a key.
const maxSimpleKey = 512

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '/'
}

// simpleScalar is a one-line scalar: quoted (see unquote), or plain.
func (p *simpleParser) simpleScalar(s string, line, col int) (*yaml.Node, bool) {
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Line: line, Column: col})
	switch q := s[0]; q {
	case '"', '\'':
		v, ok := unquote(s)
		if !ok {
			return nil, false
		}
		n.Value, n.Tag, n.Style = v, "!!str", yaml.DoubleQuotedStyle
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		return n, true
	}
	if !simplePlain(s) {
		return nil, false
	}
	n.Value = s
	n.Tag = plainTag(n)
	return n, true
}

// unquote is the value of the quoted scalar s, which must end with its
// closing quote. Inside quotes any printable character is itself, but for
// the quote, which single quotes write twice, and the backslash, which
// starts an escape in double quotes: unquote reads the one-character
// escapes of ASCII characters (\n, \t, \", \\, ...) and leaves any other
// (\x, \u, \N, ...) to go-yaml.
func unquote(s string) (string, bool) {
	q := s[0]
	if len(s) < 2 || s[len(s)-1] != q {
		return "", false
	}
	inner := s[1 : len(s)-1]
	special := byte('\\')
	if q == '\'' {
		special = '\''
	}
	i := strings.IndexByte(inner, special)
	if q == '"' && strings.IndexByte(inner, '"') >= 0 && i < 0 {
		return "", false // an unescaped quote ends the scalar early
	}
	if i < 0 {
		return inner, true
	}
	b := make([]byte, 0, len(inner))
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case c == q && q == '"':
			return "", false
		case c != special:
			b = append(b, c)
			continue
		case i+1 == len(inner):
			return "", false // the closing quote is escaped
		}
		i++
		if q == '\'' {
			if inner[i] != '\'' {
				return "", false
			}
			b = append(b, '\'')
			continue
		}
		e, ok := escapes[inner[i]]
		if !ok {
			return "", false
		}
		b = append(b, e)
	}
	return string(b), true
}

// escapes are the one-character escapes of double-quoted scalars whose
// value is an ASCII character, as go-yaml reads them.
var escapes = map[byte]byte{
	'0': 0, 'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f',
	'r': '\r', 'e': 0x1b, ' ': ' ', '"': '"', '\'': '\'', '\\': '\\',
}

// plainTag is the tag go-yaml resolves for the plain scalar n. go-yaml
// reads a scalar that starts with a letter other than those of true,
// false, null, yes, no, on and off (which it looks up), or with / or (, as
// a string without looking further; ShortTag resolves the rest as go-yaml
// does.
func plainTag(n *yaml.Node) string {
	switch c := n.Value[0]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		if !strings.ContainsRune("yYnNtTfFoO", rune(c)) {
			return "!!str"
		}
	case c == '/' || c == '(':
		return "!!str"
	}
	return n.ShortTag()
}

// simplePlain: s is a plain scalar that means itself on one line. It
// starts with a letter, a digit, a non-ASCII character, . / ~ ( < or a
// sign before a digit or a dot; it holds only plainByte bytes (no #, no tab, no control
// character), and no colon before a blank or at the end.
func simplePlain(s string) bool {
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '/', c == '~', c == '(', c == '<', c >= utf8.RuneSelf:
	case (c == '-' || c == '+') && len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == '.'):
	default:
		return false
	}
	if strings.HasPrefix(s, "<<") {
		return false // go-yaml tags it !!merge
	}
	for i := 0; i < len(s); i++ {
		switch {
		case !plainByte[s[i]]:
			return false
		case s[i] == ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return false
			}
		}
	}
	return true
}
