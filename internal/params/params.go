package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Values is what templates see as .Params: parameter name to value. Scalar
// values are strings; array values are []any and map values map[string]any.
type Values map[string]any

// Violation is one problem with one parameter.
type Violation struct {
	// Param is the parameter name, as defined or as the user spelled it.
	Param string
	// Msg says what is wrong, e.g. `"abc" is not an integer`. It reads
	// after "<Param>: ".
	Msg string
	// Default is true when the offending value is the package's default
	// rather than a value the user gave.
	Default bool
	// At is where the offending value is written, when known: a default's
	// file, line and field path (bundle.Param.DefaultPos).
	At bundle.Pos
}

func (v Violation) String() string { return nameInMsg(v.Param) + ": " + v.Msg }

// Diagnostic is the violation at its place: a default where params.yaml
// writes it ("params.yaml:7: NODE_COUNT.default: refused by ...",
// "params.yaml:12: parameters[3].default: NODE_COUNT: default refused by
// ..."), a value of a dependency in its parent's parameter file; else a
// value with the parameter as its field (the adapter knows where values
// come from).
func (v Violation) Diagnostic() *diag.Diagnostic {
	if v.At.File == "" {
		return &diag.Diagnostic{Field: v.Param, Msg: v.Msg}
	}
	msg := v.String()
	switch {
	case v.At.Field == v.Param: // a value in a parameter file
		msg = v.Msg
	case strings.HasPrefix(v.At.Field, v.Param+"."):
		msg = strings.TrimPrefix(v.Msg, "default ") // the field says both
	}
	return &diag.Diagnostic{File: v.At.File, Line: v.At.Line, Field: v.At.Field, Msg: msg}
}

// line is the violation as a line of [Error]'s message: at its place
// when it has one.
func (v Violation) line() string {
	if v.At.File != "" {
		return v.Diagnostic().Error()
	}
	return v.String()
}

// Error lists every violation found by [Resolve]: first those of defined
// parameters in definition order, then values for undefined parameters
// sorted by name.
type Error struct {
	Violations []Violation
}

func (e *Error) Error() string {
	if len(e.Violations) == 1 {
		if v := e.Violations[0]; v.At.File != "" {
			return "invalid parameter: " + v.line()
		}
		return "invalid parameter " + e.Violations[0].String()
	}
	var b strings.Builder
	b.WriteString("invalid parameters:")
	for _, v := range e.Violations {
		b.WriteString("\n  ")
		b.WriteString(v.line())
	}
	return b.String()
}

// Resolve merges user values over defaults, validates them and returns the
// template view.
//
// For each definition, in order: a non-nil user value wins over the
// default; a required parameter with neither is a violation; an optional
// one with neither is set to "" (scalar types) or nil (array, map). The
// value that is used, user value or default, is then checked against the
// declared type and enum. A default that a user value overrides is not
// checked: it does not reach templates, and a user must be able to work
// around a broken default.
//
// User values may be strings (scalar text, or YAML/JSON text for arrays and
// maps), []any and map[string]any, and also Go integers, floats and
// booleans, which are turned into their canonical text (see [Text]).
//
// On failure Resolve returns nil and an [*Error] holding every violation.
func Resolve(defs []*bundle.Param, values map[string]any) (Values, error) {
	out := make(Values, len(defs))
	var violations []Violation
	defined := make(map[string]bool, len(defs))
	var names []string // defined names, in order, for suggestions

	for _, p := range defs {
		if p == nil || defined[p.Name] {
			continue
		}
		defined[p.Name] = true
		names = append(names, p.Name)
		raw, given := values[p.Name]
		v, viol := resolveParam(p, raw, given)
		if viol != nil {
			violations = append(violations, *viol)
			continue
		}
		out[p.Name] = v
	}
	violations = append(violations, undefinedParams(values, defined, names)...)

	if len(violations) > 0 {
		return nil, &Error{Violations: violations}
	}
	return out, nil
}

// resolveParam is the value of the parameter p, given (raw) or not, or
// the violation that keeps it from having one.
func resolveParam(p *bundle.Param, raw any, given bool) (any, *Violation) {
	typ := p.Type
	if typ == "" {
		typ = bundle.TypeString
	}
	if !knownType(typ) {
		return nil, &Violation{Param: p.Name, Msg: fmt.Sprintf(
			"has unknown type %q (want string, integer, number, boolean, array or map)", string(p.Type))}
	}
	if given && raw == nil && (typ == bundle.TypeArray || typ == bundle.TypeMap) {
		return nil, nil // an explicit null: KUDO's "null" text
	}
	if s, ok := raw.(string); given && ok && s == "" && typ != bundle.TypeArray && typ != bundle.TypeMap {
		// KUDO takes an empty value as it is, without checking its
		// type or enum, unless the parameter needs a value.
		if p.NeedsValue() {
			return nil, &Violation{Param: p.Name, Msg: "is required (the value is empty)"}
		}
		return "", nil
	}
	fromDefault := false
	if !given || raw == nil {
		if p.Default == nil {
			if p.NeedsValue() {
				return nil, &Violation{Param: p.Name, Msg: "is required"}
			}
			return zero(typ), nil
		}
		raw, fromDefault = p.Default, true
	}

	v, msg := convert(typ, raw)
	if msg == "" && len(p.Enum) > 0 {
		msg = checkEnum(v, p.Enum)
	}
	if msg != "" {
		if fromDefault {
			msg = "default " + msg
		}
		v := &Violation{Param: p.Name, Msg: msg, Default: fromDefault}
		if fromDefault {
			v.At = p.DefaultPos
		}
		return nil, v
	}
	return v, nil
}

