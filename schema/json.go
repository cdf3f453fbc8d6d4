package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/kudo-render/kudo-render/params"
	"io"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
var jsonNumberRE = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// decodeJSON decodes one JSON document into nil, bool, string, json.Number,
// []any and map[string]any. It reads token by token, without recursion,
// and fails as soon as the nesting exceeds maxDepth; duplicate object keys
// are errors (which one would win is a matter of the reader). Errors carry
// the line.
func decodeJSON(data []byte, maxDepth int) (any, error) {
	type frame struct {
		obj    map[string]any
		arr    []any
		isObj  bool
		key    string
		hasKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineAt := func(off int64) int {
		if off > int64(len(data)) {
			off = int64(len(data))
		}
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	fail := func(format string, args ...any) error {
		return &lineError{Line: lineAt(dec.InputOffset()), Msg: fmt.Sprintf(format, args...)}
	}

	var stack []*frame
	var root any
	done := false
	emit := func(v any) {
		if len(stack) == 0 {
			root, done = v, true
			return
		}
		top := stack[len(stack)-1]
		if top.isObj {
			top.obj[top.key] = v
			top.hasKey = false
			return
		}
		top.arr = append(top.arr, v)
	}
	for !done {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if len(stack) == 0 {
					return nil, errors.New("empty document")
				}
				return nil, fail("unexpected end of JSON")
			}
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, &lineError{Line: lineAt(se.Offset), Msg: se.Error()}
			}
			return nil, fail("%v", err)
		}
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.isObj && !top.hasKey {
				if d, ok := tok.(json.Delim); ok && d == '}' {
					stack = stack[:len(stack)-1]
					emit(top.obj)
					continue
				}
				key, _ := tok.(string) // the decoder only yields strings here
				if _, dup := top.obj[key]; dup {
					return nil, fail("duplicate key %q", key)
				}
				top.key, top.hasKey = key, true
				continue
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= maxDepth {
					return nil, fail("nested deeper than %d levels", maxDepth)
				}
				if t == '{' {
					stack = append(stack, &frame{obj: map[string]any{}, isObj: true})
				} else {
					stack = append(stack, &frame{arr: []any{}})
				}
			case ']':
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				emit(top.arr)
			}
		default:
			emit(t)
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fail("unexpected data after the JSON value")
	}
	return root, nil
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
		if !jsonNumberRE.MatchString(string(t)) {
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
		if depth >= w.maxDepth {
			return nil, &pathError{ptr, fmt.Errorf("%w: more than %d levels", errTooDeep, w.maxDepth)}
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
	case map[string]any:
		if depth >= w.maxDepth {
			return nil, &pathError{ptr, fmt.Errorf("%w: more than %d levels", errTooDeep, w.maxDepth)}
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
	case map[any]any:
		if depth >= w.maxDepth {
			return nil, &pathError{ptr, fmt.Errorf("%w: more than %d levels", errTooDeep, w.maxDepth)}
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
	case json.RawMessage:
		d, err := decodeJSON(t, w.maxDepth-depth)
		if err != nil {
			return nil, &pathError{ptr, err}
		}
		return w.toJSON(d, ptr, depth)
	}
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
	// Anything else (structs, typed maps and slices) goes through its JSON
	// form.
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &pathError{ptr, fmt.Errorf("cannot be represented in JSON: %v", err)}
	}
	d, err := decodeJSON(b, w.maxDepth-depth)
	if err != nil {
		return nil, &pathError{ptr, err}
	}
	return w.toJSON(d, ptr, depth)
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
