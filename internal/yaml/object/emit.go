package object

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/lazy"
)

// emit writes v, a decoded tree or one that jsonNormal returned, as
// sigs.k8s.io/yaml's Marshal (go-yaml v2 after the JSON round trip) would,
// without the copy jsonNormal makes and without go-yaml's event queue
// (which allocates about 17 KB per document and is never trimmed). What
// it accepts, the round trip leaves as it is, but floats, which it
// re-types as jsonFloat does. It covers the documents kudo-render
// writes nearly always: a mapping of mappings, sequences, numbers,
// booleans, nulls and printable ASCII strings that go-yaml writes on one
// line, or as a literal block when they hold line breaks. For anything
// else it returns false, and the caller encodes the document with go-yaml
// itself; FuzzEmit checks both agree wherever emit answers.
func emit(v any) ([]byte, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil, false
	}
	// The document is written in a scratch buffer and copied out at its
	// size: growing a buffer per document allocated about three times the
	// output.
	buf := scratch.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxScratch {
			scratch.Put(buf)
		}
	}()
	buf.Reset()
	e := emitter{buf: buf}
	if !e.mapping(m, 0, false) {
		return nil, false
	}
	return bytes.Clone(buf.Bytes()), true
}

// scratch holds emit's buffers; one larger than maxScratch is not kept.
var scratch = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxScratch = 1 << 20

// emitter writes one document; column is the column of the next byte.
type emitter struct {
	buf    *bytes.Buffer
	column int
}

// maxWidth is go-yaml v2's line width: a space of a one-line scalar
// past this column becomes a line break.
const maxWidth = 80

// maxSimpleKeyLen is go-yaml's limit on a key written as `key:`; a longer
// one is written as `? key`.
const maxSimpleKeyLen = 128

func (e *emitter) write(s string) {
	e.buf.WriteString(s)
	e.column += len(s)
}

func (e *emitter) newline() {
	e.buf.WriteByte('\n')
	e.column = 0
}

func (e *emitter) indent(n int) {
	for range n {
		e.buf.WriteByte(' ')
	}
	e.column = n
}

// mapping writes a non-empty mapping whose keys start at column indent;
// inItem says the first key follows a sequence item's "- ".
func (e *emitter) mapping(m map[string]any, indent int, inItem bool) bool {
	var buf [16]string // the keys of most mappings, on the stack
	for i, k := range sortedKeys(m, buf[:0]) {
		if i > 0 || !inItem {
			e.indent(indent)
		}
		st, ok := scalarStyle(k)
		if !ok || len(k) > maxSimpleKeyLen {
			return false
		}
		e.write(quote(k, st)) // never folded in a key
		e.write(":")
		if !e.value(m[k], indent, true) {
			return false
		}
	}
	return true
}

// sequence writes a non-empty sequence whose dashes are at column indent.
func (e *emitter) sequence(s []any, indent int, inItem bool) bool {
	for i, x := range s {
		if i > 0 || !inItem {
			e.indent(indent)
		}
		e.write("-")
		if !e.value(x, indent, false) {
			return false
		}
	}
	return true
}

// value writes the value of a mapping key or a sequence item (after its
// ':' or '-'), then the line break. indent is the column of that key or
// dash.
func (e *emitter) value(v any, indent int, inMapping bool) bool {
	switch t := v.(type) {
	case map[string]any:
		switch {
		case t == nil: // what the JSON round trip makes of a nil map
			e.write(" null")
		case len(t) == 0:
			e.write(" {}")
		case inMapping:
			e.newline()
			return e.mapping(t, indent+2, false)
		default:
			e.write(" ")
			return e.mapping(t, indent+2, true)
		}
	case []any:
		switch {
		case t == nil:
			e.write(" null")
		case len(t) == 0:
			e.write(" []")
		case inMapping: // go-yaml does not indent a sequence in a mapping
			e.newline()
			return e.sequence(t, indent, false)
		default:
			e.write(" ")
			return e.sequence(t, indent+2, true)
		}
	case string:
		if strings.IndexByte(t, '\n') >= 0 {
			return e.literal(t, indent+2)
		}
		return e.oneLine(t, indent+2)
	default:
		s, ok := nonString(v)
		if !ok {
			return false
		}
		e.write(" ")
		e.write(s)
	}
	e.newline()
	return true
}

