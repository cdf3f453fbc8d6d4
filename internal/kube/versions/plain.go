package versions

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// plain writes a typed object as the plain values a manifest holds
// (map[string]any, []any, string, int64, float64, bool; a whole number is
// an int64, as kudo-render reads it from YAML), without the
// noise of a typed round trip: a nil pointer, map or slice and an empty
// struct that is not behind a pointer are left out (creationTimestamp:
// null, status: {}, resources: {}, strategy: {}), while a pointer to an
// empty struct stays (emptyDir: {}, subresources.status: {}), since it
// means something. Values with their own JSON form (Quantity, IntOrString,
// Time, RawExtension, JSON) are written as that form.
func plain(obj any) (map[string]any, error) {
	w := walker{}
	v, _ := w.value(reflect.ValueOf(obj))
	if w.err != nil {
		return nil, w.err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

// typeInfo is what the walker needs of a Go type, worked out once.
type typeInfo struct {
	marshaler bool // has its own JSON form
	fields    []fieldInfo
}

// fieldInfo is one JSON field of a struct; inline fields are flattened.
type fieldInfo struct {
	index     []int
	name      string
	omitempty bool
	omitzero  bool
}

var typeInfos sync.Map // reflect.Type → *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{marshaler: t.Implements(marshalerType) || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(marshalerType)}
	if t.Kind() == reflect.Struct && !ti.marshaler {
		ti.fields = structFields(t, nil)
	}
	typeInfos.Store(t, ti)
	return ti
}

// structFields lists the JSON fields of struct type t, inline structs
// flattened (index is the path of field indexes from the outer struct).
func structFields(t reflect.Type, outer []int) []fieldInfo {
	var fs []fieldInfo
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		index := append(slices.Clip(outer), i)
		if f.Anonymous && name == "" || strings.Contains(","+opts+",", ",inline,") {
			if f.Type.Kind() == reflect.Struct {
				fs = append(fs, structFields(f.Type, index)...)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		opt := "," + opts + ","
		fs = append(fs, fieldInfo{index: index, name: name, omitempty: strings.Contains(opt, ",omitempty,"), omitzero: strings.Contains(opt, ",omitzero,")})
	}
	return fs
}

type walker struct{ err error }

// value returns the plain form of v and whether a field holding it is
// written at all.
func (w *walker) value(v reflect.Value) (any, bool) {
	if !v.IsValid() {
		return nil, false
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Struct:
		if infoOf(t).marshaler {
			if t.Kind() != reflect.Struct && v.IsNil() {
				return nil, false
			}
			return w.viaJSON(v)
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, false
		}
		x, _ := w.value(v.Elem())
		return x, true
	case reflect.Struct:
		m := map[string]any{}
		for _, f := range infoOf(t).fields {
			fv := v.FieldByIndex(f.index)
			x, keep := w.value(fv)
			if !keep || f.omitzero && fv.IsZero() || f.omitempty && emptyValue(fv) {
				continue
			}
			m[f.name] = x
		}
		return m, len(m) > 0
	case reflect.Map:
		if v.IsNil() {
			return nil, false
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			x, _ := w.value(it.Value())
			m[it.Key().String()] = x
		}
		return m, true
	case reflect.Slice:
		if v.IsNil() {
			return nil, false
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return base64.StdEncoding.EncodeToString(v.Bytes()), true
		}
		fallthrough
	case reflect.Array:
		l := make([]any, v.Len())
		for i := range l {
			l[i], _ = w.value(v.Index(i))
		}
		return l, true
	case reflect.String:
		return v.String(), true
	case reflect.Bool:
		return v.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		// As kudo-render reads the written number back: 1, not 1.0.
		if f := v.Float(); f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), true
		}
		return v.Float(), true
	}
	return nil, false
}

// emptyValue reports whether encoding/json's omitempty leaves v out.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// viaJSON writes a value with its own JSON form as plain values; null
// leaves the field out.
func (w *walker) viaJSON(v reflect.Value) (any, bool) {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return nil, false
	}
	x, err := decodeJSON(b)
	if err != nil {
		if w.err == nil {
			w.err = err
		}
		return nil, false
	}
	return x, x != nil
}

// decodeJSON decodes JSON into plain values, integers as int64.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return numbers(x), nil
}

// numbers replaces the json.Numbers in x by int64 or float64.
func numbers(x any) any {
	switch t := x.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	}
	return x
}
