package validate_test

import (
	"encoding/json"
	"strings"
)

// named is a value and what it is.
type named struct {
	what  string
	value any
}

// wrongValues are values for a field of schema s (map form) around what
// it accepts: other types, the bounds, enums, formats, patterns.
func wrongValues(s map[string]any) []named {
	if s["x-kubernetes-int-or-string"] == true {
		return []named{{"a boolean", true}, {"a fraction", 1.5}, {"an object", map[string]any{}}, {"a string", "x"}, {"an integer", int64(3)}, {"a negative integer", int64(-3)}}
	}
	var out []named
	switch s["type"] {
	case "string":
		out = append(out, stringValues(s)...)
	case "integer", "number":
		out = append(out, numberValues(s)...)
	case "boolean":
		out = append(out, named{"a string", "true"}, named{"a number", int64(1)}, named{"false", false})
	case "object":
		out = append(out, named{"a string", "x"}, named{"a list", []any{}}, named{"empty", map[string]any{}})
	case "array":
		out = append(out, named{"a string", "x"}, named{"an object", map[string]any{}})
	}
	if enum, ok := s["enum"].([]any); ok {
		for _, e := range enum {
			out = append(out, named{"the enum value " + strings.TrimSpace(toString(e)), e})
		}
	}
	return out
}

// stringValues: other types, empty, at and over its bounds, a value not
// in its enum, nor of its format or pattern.
func stringValues(s map[string]any) []named {
	out := []named{{"a number", int64(7)}, {"a boolean", true}, {"a list", []any{"x"}}, {"an object", map[string]any{"a": "b"}}, {"empty", ""}}
	if n, ok := s["maxLength"].(int64); ok {
		out = append(out, named{"at maxLength", strings.Repeat("x", int(n))}, named{"over maxLength", strings.Repeat("x", int(n)+1)})
	} else {
		out = append(out, named{"long", strings.Repeat("x", 300)})
	}
	if _, ok := s["enum"]; ok {
		out = append(out, named{"not in the enum", "zz-not-in-enum"})
	}
	if f, ok := s["format"].(string); ok {
		out = append(out, named{"not a " + f, "not-a-" + f})
	}
	if _, ok := s["pattern"]; ok {
		out = append(out, named{"against the pattern", "!!"})
	}
	return out
}

// numberValues: other types, fractions, integral floats, the bounds of
// the schema and of its format.
func numberValues(s map[string]any) []named {
	out := []named{{"a string", "7"}, {"a boolean", true}, {"zero", int64(0)}, {"negative", int64(-1)}, {"a fraction", 1.5}, {"a float without fraction", 2.0}, {"beyond int64", 1e19}, {"the largest int64", int64(1<<63 - 1)}}
	if s["format"] == "int32" {
		out = append(out, named{"over int32", int64(1) << 31})
	}
	for _, k := range []string{"minimum", "maximum"} {
		n, ok := number(s[k])
		if !ok {
			continue
		}
		out = append(out, named{"at " + k, n}, named{"below " + k, n - 1}, named{"above " + k, n + 1})
	}
	return out
}

// number reads an integer or a float of a schema.
func number(v any) (int64, bool) {
	switch t := v.(type) {
	case int64:
		return t, true
	case float64:
		return int64(t), true
	}
	return 0, false
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(jsonText(v), "\n", " "), "\"", ""))
}

// jsonText is v written as JSON.
func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// typical is a value schema s accepts: its default, its first enum value,
// or the smallest of its type (objects with their required properties;
// all properties when full, depth levels deep).
func typical(s map[string]any, depth int) any {
	if d, ok := s["default"]; ok {
		return d
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if s["x-kubernetes-int-or-string"] == true {
		return int64(1)
	}
	if s["x-kubernetes-embedded-resource"] == true {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}}
	}
	switch s["type"] {
	case "string":
		return typicalString(s)
	case "integer", "number":
		if n, ok := number(s["minimum"]); ok {
			return max(n, 1)
		}
		return int64(1)
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return typicalObject(s, depth)
	}
	return map[string]any{}
}

// typicalString is a string of the schema's format, or one character.
func typicalString(s map[string]any) any {
	samples := map[string]string{
		"date-time": "2024-05-01T10:00:00Z", "date": "2024-05-01", "email": "a@example.com", "uri": "https://example.com",
		"hostname": "example.com", "ipv4": "10.0.0.1", "ipv6": "::1", "uuid": "123e4567-e89b-12d3-a456-426614174000",
		"byte": "YQ==", "duration": "1s", "int-or-string": "1",
	}
	if f, ok := s["format"].(string); ok {
		if v, ok := samples[f]; ok {
			return v
		}
	}
	if n, ok := s["minLength"].(int64); ok && n > 1 {
		return strings.Repeat("a", int(n))
	}
	if strings.Contains(toString(s["x-kubernetes-validations"]), "https://") {
		return "https://example.com"
	}
	return "a"
}

// typicalObject is an object with the required properties of s; with
// depth > 0, every property, depth-1 levels below.
func typicalObject(s map[string]any, depth int) any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, k := range r {
			required[toString(k)] = true
		}
	}
	for _, k := range sortedMapKeys(props) {
		if ps, ok := props[k].(map[string]any); ok && (required[k] || depth > 0) {
			out[k] = typical(ps, depth-1)
		}
	}
	return out
}

// servedSchema is the openAPIV3Schema of the first served version of a
// definition (map form).
func servedSchema(crd map[string]any) map[string]any {
	spec, _ := crd["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		if vm["served"] != true {
			continue
		}
		sch, _ := vm["schema"].(map[string]any)
		s, _ := sch["openAPIV3Schema"].(map[string]any)
		return s
	}
	return nil
}

// seedOf is a custom resource of crd's first served version with every
// property its schema names, three levels deep.
func seedOf(crd map[string]any) map[string]any {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	version := ""
	for _, v := range versions {
		if vm, _ := v.(map[string]any); vm["served"] == true {
			version, _ = vm["name"].(string)
			break
		}
	}
	obj, _ := typicalObject(servedSchema(crd), 3).(map[string]any)
	delete(obj, "status")
	obj["apiVersion"] = toString(spec["group"]) + "/" + version
	obj["kind"] = names["kind"]
	md := map[string]any{"name": "seed"}
	if spec["scope"] != "Cluster" {
		md["namespace"] = "agree-cr"
	}
	obj["metadata"] = md
	return obj
}
