package jsonfields

import (
	"maps"
	"reflect"
	"strings"
)

// Of lists the JSON fields of the struct type t by name, with their Go
// types. As encoding/json, it leaves out unexported fields and fields
// tagged "-", and flattens an embedded struct (or pointer to one,
// exported or not) that the tag does not name (or that it marks
// ",inline", as Kubernetes' types do), its fields promoted; a field the
// tag does not name is named as in Go.
func Of(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
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
				maps.Copy(out, Of(ft))
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
