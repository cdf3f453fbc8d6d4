package kube

import (
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// truth is the YAML 1.1 value of the boolean words object.Bool11 records.
func truth(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "y", "yes", "on":
		return true, true
	case "n", "no", "off":
		return false, true
	}
	return false, false
}

// kind of a field for typing an ambiguous scalar.
type fieldKind int

const (
	unknownField fieldKind = iota // no schema: read as Kubernetes does
	boolField
	textField // string, or a type that takes strings (IntOrString, Quantity)
	absentField
)

// typeBool11 types the scalar at pointer ptr of o.
func typeBool11(o *object.Object, ptr string, t typeID, crds crdTable) {
	path := splitPointer(ptr)
	parent, key, ok := locate(o.Map, path)
	if !ok {
		return
	}
	s, isText := getAt(parent, key).(string)
	b, isWord := truth(s)
	if !isText || !isWord {
		return // a patch changed it
	}
	var k fieldKind
	switch {
	case t != noType:
		k = goFieldKind(t, path)
	default:
		k = crds.fieldKind(o, path)
	}
	if k == boolField || k == unknownField {
		setAt(parent, key, b)
	}
}

func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

// locate returns the container (map or list) holding the last step of
// path, and that step.
func locate(v any, path []string) (any, string, bool) {
	if len(path) == 0 {
		return nil, "", false
	}
	for _, p := range path[:len(path)-1] {
		switch c := v.(type) {
		case map[string]any:
			v = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, "", false
			}
			v = c[i]
		default:
			return nil, "", false
		}
	}
	return v, path[len(path)-1], true
}

func getAt(c any, key string) any {
	switch c := c.(type) {
	case map[string]any:
		return c[key]
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(c) {
			return c[i]
		}
	}
	return nil
}

func setAt(c any, key string, v any) {
	switch c := c.(type) {
	case map[string]any:
		c[key] = v
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(c) {
			c[i] = v
		}
	}
}

// goFieldKind follows path through a built-in API type.
func goFieldKind(t typeID, path []string) fieldKind {
	for _, p := range path {
		switch ty := &apiTypes[t]; ty.c {
		case tRaw, tAny:
			return unknownField
		case tOpaque:
			return textField
		case tStruct:
			ft, ok := field(t, p)
			if !ok {
				return absentField
			}
			t = ft
		case tList, tBytes, tMap:
			t = ty.elem
		default:
			return absentField
		}
	}
	switch apiTypes[t].c {
	case tRaw, tAny:
		return unknownField
	case tBool:
		return boolField
	}
	return textField
}

// crdTable holds the openAPIV3Schema of each kind and version that the
// CustomResourceDefinitions of a render define.
type crdTable map[string]map[string]any // group/kind/version -> schema

func crdSchemas(objs []*object.Object) crdTable {
	t := crdTable{}
	for _, o := range objs {
		if o.Kind() != "CustomResourceDefinition" || o.Group() != "apiextensions.k8s.io" {
			continue
		}
		group, kind := o.String("spec", "group"), o.String("spec", "names", "kind")
		versions, _ := object.Get(o.Map, "spec", "versions").([]any)
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			name, _ := vm["name"].(string)
			if s, ok := object.Get(vm, "schema", "openAPIV3Schema").(map[string]any); ok {
				t[group+"/"+kind+"/"+name] = s
			}
		}
	}
	return t
}

// fieldKind follows path through the CRD schema of o's kind and version.
func (t crdTable) fieldKind(o *object.Object, path []string) fieldKind {
	s, ok := t[o.Group()+"/"+o.Kind()+"/"+o.Version()]
	if !ok {
		return unknownField
	}
	for _, p := range path {
		if b, _ := s["x-kubernetes-preserve-unknown-fields"].(bool); b {
			if _, typed := s["properties"]; !typed {
				return unknownField
			}
		}
		var next map[string]any
		switch s["type"] {
		case "object":
			if props, ok := s["properties"].(map[string]any); ok {
				next, _ = props[p].(map[string]any)
			}
			if next == nil {
				next, _ = s["additionalProperties"].(map[string]any)
			}
		case "array":
			next, _ = s["items"].(map[string]any)
		}
		if next == nil {
			return unknownField
		}
		s = next
	}
	if b, _ := s["x-kubernetes-int-or-string"].(bool); b {
		return textField
	}
	switch s["type"] {
	case "boolean":
		return boolField
	case "string", "integer", "number":
		return textField
	}
	return unknownField
}