// nonString is the text of a number, boolean or null. A float is first
// re-typed as the JSON round trip would (jsonFloat: 3.0 is the int 3).
func nonString(v any) (string, bool) {
	switch t := v.(type) {
	case float64:
		n, err := jsonFloat(t, 64)
		if err != nil {
			return "", false
		}
		v = n
	case float32:
		n, err := jsonFloat(float64(t), 32)
		if err != nil {
			return "", false
		}
		v = n
	}
	switch t := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case uint64:
		return strconv.FormatUint(t, 10), true
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64), true
	}
	return "", false
}

// literal writes a string with line breaks as go-yaml does: "|" with a
// chomping indicator ("-" without a final break; none with one; "+" with
// more, which go-yaml ends with an "open" document that emit leaves to
// go-yaml), an indentation indicator when it starts with a space, then
// its lines at column indent (empty lines stay empty).
func (e *emitter) literal(s string, indent int) bool {
	if !literalSafe(s) {
		return false
	}
	e.write(" |")
	if s[0] == ' ' {
		e.write("2")
	}
	if s[len(s)-1] != '\n' {
		e.write("-")
	}
	e.newline()
	body := strings.TrimSuffix(s, "\n")
	for line := range strings.SplitSeq(body, "\n") {
		if line != "" {
			e.indent(indent)
			e.write(line)
		}
		e.newline()
	}
	return true
}

// literalSafe: go-yaml writes s as a literal block exactly as literal
// does: printable ASCII and line feeds only, no space before a line break
// or at the end, no line break first, at most one at the end.
func literalSafe(s string) bool {
	if s[0] == '\n' || strings.HasSuffix(s, "\n\n") || strings.HasSuffix(s, " ") || strings.Contains(s, " \n") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c > 0x7e) && c != '\n' {
			return false
		}
	}
	return true
}

