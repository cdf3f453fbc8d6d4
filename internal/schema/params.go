package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// ParamsSchemaFile is the name of a bundle's parameter schema.
const ParamsSchemaFile = "params.schema.json"

// draft2020 is the dialect of derived schemas and the default of the
// others.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// Params returns the effective JSON Schema of a bundle's parameters as
// canonical JSON (see [Canonical]). The schema describes the parameter
// values a FunctionConfig gives, before defaults: an object whose
// properties are the parameters.
//
//   - A bundle that is not an extension (no Bundle.BaseParamsSchemas) uses
//     its params.schema.json as written.
//   - An extension combines the params.schema.json of its bases (oldest
//     first) and its own, each layer over the one below: `properties`,
//     `patternProperties`, `$defs`, `definitions`, `dependentSchemas` and
//     `dependentRequired` merge per name, the upper layer's entry replacing
//     the lower's whole; `required` is the union (an extension cannot drop
//     a base's requirement); `allOf` lists are concatenated (without
//     repeats), so the base's constraints keep applying; every other
//     keyword comes from the uppermost layer that has it. Then every
//     parameter of the merged params.yaml that no layer describes gets the
//     property derived from params.yaml (and is required if it is required
//     there without a default). So parameters that an extension adds are
//     properties of the result and a base's `additionalProperties: false`
//     does not reject them. Layers must share their dialect ($schema).
//     A base's `additionalProperties: false` inside an allOf branch would
//     still reject them: write it at the top level.
//   - Without any params.schema.json, the schema is derived from
//     params.yaml: the 2020-12 dialect, `type: object`,
//     `additionalProperties: false`, and per parameter a property with
//     `type` (string, integer, number, boolean, array; map is object),
//     `title` (displayName), `description`, `default` and `enum` (defaults
//     and enum values converted to the parameter's type when their text
//     parses as it), `required` listing the required parameters without a
//     default.
//
// The result is compiled before it is returned: a schema that does not
// compile, is too large or too deep, or refers outside itself is an error
// (a [*SchemaError]).
func Params(b *bundle.Bundle) ([]byte, error) {
	doc, _, err := effectiveParams(b, nil)
	if err != nil {
		return nil, err
	}
	return Canonical(doc)
}

// effectiveParams builds and compiles the effective parameter schema,
// the work of compiling it charged to budget (see chargeCompile).
func effectiveParams(b *bundle.Bundle, budget *limits.Budget) (map[string]any, *compiled, error) {
	doc, err := paramsDoc(b, budget)
	if err != nil {
		return nil, nil, err
	}
	name := ParamsSchemaFile
	if len(b.BaseParamsSchemas) > 0 {
		name += " (combined with its bases')"
	}
	if err := chargeCompile(budget, name, doc); err != nil {
		return nil, nil, err
	}
	c, probs := compileSchema(ParamsSchemaFile, doc, false)
	if len(probs) > 0 {
		return nil, nil, schemaError(name, probs, nil)
	}
	return doc, c, nil
}

// schemaError turns problems into a *SchemaError; lines maps JSON pointers
// to lines when known.
func schemaError(name string, probs []schemaProblem, lines map[string]int) *SchemaError {
	e := &SchemaError{Schema: name}
	for _, p := range probs {
		e.Problems = append(e.Problems, &Problem{File: name, Line: lineOf(lines, p.ptr), Field: p.ptr, Msg: p.msg})
	}
	return e
}

// lineOf returns the line of ptr, or of its nearest ancestor with one.
func lineOf(lines map[string]int, ptr string) int {
	if lines == nil {
		return 0
	}
	for {
		if l, ok := lines[ptr]; ok {
			return l
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return 0
		}
		ptr = ptr[:i]
	}
}

