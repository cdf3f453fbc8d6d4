package kube

import (
	"encoding"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/golden"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestAPITypes: types_gen.go is the table of the Go types of k8s.io/api
// (the version in go.mod). After upgrading k8s.io/api, rewrite it with
// go test ./internal/kube -run TestAPITypes -update and review the diff.
func TestAPITypes(t *testing.T) {
	file, _ := filepath.Abs("types_gen.go") // outside testdata: by absolute path
	golden.Assert(t, string(generateTypes(t)), file)
}

// typeTable compiles Go types into apiTypes' form.
type typeTable struct {
	tb    testing.TB
	index map[any]int // reflect.Type of a struct, or a [2]int{class, elem}
	types []apiType
	names []string // a comment per type
	kinds []apiKind
}

// scalar classes share one entry each: they carry nothing but the class.
var sharedClasses = []typeClass{tScalar, tBool, tOpaque, tRaw, tAny}

func newTypeTable(tb testing.TB) *typeTable {
	g := &typeTable{tb: tb, index: map[any]int{}}
	for _, c := range sharedClasses {
		g.types = append(g.types, apiType{c: c, elem: noType})
		g.names = append(g.names, "")
	}
	return g
}

var rawExtensionType = reflect.TypeFor[runtime.RawExtension]()

// opaqueType reports whether a type reads its own JSON.
func opaqueType(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(reflect.TypeFor[json.Unmarshaler]()) || pt.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

// classOf is the class of t (pointers followed).
func classOf(t reflect.Type) typeClass {
	switch {
	case t == rawExtensionType:
		return tRaw
	case opaqueType(t):
		return tOpaque
	}
	switch t.Kind() {
	case reflect.Struct:
		return tStruct
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return tBytes
		}
		return tList
	case reflect.Map:
		return tMap
	case reflect.Interface:
		return tAny
	case reflect.Bool:
		return tBool
	}
	return tScalar
}

// add returns the index of t, adding it and the types it holds.
func (g *typeTable) add(t reflect.Type) int32 {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	c := classOf(t)
	if c == tOpaque && (t.Kind() == reflect.Bool || t.Kind() == reflect.Interface) {
		// typing reads the class of the last field of a path; these would
		// need a class of their own.
		g.tb.Errorf("%v reads its own JSON and is a %v", t, t.Kind())
	}
	switch c {
	case tStruct:
		if i, ok := g.index[t]; ok {
			return int32(i)
		}
		i := len(g.types)
		g.index[t] = i
		g.types = append(g.types, apiType{})
		g.names = append(g.names, t.PkgPath()+"."+t.Name())
		fs := reflectFields(t)
		var out []apiField
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range fs {
				if !yield(k) {
					return
				}
			}
		}) {
			out = append(out, apiField{name: name, t: g.add(fs[name])})
		}
		g.types[i] = apiType{c: tStruct, elem: noType, f: out}
		return int32(i)
	case tList, tBytes, tMap:
		elem := g.add(t.Elem())
		key := [2]int{int(c), int(elem)}
		if i, ok := g.index[key]; ok {
			return int32(i)
		}
		g.index[key] = len(g.types)
		g.types = append(g.types, apiType{c: c, elem: elem})
		g.names = append(g.names, "")
		return int32(len(g.types) - 1)
	}
	return int32(slices.Index(sharedClasses, c))
}

