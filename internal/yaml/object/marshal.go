package object

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// marshal writes v as YAML exactly as sigs.k8s.io/yaml.Marshal does (JSON
// first, then YAML through go-yaml v2), without the two intermediate
// passes: the tree is normalised the way the JSON round trip would change
// it (numbers re-typed from their JSON text, invalid UTF-8 replaced, nil
// slices and maps as null) and encoded once, by emit where it can (most
// documents), else by go-yaml v2.
func marshal(v any) ([]byte, error) {
	// emit takes the tree as it is when everything in it is what the JSON
	// round trip leaves alone (it re-types floats itself), else the
	// normalised copy.
	if b, ok := emit(v); ok {
		return b, nil
	}
	n, err := jsonNormal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	if b, ok := emit(n); ok {
		return b, nil
	}
	return yamlv2.Marshal(ordered(n))
}

// jsonNormal returns v as the JSON round trip would give it to go-yaml.
func jsonNormal(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool:
		return t, nil
	case string:
		return jsonString(t)
	case map[string]any:
		if t == nil {
			return nil, nil
		}
		out := make(map[string]any, len(t))
		var from map[string]string // normalised key -> original, once keys collide
		for k, x := range t {
			nx, err := jsonNormal(x)
			if err != nil {
				return nil, err
			}
			nk, err := jsonKey(k)
			if err != nil {
				return nil, err
			}
			key := nk.(string)
			if _, dup := out[key]; dup || key != k {
				// Keys with invalid UTF-8 can become equal. encoding/json
				// writes keys sorted by their original bytes and go-yaml
				// keeps the last of equal keys: the greatest original wins,
				// whatever order the map is walked in.
				if from == nil {
					from = map[string]string{}
				}
				prev, seen := from[key]
				if !seen {
					prev = key // the key held is its own original
				}
				if dup && prev > k {
					continue
				}
				from[key] = k
			}
			out[key] = nx
		}
		return out, nil
	case []any:
		if t == nil {
			return nil, nil
		}
		out := make([]any, len(t))
		for i, x := range t {
			nx, err := jsonNormal(x)
			if err != nil {
				return nil, err
			}
			out[i] = nx
		}
		return out, nil
	case int:
		return t, nil
	case int64:
		return t, nil
	case uint64:
		if t <= math.MaxInt64 {
			return int(t), nil
		}
		return t, nil
	case float64:
		return jsonFloat(t, 64)
	case float32:
		return jsonFloat(float64(t), 32)
	}
	return viaJSON(v)
}

// jsonFloat gives the number go-yaml reads from encoding/json's text of f.
func jsonFloat(f float64, bits int) (any, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	b, err := json.Marshal(f)
	if bits == 32 {
		b, err = json.Marshal(float32(f))
	}
	if err != nil {
		return nil, err
	}
	s := string(b)
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		if int64(int(i)) == i {
			return int(i), nil
		}
		return i, nil
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u, nil
	}
	return strconv.ParseFloat(s, 64)
}

// viaJSON normalises a value of another type by the real round trip.
func viaJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := yamlv2.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// maxSimpleKey is go-yaml's limit on a mapping key in flow style: a key
// whose JSON text (quotes and escapes included) is longer than this many
// characters is not found as a key, and sigs.k8s.io/yaml fails on it.
const maxSimpleKey = 1024

// jsonKey is jsonString for a mapping key, failing where the round trip
// fails on a long key.
func jsonKey(k string) (any, error) {
	if strings.ContainsRune(k, nel) { // the key spans two lines of the JSON text
		return nil, fmt.Errorf("yaml: did not find expected ',' or '}' (a key with a NEL line break: %.40q…)", k)
	}
	nk, err := jsonString(k)
	if err != nil || len(k)*6+2 <= maxSimpleKey { // an escape is at most 6 characters
		return nk, err
	}
	b, err := json.Marshal(k) // the JSON text: an invalid byte is the 6 characters \ufffd
	if err != nil {
		return nil, err
	}
	if utf8.RuneCount(b) > maxSimpleKey {
		return nil, fmt.Errorf("yaml: did not find expected ',' or '}' (a key longer than %d characters in JSON: %.40q…)", maxSimpleKey, k)
	}
	return nk, nil
}

// jsonString is s after the round trip: invalid UTF-8 replaced; the
// characters that encoding/json writes raw but go-yaml's reader refuses
// (C1 controls but NEL, U+FFFE, U+FFFF) fail as they do there.
func jsonString(s string) (any, error) {
	s = validUTF8(s)
	for _, r := range s {
		if r >= 0x7f && r <= 0x9f && r != 0x85 || r == 0xfffe || r == 0xffff {
			return nil, fmt.Errorf("yaml: control characters are not allowed")
		}
	}
	if strings.ContainsRune(s, nel) {
		return foldNEL(s)
	}
	return s, nil
}

// nel is the one line break encoding/json writes unescaped; go-yaml reads
// it as a line break inside the quoted scalar and folds it.
const nel = '\u0085'

// foldNEL is s as go-yaml reads its JSON text back: in a double-quoted
// scalar, the only raw blank JSON leaves is a space and the only raw break
// is NEL (everything else comes from an escape and is kept). A break and
// the spaces around it fold to one space, n breaks in a row to n-1 line
// feeds, and "---" or "..." right after a break is a document indicator.
func foldNEL(s string) (any, error) {
	var out strings.Builder
	rs := []rune(s)
	i, col0 := 0, false
	for {
		if col0 && documentIndicator(rs[i:]) {
			return nil, fmt.Errorf("yaml: found unexpected document indicator in %.40q…", s)
		}
		for ; i < len(rs) && rs[i] != ' ' && rs[i] != nel; i++ {
			out.WriteRune(rs[i])
		}
		if i == len(rs) {
			return out.String(), nil
		}
		spaces, broken, breaks := 0, false, 0
		for ; i < len(rs) && (rs[i] == ' ' || rs[i] == nel); i++ {
			switch {
			case rs[i] == nel && broken:
				breaks++
			case rs[i] == nel:
				broken, spaces = true, 0
			case !broken:
				spaces++
			}
			col0 = rs[i] == nel
		}
		switch {
		case broken && breaks == 0:
			out.WriteByte(' ')
		case broken:
			out.WriteString(strings.Repeat("\n", breaks))
		default:
			out.WriteString(strings.Repeat(" ", spaces))
		}
	}
}

// documentIndicator: rs starts with "---" or "..." and a blank or break.
func documentIndicator(rs []rune) bool {
	if len(rs) < 4 || rs[3] != ' ' && rs[3] != nel {
		return false
	}
	p := string(rs[:3])
	return p == "---" || p == "..."
}

// validUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		out = append(out, r) // RuneError for an invalid byte (size 1)
		i += size
	}
	return string(out)
}

// ordered gives go-yaml the mappings of v as MapSlices in emit's key
// order, which is go-yaml's own wherever that is a total order. Where it
// is not (keys such as "10", "010" and "0o17"), go-yaml's result would
// depend on the order Go walks the map in.
func ordered(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(yamlv2.MapSlice, 0, len(t))
		for _, k := range sortedKeys(t, make([]string, 0, len(t))) {
			out = append(out, yamlv2.MapItem{Key: k, Value: ordered(t[k])})
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = ordered(x)
		}
		return out
	}
	return v
}
