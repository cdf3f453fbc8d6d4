package params

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns the canonical text of a scalar value: a string as is, a
// boolean as "true" or "false", an integer in base 10 and a float without an
// exponent (1e6 is "1000000", never "1e+06"). It reports false for nil,
// collections and any other type.
func Text(v any) (string, bool) {
	switch t := v.(type) {
	case nil:
		return "", false
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	}
	// Named types (json.Number, a caller's own string type) and the less
	// common sizes.
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.String(), true
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10), true
	case reflect.Float32:
		return strconv.FormatFloat(rv.Float(), 'f', -1, 32), true
	case reflect.Float64:
		return strconv.FormatFloat(rv.Float(), 'f', -1, 64), true
	}
	return "", false
}

// ParseBool reads a value as a boolean, the way Toggle tasks do: the
// canonical text of v must be accepted by [strconv.ParseBool].
func ParseBool(v any) (bool, error) {
	s, ok := Text(v)
	if !ok {
		return false, fmt.Errorf("%s is not a boolean (want true or false)", describe(v))
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s is not a boolean (want true or false)", quote(s))
	}
	return b, nil
}

// kind classifies a value for messages and conversion.
type kind int

const (
	kindNone kind = iota
	kindScalar
	kindList
	kindMap
	kindOther
)

func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kindNone
	case []any:
		return kindList
	case map[string]any, map[any]any:
		return kindMap
	}
	if _, ok := Text(v); ok {
		return kindScalar
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Slice, reflect.Array:
		return kindList
	case reflect.Map:
		return kindMap
	}
	return kindOther
}

// describe names a value in a message: scalars by their quoted text,
// collections by what they are.
func describe(v any) string {
	switch kindOf(v) {
	case kindNone:
		return "no value"
	case kindScalar:
		s, _ := Text(v)
		return quote(s)
	case kindList:
		return "a list"
	case kindMap:
		return "a map"
	}
	return fmt.Sprintf("a value of type %T", v)
}

// maxQuoted is how many runes of a value a message shows.
const maxQuoted = 64

// quote quotes s for a one-line message, shortening long values.
func quote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:maxQuoted])) + "..."
}

// nameInMsg prints a parameter name as is when it is plain, quoted when it
// holds spaces or unprintable characters that would garble a message.
func nameInMsg(name string) string {
	if name == "" || strings.IndexFunc(name, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r) || r == ':'
	}) >= 0 {
		return quote(name)
	}
	return name
}

// normalize deep-copies a collection (or a scalar) into the shapes
// templates see: []any, map[string]any with string keys (map[any]any keys
// become their canonical text, nil becomes "null"), scalars as they are.
// It reports the first problem it finds with a path to where it is.
func normalize(v any, path string) (any, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			n, err := normalize(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			n, err := normalize(e, keyPath(path, k))
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	}
	if _, ok := Text(v); ok {
		return v, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			n, err := normalize(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case reflect.Map:
		out := make(map[string]any, rv.Len())
		// Keys are converted in a stable order so that a collision is
		// always reported the same way.
		type entry struct {
			key string
			val any
		}
		entries := make([]entry, 0, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			k := iter.Key().Interface()
			ks, ok := Text(k)
			switch {
			case k == nil:
				ks = "null"
			case !ok:
				return nil, fmt.Errorf("holds a map key that is %s, not a scalar%s", describe(k), at(path))
			}
			entries = append(entries, entry{ks, iter.Value().Interface()})
		}
		seen := make(map[string]bool, len(entries))
		for _, e := range entries {
			if seen[e.key] {
				return nil, fmt.Errorf("holds a map in which the key %s appears twice%s", quote(e.key), at(path))
			}
			seen[e.key] = true
			n, err := normalize(e.val, keyPath(path, e.key))
			if err != nil {
				return nil, err
			}
			out[e.key] = n
		}
		return out, nil
	}
	return nil, fmt.Errorf("holds a value of unsupported type %T%s", v, at(path))
}

func keyPath(path, key string) string {
	if key != "" && strings.IndexFunc(key, func(r rune) bool {
		return !(r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) < 0 {
		return path + "." + key
	}
	return path + "[" + quote(key) + "]"
}

func at(path string) string {
	if path == "" {
		return ""
	}
	return " at " + path
}

// canonical turns every scalar inside v into its text, so that values
// written differently by different callers (1 and "1") compare equal.
func canonical(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = canonical(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = canonical(e)
		}
		return out
	}
	if s, ok := Text(v); ok {
		return s
	}
	return v
}
