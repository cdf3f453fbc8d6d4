package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/params"
)

// Limits on schemas and values. Schemas come from other teams: these keep
// a hostile one from exhausting memory, the stack or the CPU.
const (
	// MaxSchemaBytes is the largest params.schema.json or definitions file
	// accepted.
	MaxSchemaBytes = 1 << 20
	// MaxDepth is the deepest nesting of objects and arrays accepted in a
	// schema (counted from the schema itself) and in a value validated
	// against one (a parameter value, a resource).
	MaxDepth = 64
	// MaxSubschemasPerValue caps how many subschemas one value can be
	// checked against without descending into it (allOf, anyOf, oneOf,
	// not, if/then/else, dependentSchemas and references, followed
	// transitively).
	MaxSubschemasPerValue = 10_000
	// BaseEvaluations and EvaluationsPerNode make up the budget of one
	// validation: BaseEvaluations plus EvaluationsPerNode per object,
	// array or scalar of the value, counted in subschema evaluations.
	BaseEvaluations    = 200_000
	EvaluationsPerNode = 100

	// maxCanonicalDepth bounds Canonical, which also serves values that
	// are not schemas (rendered objects); encoding/json has the same limit.
	maxCanonicalDepth = 10_000
)

// jsonNumberRE is the grammar of a JSON number (RFC 8259).
var jsonNumberRE = lazy.Regexp(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// decodeJSON decodes one JSON document into nil, bool, string, json.Number,
// []any and map[string]any. It reads token by token, without recursion,
// and fails as soon as the nesting exceeds maxDepth; duplicate object keys
// are errors (which one would win is a matter of the reader). Errors carry
// the line.
func decodeJSON(data []byte, maxDepth int) (any, error) {
	d := &jsonDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data)), maxDepth: maxDepth}
	d.dec.UseNumber()
	for !d.done {
		tok, err := d.dec.Token()
		if err != nil {
			return nil, d.tokenError(err)
		}
		if err := d.add(tok); err != nil {
			return nil, err
		}
	}
	if _, err := d.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, d.fail("unexpected data after the JSON value")
	}
	return d.root, nil
}

// jsonFrame is an object or array that decodeJSON is filling.
type jsonFrame struct {
	obj    map[string]any
	arr    []any
	isObj  bool
	key    string
	hasKey bool
}

// jsonDecoder is the state of one decodeJSON: the open objects and arrays
// and, once done, the document.
type jsonDecoder struct {
	data     []byte
	dec      *json.Decoder
	maxDepth int
	stack    []*jsonFrame
	root     any
	done     bool
}

// lineAt is the line of the byte offset off.
func (d *jsonDecoder) lineAt(off int64) int {
	if off > int64(len(d.data)) {
		off = int64(len(d.data))
	}
	return 1 + bytes.Count(d.data[:off], []byte("\n"))
}

// fail is an error at the decoder's current line.
func (d *jsonDecoder) fail(format string, args ...any) error {
	return &lineError{Line: d.lineAt(d.dec.InputOffset()), Msg: fmt.Sprintf(format, args...)}
}

// tokenError is the error for a token that could not be read.
func (d *jsonDecoder) tokenError(err error) error {
	if errors.Is(err, io.EOF) {
		if len(d.stack) == 0 {
			return errors.New("empty document")
		}
		return d.fail("unexpected end of JSON")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &lineError{Line: d.lineAt(se.Offset), Msg: se.Error()}
	}
	return d.fail("%v", err)
}

// emit puts a complete value into the innermost open object or array, or
// makes it the document.
func (d *jsonDecoder) emit(v any) {
	if len(d.stack) == 0 {
		d.root, d.done = v, true
		return
	}
	top := d.stack[len(d.stack)-1]
	if top.isObj {
		top.obj[top.key] = v
		top.hasKey = false
		return
	}
	top.arr = append(top.arr, v)
}

// add takes one token: an object's key or end, a delimiter or a scalar.
func (d *jsonDecoder) add(tok json.Token) error {
	if len(d.stack) > 0 {
		if top := d.stack[len(d.stack)-1]; top.isObj && !top.hasKey {
			return d.key(top, tok)
		}
	}
	switch t := tok.(type) {
	case json.Delim:
		return d.delim(t)
	default:
		d.emit(t)
	}
	return nil
}