// undefinedParams are the violations of the values that no definition
// names, sorted, with a suggestion among names when one is close.
func undefinedParams(values map[string]any, defined map[string]bool, names []string) []Violation {
	var undefined []string
	for name := range values {
		if !defined[name] {
			undefined = append(undefined, name)
		}
	}
	slices.Sort(undefined)
	var violations []Violation
	var sg suggest.Suggester
	for _, name := range undefined {
		msg := "is not defined by the package"
		if s, ok := sg.Suggest(name, names); ok {
			msg += fmt.Sprintf("; did you mean %s?", nameInMsg(s))
		}
		violations = append(violations, Violation{Param: name, Msg: msg})
	}
	return violations
}

func knownType(t bundle.ParamType) bool {
	switch t {
	case bundle.TypeString, bundle.TypeInteger, bundle.TypeNumber, bundle.TypeBoolean, bundle.TypeArray, bundle.TypeMap:
		return true
	}
	return false
}

// zero is the value of an optional parameter that has neither a value nor
// a default.
func zero(t bundle.ParamType) any {
	if t == bundle.TypeArray || t == bundle.TypeMap {
		return nil
	}
	return ""
}

// convert checks raw against the type t and returns the template value, or
// a message that reads after the parameter name (or after "default ").
func convert(t bundle.ParamType, raw any) (any, string) {
	k := kindOf(raw)
	if k == kindOther {
		return nil, fmt.Sprintf("is a value of unsupported type %T", raw)
	}
	switch t {
	case bundle.TypeArray, bundle.TypeMap:
		return convertCollection(t, raw, k)
	}

	if k != kindScalar {
		return nil, fmt.Sprintf("is %s, not %s", describe(raw), article(t))
	}
	s, _ := Text(raw)
	switch t {
	case bundle.TypeInteger:
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return nil, quote(s) + " is out of range for a 64-bit integer"
			}
			return nil, quote(s) + " is not an integer"
		}
	case bundle.TypeNumber:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return nil, quote(s) + " is out of range for a 64-bit number"
			}
			return nil, quote(s) + " is not a number"
		}
	case bundle.TypeBoolean:
		if _, err := strconv.ParseBool(s); err != nil {
			return nil, quote(s) + " is not a boolean (want true or false)"
		}
	}
	return s, ""
}

func article(t bundle.ParamType) string {
	switch t {
	case bundle.TypeInteger, bundle.TypeArray:
		return "an " + string(t)
	}
	return "a " + string(t)
}

// convertCollection handles array and map parameters. Scalars are read as
// YAML (JSON being a subset of it).
func convertCollection(t bundle.ParamType, raw any, k kind) (any, string) {
	want := kindList
	example := "a YAML or JSON sequence such as [a, b]"
	if t == bundle.TypeMap {
		want = kindMap
		example = "a YAML or JSON mapping such as {a: 1}"
	}

	v := raw
	if k == kindScalar {
		s, _ := Text(raw)
		parsed, err := parseYAML(s)
		if err != nil {
			return nil, fmt.Sprintf("%s is not %s: %v", quote(s), article(t), err)
		}
		if parsed == nil {
			return nil, "" // "null" or empty text: KUDO's missing value
		}
		if kindOf(parsed) != want {
			return nil, fmt.Sprintf("%s is not %s (want %s)", quote(s), article(t), example)
		}
		v = parsed
	} else if k != want {
		return nil, fmt.Sprintf("is %s, not %s", describe(raw), article(t))
	}

	n, err := normalize(v, "")
	if err != nil {
		return nil, err.Error()
	}
	return n, ""
}

// parseYAML decodes one YAML (or JSON) document. An empty text is null.
func parseYAML(s string) (v any, err error) {
	// The YAML decoder is not ours; a panic on some odd input must not take
	// the whole render down.
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("cannot parse YAML: %v", r)
		}
	}()
	docs := 0
	for doc, err := range strictyaml.Stream("", []byte(s)) { // errors say "line N: ..."
		if err != nil {
			return nil, err
		}
		if docs++; docs > 1 {
			return nil, errors.New("holds more than one YAML document")
		}
		if v, err = strictyaml.DecodeAny(doc); err != nil {
			return nil, strictyaml.YAMLErrors("", err)[0]
		}
	}
	return v, nil
}

// checkEnum returns a message when v, compared as canonical text, is none
// of the allowed values.
func checkEnum(v any, enum []any) string {
	cv := canonical(v)
	allowed := make([]string, 0, len(enum))
	for _, e := range enum {
		if e == nil {
			continue
		}
		if n, err := normalize(e, ""); err == nil {
			e = n
		}
		if reflect.DeepEqual(cv, canonical(e)) {
			return ""
		}
		allowed = append(allowed, enumText(e))
	}
	msg := "is not one of the allowed values: " + strings.Join(allowed, ", ")
	if kindOf(v) == kindScalar {
		msg = describe(v) + " " + msg
	}
	return msg
}

// enumText shows an allowed value: scalars quoted, collections as JSON.
func enumText(e any) string {
	if s, ok := Text(e); ok {
		return quote(s)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Sprint(e)
	}
	return string(b)
}

// Diagnostics implements diag.Carrier: one diagnostic per violation
// ([Violation.Diagnostic]).
func (e *Error) Diagnostics() []*diag.Diagnostic {
	out := make([]*diag.Diagnostic, len(e.Violations))
	for i, v := range e.Violations {
		out[i] = v.Diagnostic()
	}
	return out
}
