package validate

import (
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// crdKind is the kind of CustomResourceDefinitions.
var crdKind = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// definitionFields refuses the fields of a CustomResourceDefinition that
// its API type does not declare (a misspelt x-kubernetes-preserve-unknown-
// fields, a schema's "require"), as the API server does under strict field
// validation.
func definitionFields(gvk schema.GroupVersionKind, m map[string]any) field.ErrorList {
	if gvk != crdKind {
		return nil
	}
	return unknownFields(m, reflect.TypeFor[apiextensionsv1.CustomResourceDefinition](), nil)
}

// unknownFields finds the keys of v that API type t does not declare,
// where server-side apply finds them: its OpenAPI schema is generated
// from the type's fields, and declares none below a type that reads its
// own JSON (a schema's items, additionalProperties, default, enum and
// example, quantities, times) nor below a type of no fields (the status
// subresource), which it accepts whatever they hold.
func unknownFields(v any, t reflect.Type, p *field.Path) field.ErrorList {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	var errs field.ErrorList
	switch t.Kind() {
	case reflect.Struct:
		m, _ := v.(map[string]any)
		fields := jsonFields(t)
		if len(fields) == 0 {
			return nil // an object of no fields, which its schema leaves open
		}
		for _, k := range sortedKeys(m) {
			ft, ok := fields[k]
			if !ok {
				errs = append(errs, unknownFieldError(child(p, k).String()))
				continue
			}
			errs = append(errs, unknownFields(m[k], ft, child(p, k))...)
		}
	case reflect.Slice:
		l, _ := v.([]any)
		for i, x := range l {
			errs = append(errs, unknownFields(x, t.Elem(), p.Index(i))...)
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for _, k := range sortedKeys(m) {
			errs = append(errs, unknownFields(m[k], t.Elem(), p.Key(k))...)
		}
	}
	return errs
}