// key takes the token where top, an object, expects a key or its end.
func (d *jsonDecoder) key(top *jsonFrame, tok json.Token) error {
	if delim, ok := tok.(json.Delim); ok && delim == '}' {
		d.stack = d.stack[:len(d.stack)-1]
		d.emit(top.obj)
		return nil
	}
	key, _ := tok.(string) // the decoder only yields strings here
	if _, dup := top.obj[key]; dup {
		return d.fail("duplicate key %q", key)
	}
	top.key, top.hasKey = key, true
	return nil
}

// delim opens an object or array (within maxDepth) or closes an array.
func (d *jsonDecoder) delim(t json.Delim) error {
	switch t {
	case '{', '[':
		if len(d.stack) >= d.maxDepth {
			return d.fail("nested deeper than %d levels", d.maxDepth)
		}
		if t == '{' {
			d.stack = append(d.stack, &jsonFrame{obj: map[string]any{}, isObj: true})
		} else {
			d.stack = append(d.stack, &jsonFrame{arr: []any{}})
		}
	case ']':
		top := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		d.emit(top.arr)
	}
	return nil
}

// lineError is a decoding problem at a line.
type lineError struct {
	Line int
	Msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// walker converts Go values into the JSON model (nil, bool, string,
// json.Number, []any, map[string]any), checking depth and counting nodes.
type walker struct {
	maxDepth int
	nodes    int
}

// errTooDeep is wrapped by errors about nesting.
var errTooDeep = errors.New("nested too deep")

// pathError is a problem with a value at a JSON pointer.
type pathError struct {
	ptr string
	err error
}

func (e *pathError) Error() string {
	if e.ptr == "" {
		return e.err.Error()
	}
	return e.ptr + ": " + e.err.Error()
}

func (e *pathError) Unwrap() error { return e.err }

// toJSON converts v; ptr is its JSON pointer, for errors.
func (w *walker) toJSON(v any, ptr string, depth int) (any, error) {
	w.nodes++
	switch t := v.(type) {
	case nil, bool, string:
		return t, nil
	case json.Number:
		if !jsonNumberRE().MatchString(string(t)) {
			return nil, &pathError{ptr, fmt.Errorf("%q is not a JSON number", string(t))}
		}
		return t, nil
	case float64:
		return floatNumber(t, ptr)
	case float32:
		return floatNumber(float64(t), ptr)
	case int:
		return json.Number(strconv.Itoa(t)), nil
	case int64:
		return json.Number(strconv.FormatInt(t, 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(t, 10)), nil
	case []any:
		return w.arrayToJSON(t, ptr, depth)
	case map[string]any:
		return w.objectToJSON(t, ptr, depth)
	case map[any]any:
		return w.anyMapToJSON(t, ptr, depth)
	case json.RawMessage:
		return w.rawToJSON(t, ptr, depth)
	}
	return w.reflectToJSON(v, ptr, depth)
}

// tooDeep is the error for an object or array at depth, or nil when it
// is within maxDepth.
func (w *walker) tooDeep(ptr string, depth int) error {
	if depth >= w.maxDepth {
		return &pathError{ptr, fmt.Errorf("%w: more than %d levels", errTooDeep, w.maxDepth)}
	}
	return nil
}

// arrayToJSON converts the elements of an array.
func (w *walker) arrayToJSON(t []any, ptr string, depth int) (any, error) {
	if err := w.tooDeep(ptr, depth); err != nil {
		return nil, err
	}
	out := make([]any, len(t))
	for i, e := range t {
		c, err := w.toJSON(e, ptr+"/"+strconv.Itoa(i), depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// objectToJSON converts the values of an object.
func (w *walker) objectToJSON(t map[string]any, ptr string, depth int) (any, error) {
	if err := w.tooDeep(ptr, depth); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(t))
	for k, e := range t {
		c, err := w.toJSON(e, ptr+"/"+escapePtr(k), depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = c
	}
	return out, nil
}

// anyMapToJSON converts a map with scalar keys (as YAML decoders give)
// into an object; keys that are not scalars or that collide as text are
// errors.
func (w *walker) anyMapToJSON(t map[any]any, ptr string, depth int) (any, error) {
	if err := w.tooDeep(ptr, depth); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(t))
	for k, e := range t {
		ks, ok := scalarText(k)
		if !ok {
			return nil, &pathError{ptr, fmt.Errorf("has a key of type %T: JSON keys are strings", k)}
		}
		if _, dup := out[ks]; dup {
			return nil, &pathError{ptr, fmt.Errorf("has the key %q twice", ks)}
		}
		c, err := w.toJSON(e, ptr+"/"+escapePtr(ks), depth+1)
		if err != nil {
			return nil, err
		}
		out[ks] = c
	}
	return out, nil
}

// rawToJSON decodes JSON text (within the depth left) and converts the
// result.
func (w *walker) rawToJSON(data []byte, ptr string, depth int) (any, error) {
	d, err := decodeJSON(data, w.maxDepth-depth)
	if err != nil {
		return nil, &pathError{ptr, err}
	}
	return w.toJSON(d, ptr, depth)
}

// reflectToJSON converts the values of other types: named scalar types by
// their kind, anything else (structs, typed maps and slices) through its
// JSON form.
func (w *walker) reflectToJSON(v any, ptr string, depth int) (any, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return floatNumber(rv.Float(), ptr)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &pathError{ptr, fmt.Errorf("cannot be represented in JSON: %v", err)}
	}
	return w.rawToJSON(b, ptr, depth)
}

func floatNumber(f float64, ptr string) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &pathError{ptr, fmt.Errorf("%v is not a JSON number", f)}
	}
	return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), nil
}

