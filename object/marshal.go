package object

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// marshal writes v as YAML exactly as sigs.k8s.io/yaml.Marshal does (JSON
// first, then YAML through go-yaml v2), without the two intermediate
// passes: the tree is normalised the way the JSON round trip would change
// it (numbers re-typed from their JSON text, invalid UTF-8 replaced, nil
// slices and maps as null) and encoded once.
func marshal(v any) ([]byte, error) {
	n, err := jsonNormal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	return yamlv2.Marshal(n)
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
		for k, x := range t {
			nx, err := jsonNormal(x)
			if err != nil {
				return nil, err
			}
			nk, err := jsonString(k)
			if err != nil {
				return nil, err
			}
			out[nk.(string)] = nx
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
	return s, nil
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
