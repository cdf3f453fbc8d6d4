package simpleyaml

import (
	"bytes"
	"math"
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
	if len(text) >= math.MaxInt32 || !printable(text) {
		return false
	}
	var doc []simpleLine
	var slab []yaml.Node
	var blanks simpleBlanks // blank lines not yet followed by a line of text
	flush := func() bool {
		if !keep {
			slab = slab[:0]
		}
		p := &simpleParser{text: text, lines: doc, slab: &slab, tail: blanks}
		if len(p.lines) == 0 {
			return true // an empty document
		}
		first, ok := p.next()
		if !ok || first.isItem() {
			return false // a document of comments, or a sequence
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
		from := start
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
			if blanks.n == 0 {
				blanks.from = from
			}
			blanks.n, blanks.deepest, blanks.eol = blanks.n+1, max(blanks.deepest, int32(indent)), eol
			continue
		}
		doc = append(doc, simpleLine{n: n, indent: indent, text: string(line[indent:]), eol: eol, before: blanks, comment: line[indent] == '#'})
		blanks = simpleBlanks{}
	}
	return flush()
}

// printable reports whether text holds only line feeds, tabs and
// characters that both go-yaml's reader and its scanner take as printable
// and not as a line break: printable ASCII and, in UTF-8, U+00A0 to U+FFFD
// but for the surrogates, the line and paragraph separators (U+2028,
// U+2029: line breaks to YAML) and the byte order mark (U+FEFF). Carriage
// returns, other control characters, NEL (U+0085), characters beyond
// U+FFFF and invalid UTF-8 are refused. Tabs are text only in literal
// block scalars and comments: keys, plain scalars and quoted scalars
// refuse them, and a line indented with one is not a key.
func printable(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if asciiText[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return false
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

// asciiText are the ASCII bytes printable takes.
var asciiText = func() (t [256]bool) {
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = true
	}
	t['\n'], t['\t'] = true, true
	return t
}()

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

// simpleLine is one line: its number, indentation and the rest, trailing
// blanks included (text of a block scalar keeps them; scalarText drops
// them).
type simpleLine struct {
	n, indent int
	text      string
	before    simpleBlanks // the blank lines just before it
	eol       bool         // a line break ends it (the last line of a text may have none)
	comment   bool         // it starts with #: a comment, or text of a block scalar
}

// simpleBlanks are consecutive blank lines (empty or of spaces only): how
// many, the most spaces one holds, whether the last ends with a line
// break, and where they are in the text. Only literal block scalars read
// them.
type simpleBlanks struct {
	from       int   // the offset of the first in the text
	n, deepest int32 // Each refuses texts of 2 GiB or more
	eol        bool
}

// appendText appends the lines the blank lines give a literal block
// scalar whose content is indented by ci: a line of more than ci spaces
// holds the spaces past ci, any other line is empty.
func (b simpleBlanks) appendText(content []string, all []byte, ci int) []string {
	if int(b.deepest) <= ci {
		for range b.n {
			content = append(content, "")
		}
		return content
	}
	rest := all[b.from:]
	for range b.n {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		content = append(content, strings.Repeat(" ", max(len(l)-ci, 0)))
	}
	return content
}

func (l simpleLine) isItem() bool { return l.text == "-" || len(l.text) > 1 && l.text[:2] == "- " }

type simpleParser struct {
	text  []byte // the text the lines are of
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

// next is the next line with content, if any, past comment lines: only
// literal reads lines that start with # (as text).
func (p *simpleParser) next() (simpleLine, bool) {
	for p.i < len(p.lines) && p.lines[p.i].comment {
		p.i++
	}
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
		key, end, ok := p.simpleKey(l)
		if !ok {
			return nil, false
		}
		p.i++
		value, ok := p.mappingValue(l, end, indent)
		if !ok {
			return nil, false
		}
		m.Content = append(m.Content, key, value)
	}
}

// mappingValue parses the value of key, on line l of a mapping at indent:
// the rest of the line, the block below it, or an empty (null) value.
func (p *simpleParser) mappingValue(l simpleLine, end, indent int) (*yaml.Node, bool) {
	after := indent + end + 2 // 1-based column after the colon
	rest := strings.TrimLeft(l.text[end+1:], " ")
	col := after + len(l.text) - end - 1 - len(rest)
	rest, ok := scalarText(rest)
	switch {
	case !ok:
		return nil, false
	case rest == "|" || rest == "|-" || rest == "|+":
		return p.literal(rest[1:], l.n, col, indent)
	case rest != "":
		v, ok := p.inline(rest, l.n, col)
		if next, more := p.next(); ok && more && next.indent > indent {
			return nil, false // a continuation line
		}
		return v, ok
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
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.n, Column: after}), true
}