// scalarText is the text of a scalar map key.
func scalarText(v any) (string, bool) {
	if v == nil {
		return "null", true
	}
	return params.Text(v)
}

// escapePtr escapes one JSON pointer token (RFC 6901).
func escapePtr(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// Canonical returns the canonical JSON of v: object keys sorted (by their
// UTF-8 bytes), no insignificant whitespace, strings escaped as
// encoding/json does but without HTML escaping, and numbers as written
// (a json.Number keeps its text, so 1.0 and 1 differ; Go integers and
// floats are written in their shortest decimal form without exponent).
//
// v may be JSON text ([]byte or json.RawMessage: decoded strictly, with
// duplicate keys an error) or a decoded value: nil, bool, string, numbers,
// json.Number, []any, map[string]any, map[any]any with scalar keys (as YAML
// decoders produce); any other type is converted through encoding/json.
func Canonical(v any) ([]byte, error) {
	switch t := v.(type) {
	case []byte:
		d, err := decodeJSON(t, maxCanonicalDepth)
		if err != nil {
			return nil, err
		}
		v = d
	case json.RawMessage:
		d, err := decodeJSON(t, maxCanonicalDepth)
		if err != nil {
			return nil, err
		}
		v = d
	}
	w := &walker{maxDepth: maxCanonicalDepth}
	j, err := w.toJSON(v, "", 0)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	writeCanonical(&buf, j)
	return buf.Bytes(), nil
}

// writeCanonical writes a value of the JSON model.
func writeCanonical(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case json.Number:
		buf.WriteString(string(t))
	case string:
		writeString(buf, t)
	case []any:
		buf.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeCanonical(buf, e)
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			writeCanonical(buf, t[k])
		}
		buf.WriteByte('}')
	default:
		panic(fmt.Sprintf("schema: writeCanonical: unexpected %T", v))
	}
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	buf.Truncate(buf.Len() - 1) // Encode's newline
}

// Digest is "sha256:" and the hexadecimal SHA-256 of the canonical JSON of
// a schema (see [Canonical]): the same schema written with other key order
// or whitespace has the same digest. The lock records it to keep a
// published schema version immutable.
func Digest(schemaJSON []byte) (string, error) {
	c, err := Canonical(schemaJSON)
	if err != nil {
		return "", fmt.Errorf("cannot digest schema: %w", err)
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