// reflectFields lists the JSON fields of a struct, inline structs
// flattened, as encoding/json reads them.
func reflectFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range reflectFields(ft) {
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

// GoTypes are the Go types of the kinds of the built-in group versions,
// by apiVersion and kind (for kube_test).
func GoTypes(t testing.TB) map[[2]string]reflect.Type { return builtinGoTypes(t) }

// builtinGoTypes are the Go types of the kinds of the built-in group
// versions, by apiVersion and kind.
func builtinGoTypes(t testing.TB) map[[2]string]reflect.Type {
	out := map[[2]string]reflect.Type{}
	for _, g := range apiGroups {
		s := runtime.NewScheme()
		if err := g.add(s); err != nil {
			t.Fatal(err)
		}
		for kind, typ := range s.KnownTypes(g.gv) {
			out[[2]string{g.gv.String(), kind}] = typ
		}
	}
	return out
}

// generateTypes writes types_gen.go.
func generateTypes(t testing.TB) []byte {
	kinds := builtinGoTypes(t)
	keys := slices.SortedFunc(func(yield func([2]string) bool) {
		for k := range kinds {
			if !yield(k) {
				return
			}
		}
	}, func(a, b [2]string) int {
		return compareKinds(apiKind{apiVersion: a[0], kind: a[1]}, apiKind{apiVersion: b[0], kind: b[1]})
	})
	g := newTypeTable(t)
	for _, k := range keys {
		g.kinds = append(g.kinds, apiKind{apiVersion: k[0], kind: k[1], t: g.add(kinds[k])})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by TestAPITypes from the Go types of %s; DO NOT EDIT.\n", apiModule(t))
	b.WriteString("// Rewrite: go test ./internal/kube -run TestAPITypes -update\n\npackage kube\n\n")
	b.WriteString("// apiTypes are the built-in API types (see apitypes.go).\nvar apiTypes = [...]apiType{\n")
	for i, typ := range g.types {
		if g.names[i] != "" {
			b.WriteString("\t// " + g.names[i] + "\n")
		}
		fmt.Fprintf(&b, "\t%d: {c: %s", i, classNames[typ.c])
		if typ.c == tList || typ.c == tBytes || typ.c == tMap {
			fmt.Fprintf(&b, ", elem: %d", typ.elem)
		}
		if len(typ.f) > 0 {
			b.WriteString(", f: []apiField{")
			for j, f := range typ.f {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{%q, %d}", f.name, f.t)
			}
			b.WriteString("}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n// apiKinds are the types of the kinds of the built-in group versions, sorted.\nvar apiKinds = [...]apiKind{\n")
	for _, k := range g.kinds {
		fmt.Fprintf(&b, "\t{%q, %q, %d},\n", k.apiVersion, k.kind, k.t)
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

var classNames = map[typeClass]string{tScalar: "tScalar", tBool: "tBool", tOpaque: "tOpaque", tRaw: "tRaw", tAny: "tAny", tStruct: "tStruct", tList: "tList", tBytes: "tBytes", tMap: "tMap"}

// apiModule is k8s.io/api and its version in go.mod.
func apiModule(t testing.TB) string {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "k8s.io/api" {
			return f[0] + " " + f[1]
		}
	}
	t.Fatal("go.mod does not require k8s.io/api")
	return ""
}

// TestAPITypesTypeAsGoTypes: typing with the table gives what typing with
// the Go types gives, for every field of every built-in kind, a field no
// type has, and an object of each kind with such a field at every level.
func TestAPITypesTypeAsGoTypes(t *testing.T) {
	kinds := builtinGoTypes(t)
	if len(kinds) < 500 {
		t.Fatalf("%d built-in kinds", len(kinds))
	}
	for k, goType := range kinds {
		id := kindType(k[0], k[1])
		if id == noType {
			t.Fatalf("%s %s has no type in the table", k[0], k[1])
		}
		seen := map[reflect.Type]bool{}
		var walk func(rt reflect.Type, path []string)
		walk = func(rt reflect.Type, path []string) {
			for _, p := range append(nextSteps(rt), "zzNoSuchField") {
				next := append(slices.Clone(path), p)
				if got, want := goFieldKind(id, next), reflectFieldKind(goType, next); got != want {
					t.Fatalf("%s %s %v: %v, the Go type says %v", k[0], k[1], next, got, want)
				}
			}
			for rt.Kind() == reflect.Pointer {
				rt = rt.Elem()
			}
			if seen[rt] || opaqueType(rt) {
				return
			}
			seen[rt] = true
			switch rt.Kind() {
			case reflect.Struct:
				for name, ft := range reflectFields(rt) {
					walk(ft, append(slices.Clone(path), name))
				}
			case reflect.Slice, reflect.Array, reflect.Map:
				walk(rt.Elem(), append(slices.Clone(path), "0"))
			}
		}
		walk(goType, nil)

		obj := sampleValue(goType, map[reflect.Type]bool{})
		sample := object.New(obj.(map[string]any))
		want, got := sample.DeepCopy().Map, sample.DeepCopy().Map
		var wantRemoved, gotRemoved []string
		reflectPrune(want, goType, nil, &wantRemoved)
		prune(got, id, nil, &gotRemoved)
		if !reflect.DeepEqual(got, want) || !slices.Equal(gotRemoved, wantRemoved) || len(gotRemoved) == 0 {
			t.Fatalf("%s %s: pruned %v, the Go type prunes %v", k[0], k[1], gotRemoved, wantRemoved)
		}
	}
	for _, av := range []string{"", "/", "v1/", "apps/v1/x", "example.com/v1"} {
		if id := kindType(av, "Deployment"); id != noType {
			t.Errorf("apiVersion %q Deployment has type %d", av, id)
		}
	}
	if kindType("/v1", "Pod") != kindType("v1", "Pod") || kindType("v1", "Pod") == noType {
		t.Error(`"/v1" is not the core group, as Kubernetes reads it`)
	}
}

// nextSteps are the path steps into a value of type rt.
func nextSteps(rt reflect.Type) []string {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	switch rt.Kind() {
	case reflect.Struct:
		return slices.Sorted(func(yield func(string) bool) {
			for k := range reflectFields(rt) {
				if !yield(k) {
					return
				}
			}
		})
	case reflect.Slice, reflect.Array, reflect.Map:
		return []string{"0"}
	}
	return nil
}

// sampleValue is a value of type rt with every field of each struct type
// the first time it occurs, and a field no type has in every object.
func sampleValue(rt reflect.Type, seen map[reflect.Type]bool) any {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	switch {
	case opaqueType(rt):
		return map[string]any{"zzInsideOpaque": "x"}
	case rt.Kind() == reflect.Struct:
		m := map[string]any{"zzNoSuchField": "x"}
		if !seen[rt] {
			seen[rt] = true
			for name, ft := range reflectFields(rt) {
				m[name] = sampleValue(ft, seen)
			}
		}
		return m
	case rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array:
		return []any{sampleValue(rt.Elem(), seen)}
	case rt.Kind() == reflect.Map:
		return map[string]any{"k": sampleValue(rt.Elem(), seen)}
	case rt.Kind() == reflect.Interface:
		return map[string]any{"zzAnything": "x"}
	}
	return "x"
}

// reflectFieldKind is goFieldKind on the Go types, as kudo-render typed
// before the table.
func reflectFieldKind(t reflect.Type, path []string) fieldKind {
	for _, p := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == rawExtensionType {
			return unknownField
		}
		if opaqueType(t) {
			return textField
		}
		switch t.Kind() {
		case reflect.Struct:
			ft, ok := reflectFields(t)[p]
			if !ok {
				return absentField
			}
			t = ft
		case reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Interface:
			return unknownField
		default:
			return absentField
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == rawExtensionType || t.Kind() == reflect.Interface:
		return unknownField
	case t.Kind() == reflect.Bool:
		return boolField
	}
	return textField
}

// reflectPrune is prune on the Go types, as kudo-render pruned before the
// table.
func reflectPrune(v any, t reflect.Type, path []string, removed *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if opaqueType(t) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		fs := reflectFields(t)
		for _, k := range sortedKeys(m, nil) {
			ft, ok := fs[k]
			if !ok {
				*removed = append(*removed, fieldPath(append(path, k)))
				delete(m, k)
				continue
			}
			reflectPrune(m[k], ft, append(path, k), removed)
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return
		}
		l, _ := v.([]any)
		for i, x := range l {
			reflectPrune(x, t.Elem(), append(path, "["+strconv.Itoa(i)+"]"), removed)
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for _, k := range sortedKeys(m, nil) {
			reflectPrune(m[k], t.Elem(), append(path, k), removed)
		}
	}
}
