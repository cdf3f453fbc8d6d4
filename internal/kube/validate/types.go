package validate

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kudo-render/kudo-render/internal/kube/jsonfields"
)

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// typeErrors finds the values of v that the API type t cannot hold, each
// at its field path, the way a JSON decoder into t fails on them. Values
// of types that decode themselves (quantities, int-or-string, times) are
// checked by their own decoder. The warnings are the values the API
// server accepts but stores otherwise.
func typeErrors(v any, t reflect.Type) (errs, warnings field.ErrorList) {
	return typeErrorsAt(v, t, nil)
}

// typeErrorsAt is typeErrors for a value at field path base.
func typeErrorsAt(v any, t reflect.Type, base *field.Path) (errs, warnings field.ErrorList) {
	a := &cursor{base: base, segs: make([]seg, 0, 8)}
	errs = typeCheck(v, t, a, nil)
	return errs, a.warnings
}

// cursor is where the value being checked is: a stack of field names, list
// indexes and map keys, made into a field path only when an error names
// it (most values have none, and a path per value was a third of what
// checking a ConfigMap allocated). It also collects the walk's warnings.
type cursor struct {
	base *field.Path // where the walk began (nil: the object)
	segs []seg
	// warnings are the values the API server accepts but stores
	// otherwise: integers too large for their field, which it cuts.
	warnings field.ErrorList
}

type seg struct {
	name  string
	index int  // a list index, when name is "" and key is not set
	key   bool // name is a map key
}

func (a *cursor) push(s seg) { a.segs = append(a.segs, s) }
func (a *cursor) pop()       { a.segs = a.segs[:len(a.segs)-1] }

// path is the field path of the value at the top.
func (a *cursor) path() *field.Path {
	p := a.base
	for _, s := range a.segs {
		switch {
		case s.key:
			p = p.Key(s.name)
		case s.name == "":
			p = p.Index(s.index)
		case p == nil:
			p = field.NewPath(s.name)
		default:
			p = p.Child(s.name)
		}
	}
	return p
}

// placeholder is a value of the kind of t that stands in for a value of
// the wrong type, so that the rest of the object can be validated; nil
// when the value is best left out.
func placeholder(t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return "x"
	case reflect.Bool:
		return false
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(1)
	case reflect.Float32, reflect.Float64:
		return float64(1)
	}
	return nil
}

// typeCheck is typeErrors; fix, when set, gets a placeholder for every
// value of the wrong type, by field path.
func typeCheck(v any, t reflect.Type, a *cursor, fix map[string]any) field.ErrorList {
	errs := checkType(v, t, a, fix)
	if fix != nil && len(errs) > 0 {
		if p := a.path().String(); errs[len(errs)-1].Field == p {
			fix[p] = placeholder(t)
		}
	}
	return errs
}

// checkType is typeCheck without the placeholders of the value itself.
func checkType(v any, t reflect.Type, a *cursor, fix map[string]any) field.ErrorList {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		data, _ := json.Marshal(v)
		if err := json.Unmarshal(data, reflect.New(t).Interface()); err != nil {
			return field.ErrorList{field.Invalid(a.path(), v, decodeMessage(err))}
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		return structErrors(v, t, a, fix)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if errs := expect(v, a, "string", isString); errs != nil {
				return errs
			}
			if _, err := base64.StdEncoding.DecodeString(v.(string)); err != nil {
				return field.ErrorList{field.Invalid(a.path(), v, "expected base64 data: "+err.Error())}
			}
			return nil
		}
		l, ok := v.([]any)
		if !ok {
			return field.ErrorList{field.Invalid(a.path(), v, "expected a list, got "+jsonType(v))}
		}
		var errs field.ErrorList
		for i, x := range l {
			a.push(seg{index: i})
			errs = append(errs, typeCheck(x, t.Elem(), a, fix)...)
			a.pop()
		}
		return errs
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(a.path(), v, "expected a map, got "+jsonType(v))}
		}
		// In map order: the errors are sorted when reported (toDiags).
		var errs field.ErrorList
		for k, x := range m {
			a.push(seg{name: k, key: true})
			errs = append(errs, typeCheck(x, t.Elem(), a, fix)...)
			a.pop()
		}
		return errs
	case reflect.String:
		return expect(v, a, "string", isString)
	case reflect.Bool:
		return expect(v, a, "boolean", func(v any) bool { _, ok := v.(bool); return ok })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return intErrors(v, t, a)
	case reflect.Float32, reflect.Float64:
		return expect(v, a, "number", isNumber)
	}
	return nil
}