// paramsDoc builds the effective parameter schema, uncompiled. The
// layers of an extension are compiled one by one first (within budget),
// so that a layer's problems name its file; a schema of one layer is
// compiled once, as the effective schema.
func paramsDoc(b *bundle.Bundle, budget *limits.Budget) (map[string]any, error) {
	if len(b.BaseParamsSchemas) == 0 {
		if b.ParamsSchema == nil {
			return derivedParams(b.Params)
		}
		return decodeLayer(ParamsSchemaFile, b.ParamsSchema, nil)
	}
	check := func(name string, doc map[string]any) error { return chargeCompile(budget, name, doc) }

	var layers []map[string]any
	var names []string
	n := len(b.BaseParamsSchemas)
	for i, raw := range b.BaseParamsSchemas {
		if raw == nil {
			continue
		}
		name := strings.Repeat("base/", n-i) + ParamsSchemaFile
		doc, err := decodeLayer(name, raw, check)
		if err != nil {
			return nil, err
		}
		layers = append(layers, doc)
		names = append(names, name)
	}
	if b.ParamsSchema != nil {
		doc, err := decodeLayer(ParamsSchemaFile, b.ParamsSchema, check)
		if err != nil {
			return nil, err
		}
		layers = append(layers, doc)
		names = append(names, ParamsSchemaFile)
	}
	if len(layers) == 0 {
		return derivedParams(b.Params)
	}

	merged := layers[0]
	for i, upper := range layers[1:] {
		lower := dialect(merged)
		if d := dialect(upper); d != lower {
			return nil, &SchemaError{Schema: names[i+1], Problems: []*Problem{{
				File: names[i+1], Field: "/$schema",
				Msg: fmt.Sprintf("dialect %s differs from %s of %s: schemas of one chain must share their dialect to be combined", d, lower, names[i]),
			}}}
		}
		merged = mergeLayers(merged, upper)
	}

	return withDerived(merged, b.Params)
}

