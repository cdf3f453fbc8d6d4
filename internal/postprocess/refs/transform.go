package refs

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/redact"
)

// transformer is one named entry of format-transformers.
type transformer struct {
	name string
	fn   func(any) (any, error)
}

// transformers are Composable's ten format transformers. Numbers come out
// as int64 and float64, like every number of a decoded object.
var transformers = map[string]func(any) (any, error){
	// ToString formats any value with %v.
	"ToString": func(v any) (any, error) { return fmt.Sprintf("%v", v), nil },
	// ArrayToCSString formats each element of a list with %v and joins
	// them with commas.
	"ArrayToCSString": func(v any) (any, error) {
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("needs a list, got %s", describe(v))
		}
		parts := make([]string, len(l))
		for i, x := range l {
			parts[i] = fmt.Sprintf("%v", x)
		}
		return strings.Join(parts, ","), nil
	},
	// Base64ToString decodes standard (padded) base64 into text.
	"Base64ToString": stringFn(func(s string) (any, error) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not standard base64: %v", abbrev(s), err)
		}
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("%q decodes to bytes that are not UTF-8 text", abbrev(s))
		}
		return string(b), nil
	}),
	// StringToBase64 encodes text as standard (padded) base64.
	"StringToBase64": stringFn(func(s string) (any, error) {
		return base64.StdEncoding.EncodeToString([]byte(s)), nil
	}),
	// StringToInt parses a decimal 64-bit integer.
	"StringToInt": stringFn(func(s string) (any, error) {
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, numErr(s, "an integer", err)
		}
		return i, nil
	}),
	// StringToInt32 parses a decimal integer in the 32-bit range.
	"StringToInt32": stringFn(func(s string) (any, error) {
		i, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return nil, numErr(s, "a 32-bit integer", err)
		}
		return i, nil
	}),
	// StringToFloat parses a finite 64-bit floating point number.
	"StringToFloat": stringFn(func(s string) (any, error) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, numErr(s, "a number", err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%q is not a finite number", abbrev(s))
		}
		return f, nil
	}),
	// StringToBool parses a boolean with strconv.ParseBool.
	"StringToBool": stringFn(func(s string) (any, error) {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a boolean (1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)", abbrev(s))
		}
		return b, nil
	}),
	// JsonToObject decodes one JSON value.
	"JsonToObject": stringFn(func(s string) (any, error) { return decodeJSON([]byte(s)) }),
	// ObjectToJson encodes a value as compact JSON with sorted keys.
	"ObjectToJson": func(v any) (any, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		return strings.TrimSuffix(buf.String(), "\n"), nil
	},
}

// transformerNames are the names of transformers, sorted.
var transformerNames = func() []string {
	var n []string
	for k := range transformers {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}()

// stringFn wraps a transformer that needs a string.
func stringFn(f func(string) (any, error)) func(any) (any, error) {
	return func(v any) (any, error) {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("needs a string, got %s", describe(v))
		}
		return f(s)
	}
}

func numErr(s, what string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%q is out of range for %s", abbrev(s), what)
	}
	return fmt.Errorf("%q is not %s", abbrev(s), what)
}

// hideValue is err with v (a value read out of a Secret) hidden in its
// message.
func hideValue(err error, v any) error {
	s := redact.New()
	s.AddCopied(v)
	msg := s.Mask(err.Error())
	switch v.(type) {
	case int64, float64, bool: // written unquoted ("got the integer 5432")
		msg = strings.ReplaceAll(msg, fmt.Sprint(v), redact.Hidden)
	}
	return errors.New(msg)
}

// abbrev shortens long values in messages.
func abbrev(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// decodeJSON decodes exactly one JSON value, with integers as int64 and
// other numbers as float64.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("invalid JSON: more than one value")
	}
	return fromJSON(v)
}

func fromJSON(v any) (any, error) {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("invalid JSON: number %s is out of range", t)
		}
		return f, nil
	case map[string]any:
		for k, x := range t {
			y, err := fromJSON(x)
			if err != nil {
				return nil, err
			}
			t[k] = y
		}
	case []any:
		for i, x := range t {
			y, err := fromJSON(x)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
	}
	return v, nil
}

// copyValue deep-copies a decoded YAML value, turning every integer type
// into int64 and every floating point type into float64.
func copyValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = copyValue(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = copyValue(x)
		}
		return out
	case int:
		return int64(t)
	case int8:
		return int64(t)
	case int16:
		return int64(t)
	case int32:
		return int64(t)
	case uint:
		return uintValue(uint64(t))
	case uint8:
		return int64(t)
	case uint16:
		return int64(t)
	case uint32:
		return int64(t)
	case uint64:
		return uintValue(t)
	case float32:
		return float64(t)
	default:
		return v
	}
}

func uintValue(u uint64) any {
	if u <= math.MaxInt64 {
		return int64(u)
	}
	return float64(u)
}