// scalarStyle is how go-yaml writes s on one line: plain, in single
// quotes or in double quotes; false when s is outside what emit handles
// (not printable ASCII, or a double-quoted string with a quote or a
// backslash, which go-yaml escapes).
func scalarStyle(s string) (style, bool) {
	if s == "" {
		return doubleQuoted, true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return 0, false
		}
	}
	str, known := resolvesToString(s)
	switch {
	case !known:
		return 0, false
	case !str && strings.ContainsAny(s, `"\`):
		return 0, false
	case !str:
		return doubleQuoted, true
	case plainAllowed(s):
		return plain, true
	}
	return singleQuoted, true
}

// style is a scalar style of go-yaml.
type style int

const (
	plain style = iota
	singleQuoted
	doubleQuoted
)

// quote is s in style st, unfolded.
func quote(s string, st style) string {
	switch st {
	case singleQuoted:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case doubleQuoted:
		return `"` + s + `"`
	}
	return s
}

// oneLine writes a string without line breaks after its key or dash. Like
// go-yaml, it folds a plain or single-quoted string at a single space
// reached past column 80, continuing at column cont; a double-quoted one
// that might fold is left to go-yaml.
func (e *emitter) oneLine(s string, cont int) bool {
	st, ok := scalarStyle(s)
	if !ok {
		return false
	}
	e.write(" ")
	switch st {
	case doubleQuoted:
		if strings.IndexByte(s, ' ') >= 0 && e.column+len(s)+2 > maxWidth {
			return false
		}
		e.write(quote(s, st))
	case singleQuoted:
		e.write("'")
		e.fold(s, cont, true)
		e.write("'")
	default:
		e.fold(s, cont, false)
	}
	e.newline()
	return true
}

// fold writes s, breaking the line at a space as go-yaml's
// yaml_emitter_write_plain_scalar and _single_quoted_scalar do: the first
// space of a run, past column 80, not followed by another space (and in
// single quotes neither first nor last) becomes a line break.
func (e *emitter) fold(s string, cont int, single bool) {
	spaces := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			if !spaces && e.column > maxWidth && (!single || i > 0 && i < len(s)-1) && (i+1 == len(s) || s[i+1] != ' ') {
				e.newline()
				e.indent(cont)
			} else {
				e.buf.WriteByte(' ')
				e.column++
			}
			spaces = true
			continue
		}
		if single && c == '\'' {
			e.buf.WriteByte('\'')
			e.column++
		}
		e.buf.WriteByte(c)
		e.column++
		spaces = false
	}
}

// plainAllowed: go-yaml's emitter writes printable ASCII s without quotes
// in block context (yaml_emitter_analyze_scalar): no leading or trailing
// space, no indicator that would change its meaning.
func plainAllowed(s string) bool {
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	blankAfter := func(i int) bool { return i+1 >= len(s) || s[i+1] == ' ' }
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if blankAfter(0) {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ':':
			if blankAfter(i) {
				return false
			}
		case '#':
			if s[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// resolvesToString: go-yaml v2 would read s, written plain, back as a
// string (its resolve), and it is no base 60 float, which it also quotes.
// known is false where emit leaves the answer to go-yaml (what may be a
// timestamp, binary integers).
func resolvesToString(s string) (str, known bool) {
	c := s[0]
	if !strings.ContainsRune("yYnNtTfFoO~.+-0123456789", rune(c)) {
		return true, true // go-yaml looks no further than the first character
	}
	if _, special := yaml11Words[s]; special {
		return false, true
	}
	switch {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil, true
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return stringNotNumber(s)
	}
	return true, true
}

// stringNotNumber: s, which starts with a sign or a digit, is no int,
// float or base 60 float to go-yaml v2; known is false for what may be a
// timestamp and for binary integers.
func stringNotNumber(s string) (str, known bool) {
	if strings.IndexByte(s, ':') >= 0 && base60().MatchString(s) {
		return false, true
	}
	if len(s) > 4 && s[4] == '-' && isDigits(s[:4]) {
		return false, false
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return false, true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return false, true
	}
	if yamlFloat().MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return false, true
		}
	}
	if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") {
		return false, false
	}
	return true, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// yamlFloat and base60 are YAML 1.1's float forms as go-yaml v2 reads
// and writes them.
var (
	yamlFloat = lazy.Regexp(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60    = lazy.Regexp(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

// yaml11Words are the plain scalars YAML 1.1 (go-yaml v2) reads as
// booleans, nulls or special floats (when they start with a character
// go-yaml looks up; "<<" does not).
var yaml11Words = map[string]struct{}{}

func init() {
	for _, w := range strings.Fields(`y Y yes Yes YES n N no No NO true True TRUE false False FALSE
		on On ON off Off OFF ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF
		-.inf -.Inf -.INF`) {
		yaml11Words[w] = struct{}{}
	}
}

// sortedKeys orders keys as go-yaml v2 does (its keyList): runs of digits
// compare as numbers, a letter sorts after any other character. Keys are
// first sorted as strings, so that where go-yaml's order is not a total
// one (and its result depends on Go's map order) emit's is still fixed.
// They are appended to keys (a buffer of the caller's, or nil).
func sortedKeys(m map[string]any, keys []string) []string {
	simple := true
	for k := range m {
		keys = append(keys, k)
		simple = simple && byteOrdered(k)
	}
	slices.Sort(keys)
	if simple {
		return keys // keyLess orders these as bytes
	}
	slices.SortStableFunc(keys, func(a, b string) int {
		switch {
		case keyLess(a, b):
			return -1
		case keyLess(b, a):
			return 1
		}
		return 0
	})
	return keys
}

// byteOrdered reports whether k holds only letters and - . / (ASCII): for
// such keys keyLess is the order of their bytes (letters compare as runes,
// the three others come before letters and compare as bytes, and no digit
// makes a number).
func byteOrdered(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	return true
}

// keyLess is go-yaml v2's order of two string keys. It compares runes;
// keys of ASCII, the usual case, are compared as bytes, which are their
// runes, without converting them.
func keyLess(a, b string) bool {
	if isASCII(a) && isASCII(b) {
		return keyLessOf([]byte(a), []byte(b))
	}
	return keyLessOf([]rune(a), []rune(b))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func keyLessOf[E byte | rune](ar, br []E) bool {
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(rune(ar[i])), unicode.IsLetter(rune(br[i]))
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		// Numbers: when a zero differs, a nonzero digit before it (the
		// same in both) counts as the number's leading 1.
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(rune(ar[j])); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		an, ai := digitRun(ar, i, an)
		bn, bi := digitRun(br, i, bn)
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// digitRun continues n with the digits of r from i on, and says where
// they end.
func digitRun[E byte | rune](r []E, i int, n int64) (int64, int) {
	end := i
	for ; end < len(r) && unicode.IsDigit(rune(r[end])); end++ {
		n = n*10 + int64(r[end]-'0')
	}
	return n, end
}