// withDerived gives every parameter of params that merged (a combined
// schema) does not describe its derived property, required when it needs
// a value.
func withDerived(merged map[string]any, params []*bundle.Param) (map[string]any, error) {
	props, _ := merged["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	required := requiredOf(merged)
	isRequired := make(map[string]bool, len(required))
	for _, r := range required {
		isRequired[r] = true
	}
	added := false
	for _, p := range params {
		if p == nil {
			continue
		}
		if _, ok := props[p.Name]; ok {
			continue
		}
		prop, err := derivedProperty(p)
		if err != nil {
			return nil, err
		}
		props[p.Name] = prop
		added = true
		if p.NeedsValue() && !isRequired[p.Name] {
			required = append(required, p.Name)
			isRequired[p.Name] = true
		}
	}
	if added || merged["properties"] != nil {
		merged["properties"] = props
	}
	if len(required) > 0 {
		merged["required"] = stringsToAny(required)
	}
	return merged, nil
}

// decodeLayer decodes one params.schema.json; with check, which charges
// the work of compiling it, it is compiled on its own too.
func decodeLayer(name string, raw []byte, check func(string, map[string]any) error) (map[string]any, error) {
	if len(raw) > MaxSchemaBytes {
		return nil, &SchemaError{Schema: name, Problems: []*Problem{{File: name,
			Msg: fmt.Sprintf("is %d bytes long; the limit is %d", len(raw), MaxSchemaBytes)}}}
	}
	doc, err := decodeJSON(raw, MaxDepth)
	if err != nil {
		p := &Problem{File: name, Msg: err.Error()}
		if le, ok := err.(*lineError); ok {
			p.Line, p.Msg = le.Line, le.Msg
		}
		return nil, &SchemaError{Schema: name, Problems: []*Problem{p}}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, &SchemaError{Schema: name, Problems: []*Problem{{File: name,
			Msg: fmt.Sprintf("must be a JSON object (a schema of the parameters object), not %s", jsonKind(doc))}}}
	}
	if check == nil {
		return m, nil
	}
	// Each layer must compile on its own, so that its problems name its
	// file.
	if err := check(name, m); err != nil {
		return nil, err
	}
	if _, probs := compileSchema(ParamsSchemaFile, m, false); len(probs) > 0 {
		return nil, schemaError(name, probs, nil)
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// dialect is a layer's $schema, normalised; the default is 2020-12.
func dialect(doc map[string]any) string {
	s, _ := doc["$schema"].(string)
	if s == "" {
		return draft2020
	}
	return strings.TrimSuffix(s, "#")
}

// mergeLayers merges upper over lower (see Params). Neither is modified.
func mergeLayers(lower, upper map[string]any) map[string]any {
	out := make(map[string]any, len(lower)+len(upper))
	for k, v := range lower {
		out[k] = v
	}
	for k, uv := range upper {
		lv, both := out[k]
		if !both {
			out[k] = uv
			continue
		}
		switch k {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependentRequired":
			lm, lok := lv.(map[string]any)
			um, uok := uv.(map[string]any)
			if !lok || !uok {
				out[k] = uv
				continue
			}
			m := make(map[string]any, len(lm)+len(um))
			for n, s := range lm {
				m[n] = s
			}
			for n, s := range um {
				m[n] = s
			}
			out[k] = m
		case "required":
			la, lok := lv.([]any)
			ua, uok := uv.([]any)
			if !lok || !uok {
				out[k] = uv
				continue
			}
			out[k] = unionJSON(la, ua)
		case "allOf":
			la, lok := lv.([]any)
			ua, uok := uv.([]any)
			if !lok || !uok {
				out[k] = uv
				continue
			}
			out[k] = unionJSON(la, ua)
		default:
			out[k] = uv
		}
	}
	return out
}

// unionJSON appends to a the elements of b that a does not hold (compared
// as canonical JSON).
func unionJSON(a, b []any) []any {
	out := slices.Clone(a)
	seen := map[string]bool{}
	for _, v := range a {
		c, _ := Canonical(v)
		seen[string(c)] = true
	}
	for _, v := range b {
		c, _ := Canonical(v)
		if !seen[string(c)] {
			seen[string(c)] = true
			out = append(out, v)
		}
	}
	return out
}

func requiredOf(doc map[string]any) []string {
	arr, _ := doc["required"].([]any)
	var out []string
	for _, v := range arr {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// derivedParams derives the parameter schema from params.yaml.
func derivedParams(defs []*bundle.Param) (map[string]any, error) {
	props := map[string]any{}
	var required []string
	for _, p := range defs {
		if p == nil {
			continue
		}
		if _, dup := props[p.Name]; dup {
			continue // params.Resolve uses the first definition too
		}
		prop, err := derivedProperty(p)
		if err != nil {
			return nil, err
		}
		props[p.Name] = prop
		if p.NeedsValue() {
			required = append(required, p.Name)
		}
	}
	doc := map[string]any{
		"$schema":              draft2020,
		"type":                 "object",
		"additionalProperties": false,
		"properties":           props,
	}
	if len(required) > 0 {
		doc["required"] = stringsToAny(required)
	}
	return doc, nil
}

// jsonTypeOf maps a parameter type to a JSON Schema type.
func jsonTypeOf(t bundle.ParamType) (string, bool) {
	switch t {
	case "", bundle.TypeString:
		return "string", true
	case bundle.TypeInteger, bundle.TypeNumber, bundle.TypeBoolean, bundle.TypeArray:
		return string(t), true
	case bundle.TypeMap:
		return "object", true
	}
	return "", false
}

// derivedProperty is the schema of one parameter of params.yaml.
func derivedProperty(p *bundle.Param) (map[string]any, error) {
	t, ok := jsonTypeOf(p.Type)
	if !ok {
		return nil, &SchemaError{Schema: "params.yaml", Problems: []*Problem{{
			File: orDefault(p.Pos.File, "params.yaml"), Line: p.Pos.Line, Field: p.Name,
			Msg: fmt.Sprintf("has unknown type %q (want string, integer, number, boolean, array or map)", string(p.Type)),
		}}}
	}
	prop := map[string]any{"type": t}
	if p.DisplayName != "" {
		prop["title"] = p.DisplayName
	}
	if p.Description != "" {
		prop["description"] = p.Description
	}
	if p.Default != nil {
		if v, ok := typedValue(p.Default, []string{t}); ok {
			prop["default"] = v
		} else if v, err := (&walker{maxDepth: MaxDepth}).toJSON(p.Default, "", 0); err == nil {
			prop["default"] = v
		}
	}
	if len(p.Enum) > 0 {
		var enum []any
		for _, e := range p.Enum {
			if v, ok := typedValue(e, []string{t}); ok {
				enum = append(enum, v)
			} else if v, err := (&walker{maxDepth: MaxDepth}).toJSON(e, "", 0); err == nil {
				enum = append(enum, v)
			}
		}
		prop["enum"] = enum
	}
	return prop, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// typedValue converts a parameter value to one of the JSON types types:
// scalar text that parses as an integer, number or boolean becomes one,
// YAML or JSON text of an array or object becomes one, Go scalars become
// text for string types. Collections are converted to the JSON model. It
// reports false when no type fits; an empty types accepts the value as it
// is.
func typedValue(v any, types []string) (any, bool) {
	w := &walker{maxDepth: MaxDepth}
	switch v.(type) {
	case []any, map[string]any, map[any]any:
		j, err := w.toJSON(v, "", 0)
		if err != nil {
			return nil, false
		}
		return j, len(types) == 0 || slices.Contains(types, jsonKindName(j))
	}
	s, isText := v.(string)
	if !isText {
		// A Go scalar: keep it when its JSON type fits, else use its text.
		j, err := w.toJSON(v, "", 0)
		if err != nil {
			return nil, false
		}
		k := jsonKindName(j)
		if len(types) == 0 || slices.Contains(types, k) || (k == "number" && slices.Contains(types, "integer") && isIntegral(j)) {
			return j, true
		}
		t, ok := params.Text(v)
		if !ok {
			return nil, false
		}
		s = t
	}
	if len(types) == 0 || slices.Contains(types, "string") {
		return s, true
	}
	for _, t := range types {
		switch t {
		case "integer":
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
				return json.Number(strconv.FormatInt(n, 10)), true
			}
		case "number":
			txt := strings.TrimSpace(s)
			f, err := strconv.ParseFloat(txt, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				continue
			}
			if jsonNumberRE().MatchString(txt) {
				return json.Number(txt), true
			}
			return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), true
		case "boolean":
			if bv, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
				return bv, true
			}
		case "array", "object":
			var parsed any
			if err := safeYAML(s, &parsed); err != nil {
				continue
			}
			j, err := w.toJSON(parsed, "", 0)
			if err != nil {
				continue
			}
			if jsonKindName(j) == t {
				return j, true
			}
		case "null":
			if s == "" || s == "null" || s == "~" {
				return nil, true
			}
		}
	}
	return nil, false
}

func isIntegral(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return err == nil && f == math.Trunc(f)
}

// jsonKindName is the JSON Schema type name of a value of the JSON model
// ("number" for every number).
func jsonKindName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// safeYAML decodes one YAML document, turning a decoder panic into an
// error.
func safeYAML(s string, out *any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot parse YAML: %v", r)
		}
	}()
	if len(s) > MaxSchemaBytes {
		return fmt.Errorf("is longer than %d bytes", MaxSchemaBytes)
	}
	return strictyaml.Unmarshal("", []byte(s), out)
}

// declaredTypes returns the JSON types the schema gives the property name
// (following local $refs), or those of its params.yaml definition.
func declaredTypes(doc map[string]any, name string, p *bundle.Param) []string {
	props, _ := doc["properties"].(map[string]any)
	s := props[name]
	for hops := 0; hops < 16; hops++ {
		m, ok := s.(map[string]any)
		if !ok {
			break
		}
		switch t := m["type"].(type) {
		case string:
			return []string{t}
		case []any:
			var out []string
			for _, e := range t {
				if es, ok := e.(string); ok {
					out = append(out, es)
				}
			}
			return out
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			break
		}
		s = resolvePointer(doc, ref[1:])
	}
	if p != nil {
		if t, ok := jsonTypeOf(p.Type); ok {
			return []string{t}
		}
	}
	return nil
}

// resolvePointer returns the value at a JSON pointer in doc, or nil.
func resolvePointer(doc any, ptr string) any {
	if ptr == "" {
		return doc
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := cur.(type) {
		case map[string]any:
			cur = t[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			cur = t[i]
		default:
			return nil
		}
	}
	return cur
}

// ValidateParams validates the parameter values of a FunctionConfig
// against [Params] of b, before defaults are applied (so `required` means
// "the user must give it").
//
// Values are as the FunctionConfig gives them: scalars as strings holding
// the literal text (Go booleans and numbers are accepted too), arrays and
// maps as []any and map[string]any (or as YAML/JSON text). A nil value is
// no value, as in [params.Resolve]. Before validation each value is
// converted to the type that the schema declares for its property (or
// params.yaml, when the schema declares none): "3" becomes the integer 3,
// "true" the boolean true, "2.5" the number 2.5, "[a, b]" an array. So a
// string is only a violation when its text does not parse as the declared
// type. Format and content assertions are on.
//
// It returns nil or a [*ValidationError] listing every violation, each with
// the JSON pointer of the value ("/NODE_COUNT", "/resources/limits/cpu"),
// sorted by pointer. A schema that cannot be used is a [*SchemaError].
func ValidateParams(b *bundle.Bundle, values map[string]any) error {
	doc, c, err := effectiveParams(b, nil)
	if err != nil {
		return err
	}
	viols, err := validateValues(b, doc, c, values, false)
	if err != nil {
		return err
	}
	if len(viols) == 0 {
		return nil
	}
	return &ValidationError{What: "parameter", Violations: viols}
}

// validateValues validates values (parameter name to value, as
// [ValidateParams] takes them) against the compiled schema c of doc and
// returns every violation, sorted. forDefaults is set when values hold
// defaults: a parameter the schema does not let a user set
// (additionalProperties, a false subschema) may still have a default that
// templates use, so those violations are left out at the top level.
func validateValues(b *bundle.Bundle, doc map[string]any, c *compiled, values map[string]any, forDefaults bool) ([]Violation, error) {
	var viols []Violation
	converted := make(map[string]any, len(values))
	unparsed := map[string]bool{}
	nodes := 1
	defs := paramsByName(b)
	for _, name := range slices.Sorted(maps.Keys(values)) {
		v := values[name]
		if v == nil {
			continue
		}
		ptr := "/" + escapePtr(name)
		types := declaredTypes(doc, name, defs[name])
		// The value sits one level down, in the parameters object.
		w := &walker{maxDepth: MaxDepth}
		if _, err := w.toJSON(v, ptr, 1); err != nil {
			viols = append(viols, violationOf(ptr, err))
			continue
		}
		tv, ok := typedValue(v, types)
		if !ok {
			// Validate the value as it is: the schema says what is wrong
			// with it, and the message below says why it was not
			// converted.
			tv, _ = (&walker{maxDepth: MaxDepth}).toJSON(v, ptr, 1)
			if s, isText := v.(string); isText {
				unparsed[ptr] = true
				viols = append(viols, Violation{Pointer: ptr, Message: fmt.Sprintf("%s is not %s", strconv.Quote(s), typeList(types))})
			}
		}
		nodes += w.nodes
		converted[name] = tv
	}
	found, err := c.validate(converted, nodes)
	var le *diag.LimitError
	if errors.As(err, &le) {
		return nil, err // the render's budget: no violation of the values
	}
	if err != nil {
		return nil, &ValidationError{What: "parameter", Violations: []Violation{{Message: err.Error()}}}
	}
	declared := slices.Sorted(maps.Keys(mapOf(doc["properties"])))
	var sg suggest.Suggester
	for _, v := range found {
		if unparsed[v.Pointer] && strings.HasPrefix(v.Message, "got string, want ") {
			continue // said better above
		}
		topLevel := strings.Count(v.Pointer, "/") == 1
		notAllowed := strings.HasSuffix(v.Message, "(additionalProperties)") || v.Message == "is not allowed by the schema"
		switch {
		case forDefaults && topLevel && notAllowed:
			continue
		case topLevel && strings.HasSuffix(v.Message, "(additionalProperties)"):
			name := unescapePtr(v.Pointer[1:])
			v.Message = "is not a parameter of this package"
			if s, ok := sg.Suggest(name, declared); ok {
				v.Message += "; did you mean " + s + "?"
			}
		}
		viols = append(viols, v)
	}
	sortViolations(viols)
	return viols, nil
}

// paramsByName indexes the parameters of b by name, the first of a name
// (as b.Param finds it), for lookups in time independent of their number.
func paramsByName(b *bundle.Bundle) map[string]*bundle.Param {
	out := make(map[string]*bundle.Param, len(b.Params))
	for _, p := range b.Params {
		if p == nil {
			continue
		}
		if _, dup := out[p.Name]; !dup {
			out[p.Name] = p
		}
	}
	return out
}

// violationOf turns a conversion error into a violation at its pointer.
func violationOf(ptr string, err error) Violation {
	if pe, ok := err.(*pathError); ok {
		return Violation{Pointer: pe.ptr, Message: pe.err.Error()}
	}
	return Violation{Pointer: ptr, Message: err.Error()}
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func unescapePtr(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// typeList says "an integer", "a boolean or a number".
func typeList(types []string) string {
	var parts []string
	for _, t := range types {
		switch t {
		case "integer", "array", "object":
			parts = append(parts, "an "+t)
		default:
			parts = append(parts, "a "+t)
		}
	}
	if len(parts) == 0 {
		return "a valid value"
	}
	return strings.Join(parts, " or ")
}