// structErrors checks the fields of map v against struct type t (its
// JSON names, inline structs included).
func structErrors(v any, t reflect.Type, a *cursor, fix map[string]any) field.ErrorList {
	m, ok := v.(map[string]any)
	if !ok {
		return field.ErrorList{field.Invalid(a.path(), v, "expected an object, got "+jsonType(v))}
	}
	fields := jsonFields(t)
	var errs field.ErrorList
	for k, x := range m {
		if ft, ok := fields[k]; ok {
			a.push(seg{name: k})
			errs = append(errs, typeCheck(x, ft, a, fix)...)
			a.pop()
		}
	}
	return errs
}

// fieldCache holds jsonFields of the struct types seen.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps the JSON names of struct t's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f := jsonfields.Of(t)
	fieldCache.Store(t, f)
	return f
}

// intErrors checks an integer field: a whole number. One out of the
// field's range is no error: the API server reads every number of an
// applied object as a float64 and cuts it to the field's size (2147483648
// in an int32 becomes -2147483648), which is a warning.
func intErrors(v any, t reflect.Type, a *cursor) field.ErrorList {
	f, ok := number(v)
	if !ok {
		return field.ErrorList{field.Invalid(a.path(), v, "expected an integer, got "+jsonType(v))}
	}
	if f != math.Trunc(f) {
		return field.ErrorList{field.Invalid(a.path(), v, "expected an integer, got a fraction")}
	}
	bits := t.Bits()
	var lo, hi float64
	if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
		lo, hi = 0, math.Exp2(float64(bits))-1
	} else {
		lo, hi = -math.Exp2(float64(bits-1)), math.Exp2(float64(bits-1))-1
	}
	if f < lo || f > hi {
		stored := "another number"
		if t.Kind() == reflect.Int32 && f >= -math.Exp2(63) && f < math.Exp2(63) {
			stored = fmt.Sprint(int32(int64(f)))
		}
		a.warnings = append(a.warnings, field.Invalid(a.path(), v, fmt.Sprintf("does not fit in a %s: the API server accepts it and stores %s", t.Kind(), stored)))
	}
	return nil
}

func expect(v any, a *cursor, want string, ok func(any) bool) field.ErrorList {
	if ok(v) {
		return nil
	}
	return field.ErrorList{field.Invalid(a.path(), v, fmt.Sprintf("expected a %s, got %s", want, jsonType(v)))}
}

func isString(v any) bool { _, ok := v.(string); return ok }

func isNumber(v any) bool {
	_, ok := number(v)
	return ok
}

// number is the value of a number of any Go numeric type (decoders give
// int64 and float64, patches and parameters int).
func number(v any) (float64, bool) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(r.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(r.Uint()), true
	case reflect.Float32, reflect.Float64:
		return r.Float(), true
	}
	return 0, false
}

// jsonType names the JSON type of a decoded YAML value.
func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("a string (%q)", x)
	case bool:
		return "a boolean"
	case int, int32, int64, uint64, float32, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// decodeMessage is the message of a type's own decoder, without Go's
// "json: " prefix.
func decodeMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	var te *json.UnmarshalTypeError
	if ok := asTypeError(err, &te); ok {
		msg = fmt.Sprintf("expected %s, got a %s", te.Type, te.Value)
	}
	return msg
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

// child is the path of field k below p (p may be nil, the object).
func child(p *field.Path, k string) *field.Path {
	if p == nil {
		return field.NewPath(k)
	}
	return p.Child(k)
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
