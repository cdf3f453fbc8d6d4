package validate

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// typeErrors finds the values of v that the API type t cannot hold, each
// at its field path, the way a JSON decoder into t fails on them. Values
// of types that decode themselves (quantities, int-or-string, times) are
// checked by their own decoder. The warnings are the values the API
// server accepts but stores otherwise.
func typeErrors(v any, t reflect.Type, p *field.Path) (errs, warnings field.ErrorList) {
	c := &checker{}
	errs = c.check(v, t, p)
	return errs, c.warnings
}

// checker walks a value along an API type.
type checker struct {
	// fix, when set, gets a placeholder for every value of the wrong
	// type, by field path.
	fix map[string]any
	// warnings are the values the API server accepts but stores
	// otherwise: integers too large for their field, which it cuts.
	warnings field.ErrorList
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

// check is typeErrors' walk.
func (c *checker) check(v any, t reflect.Type, p *field.Path) (errs field.ErrorList) {
	if c.fix != nil {
		defer func() {
			if len(errs) > 0 && errs[len(errs)-1].Field == p.String() {
				c.fix[p.String()] = placeholder(t)
			}
		}()
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		data, _ := json.Marshal(v)
		if err := json.Unmarshal(data, reflect.New(t).Interface()); err != nil {
			return field.ErrorList{field.Invalid(p, v, decodeMessage(err))}
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		return c.structErrors(v, t, p)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if errs := expect(v, p, "string", isString); errs != nil {
				return errs
			}
			if _, err := base64.StdEncoding.DecodeString(v.(string)); err != nil {
				return field.ErrorList{field.Invalid(p, v, "expected base64 data: "+err.Error())}
			}
			return nil
		}
		l, ok := v.([]any)
		if !ok {
			return field.ErrorList{field.Invalid(p, v, "expected a list, got "+jsonType(v))}
		}
		var errs field.ErrorList
		for i, x := range l {
			errs = append(errs, c.check(x, t.Elem(), p.Index(i))...)
		}
		return errs
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(p, v, "expected a map, got "+jsonType(v))}
		}
		var errs field.ErrorList
		for _, k := range sortedKeys(m) {
			errs = append(errs, c.check(m[k], t.Elem(), p.Key(k))...)
		}
		return errs
	case reflect.String:
		return expect(v, p, "string", isString)
	case reflect.Bool:
		return expect(v, p, "boolean", func(v any) bool { _, ok := v.(bool); return ok })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return c.intErrors(v, t, p)
	case reflect.Float32, reflect.Float64:
		return expect(v, p, "number", isNumber)
	}
	return nil
}

// structErrors checks the fields of map v against struct type t (its
// JSON names, inline structs included).
func (c *checker) structErrors(v any, t reflect.Type, p *field.Path) field.ErrorList {
	m, ok := v.(map[string]any)
	if !ok {
		return field.ErrorList{field.Invalid(p, v, "expected an object, got "+jsonType(v))}
	}
	fields := jsonFields(t)
	var errs field.ErrorList
	for _, k := range sortedKeys(m) {
		if ft, ok := fields[k]; ok {
			errs = append(errs, c.check(m[k], ft, child(p, k))...)
		}
	}
	return errs
}

// child is the path of field k below p (p may be nil, the object).
func child(p *field.Path, k string) *field.Path {
	if p == nil {
		return field.NewPath(k)
	}
	return p.Child(k)
}

// fieldCache holds jsonFields of the struct types seen.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps the JSON names of struct t's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f := structFields(t)
	fieldCache.Store(t, f)
	return f
}

func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// intErrors checks an integer field: a whole number. One out of the
// field's range is no error: the API server reads every number of an
// applied object as a float64 and cuts it to the field's size (2147483648
// in an int32 becomes -2147483648), which is a warning.
func (c *checker) intErrors(v any, t reflect.Type, p *field.Path) field.ErrorList {
	f, ok := number(v)
	if !ok {
		return field.ErrorList{field.Invalid(p, v, "expected an integer, got "+jsonType(v))}
	}
	if f != math.Trunc(f) {
		return field.ErrorList{field.Invalid(p, v, "expected an integer, got a fraction")}
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
		c.warnings = append(c.warnings, field.Invalid(p, v, fmt.Sprintf("does not fit in a %s: the API server accepts it and stores %s", t.Kind(), stored)))
	}
	return nil
}

func expect(v any, p *field.Path, want string, ok func(any) bool) field.ErrorList {
	if ok(v) {
		return nil
	}
	return field.ErrorList{field.Invalid(p, v, fmt.Sprintf("expected a %s, got %s", want, jsonType(v)))}
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

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