// literal parses a literal block scalar ("|", "|-" or "|+": chomp is
// "", "-" or "+") whose indicator is at line:col, after a key at indent.
// Its first line must hold text not starting with a tab, and no line of
// only blanks after its last line may reach past its indentation; anything
// else is left to go-yaml.
func (p *simpleParser) literal(chomp string, line, col, indent int) (*yaml.Node, bool) {
	if p.i == len(p.lines) || p.lines[p.i].before.n > 0 || p.lines[p.i].indent <= indent {
		return nil, false
	}
	ci := p.lines[p.i].indent // the content's indentation
	if p.lines[p.i].text[0] == '\t' {
		return nil, false // go-yaml: "a tab character where an indentation space is expected"
	}
	var content []string
	for ; p.i < len(p.lines) && p.lines[p.i].indent >= ci; p.i++ {
		l := p.lines[p.i]
		content = l.before.appendText(content, p.text, ci)
		content = append(content, strings.Repeat(" ", l.indent-ci)+l.text)
	}
	after := p.tail // the blank lines after the scalar: before the next line, or at the end (text to YAML when deeper than ci)
	if p.i < len(p.lines) {
		after = p.lines[p.i].before
	}
	trailing := int(after.n)
	if int(after.deepest) > ci || !p.lines[p.i-1].eol || p.i == len(p.lines) && trailing > 0 && !after.eol {
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
			if rest, ok = scalarText(rest); !ok || rest == "" {
				return nil, false // "- # comment": a block below the dash
			}
			v, ok = p.inline(rest, l.n, indent+3)
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

// scalarText is the scalar that starts s, the rest of a line after a
// colon or a dash and its blanks, without the blanks and the comment that
// may follow it: "x  # y" is "x", "'a # b' # c" is "'a # b'", "# c" is
// "". It reports false for text after a quoted scalar.
func scalarText(s string) (string, bool) {
	if s == "" {
		return s, true
	}
	end := len(s)
	switch q := s[0]; q {
	case '"', '\'':
		end = quotedEnd(s)
		if end < 0 {
			return "", false
		}
		rest := strings.TrimLeft(s[end:], " ")
		if rest != "" && (rest[0] != '#' || rest == s[end:]) {
			return "", false // text after the quote, or a # right after it
		}
	case '#':
		return "", true
	default:
		if i := strings.Index(s, " #"); i >= 0 {
			end = i
		}
	}
	return strings.TrimRight(s[:end], " "), true
}

// quotedEnd is the offset just past the closing quote of the quoted
// scalar that starts s, or -1.
func quotedEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++ // an escaped character
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++ // a quote written twice
		case s[i] == q:
			return i + 1
		}
	}
	return -1
}

// simpleKey is the key of a "key: value" or "key:" line, and the offset
// of its colon: a plain scalar of letters, digits and - . _ / that does
// not start with -, or a quoted scalar of ASCII (see unquote), at most
// maxSimpleKey long.
func (p *simpleParser) simpleKey(l simpleLine) (*yaml.Node, int, bool) {
	i, ok := keyEnd(l)
	if !ok {
		return nil, 0, false
	}
	if q := l.text[0]; q == '"' || q == '\'' {
		k, ok := p.quoted(l.text[:i], l.n, l.indent+1)
		return k, i, ok
	}
	k := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: l.text[:i], Line: l.n, Column: l.indent + 1})
	k.Tag = plainTag(k)
	return k, i, true
}

// isKeyLine reports whether l starts with a key (see simpleKey).
func isKeyLine(l simpleLine) bool {
	_, ok := keyEnd(l)
	return ok
}

// keyEnd is where the key of l ends, at its colon.
func keyEnd(l simpleLine) (int, bool) {
	i := 0
	if q := l.text[0]; q == '"' || q == '\'' {
		if i = quotedEnd(l.text); i < 0 || !ascii(l.text[:i]) {
			return 0, false // go-yaml counts the value's column in characters
		}
	} else {
		for i < len(l.text) && isKeyByte(l.text[i]) {
			i++
		}
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

// inline is the value written on one line after a colon or a dash: a
// scalar, or a flow collection of scalars (see flow).
func (p *simpleParser) inline(s string, line, col int) (*yaml.Node, bool) {
	switch s[0] {
	case '"', '\'':
		return p.quoted(s, line, col)
	case '[', '{':
		return p.flow(s, line, col)
	}
	return p.plain(s, line, col)
}

// quoted is the quoted scalar s (see unquote).
func (p *simpleParser) quoted(s string, line, col int) (*yaml.Node, bool) {
	v, ok := unquote(s)
	if !ok {
		return nil, false
	}
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v, Line: line, Column: col})
	if s[0] == '\'' {
		n.Style = yaml.SingleQuotedStyle
	}
	return n, true
}

// plain is the plain scalar s (see simplePlain).
func (p *simpleParser) plain(s string, line, col int) (*yaml.Node, bool) {
	if !simplePlain(s) {
		return nil, false
	}
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: s, Line: line, Column: col})
	n.Tag = plainTag(n)
	return n, true
}

// flow is the flow collection s in the shapes manifests use: an empty
// mapping ({}), or a sequence of quoted scalars and plain scalars of
// letters, digits and - . _ / separated by commas ([], ["a", "b"],
// [ a, b ]), all ASCII (go-yaml counts columns in characters).
func (p *simpleParser) flow(s string, line, col int) (*yaml.Node, bool) {
	if !ascii(s) {
		return nil, false
	}
	if s[0] == '{' {
		if strings.TrimLeft(s[1:], " ") != "}" {
			return nil, false
		}
		return p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: line, Column: col}), true
	}
	seq := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line, Column: col})
	i := skipBlanks(s, 1)
	if i < len(s) && s[i] == ']' {
		return seq, i == len(s)-1
	}
	for i < len(s) {
		end := i
		switch {
		case s[i] == '"' || s[i] == '\'':
			if end = quotedEnd(s[i:]); end < 0 {
				return nil, false
			}
			end += i
		default:
			for end < len(s) && isKeyByte(s[end]) {
				end++
			}
			if end == i {
				return nil, false
			}
		}
		item, ok := p.inline(s[i:end], line, col+i)
		if !ok {
			return nil, false
		}
		seq.Content = append(seq.Content, item)
		i = skipBlanks(s, end)
		switch {
		case i < len(s) && s[i] == ']':
			return seq, i == len(s)-1
		case i < len(s) && s[i] == ',':
			i = skipBlanks(s, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func skipBlanks(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
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
	if strings.IndexByte(inner, '\t') >= 0 {
		return "", false
	}
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
// starts with a letter, a digit, a non-ASCII character, . / ~ ( <, a
// plus before a digit or a dot, or - ? : before anything but a blank; it holds only plainByte bytes (no #, no tab, no control
// character), and no colon before a blank or at the end.
func simplePlain(s string) bool {
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '/', c == '~', c == '(', c == '<', c >= utf8.RuneSelf:
	case c == '+' && len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == '.'):
	case (c == '-' || c == '?' || c == ':') && len(s) > 1 && s[1] != ' ':
		// "-c", "--flag", "::1": an indicator followed by a non-blank
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
