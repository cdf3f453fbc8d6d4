package validate

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// statusTypes is what server-side apply refuses in the status of a
// custom resource whose status subresource is on: its typed conversion
// (structured-merge-diff, from the schema) reads the whole object before
// the create drops the status, so a value of the wrong type there, or two
// items of one key of an x-kubernetes-list-type map or set, is refused
// though the status is never validated.
func (c *customKind) statusTypes(u map[string]any) field.ErrorList {
	st, ok := c.structural.Properties["status"]
	status, present := u["status"]
	if !ok || !present {
		return nil
	}
	p := field.NewPath("status")
	errs := applyTypes(status, &st, p)
	if m, isMap := status.(map[string]any); isMap && len(errs) == 0 {
		errs = structurallisttype.ValidateListSetsAndMaps(p, &st, m)
	}
	return errs
}

// applyTypes finds the values of v that do not have the type schema s
// gives them, as structured-merge-diff's typed conversion finds them: a
// null is any type's, a number is an integer's or a number's, fields the
// schema keeps unknown and int-or-string values are whatever they are.
func applyTypes(v any, s *structuralschema.Structural, p *field.Path) field.ErrorList {
	if v == nil || s == nil || s.XIntOrString {
		return nil
	}
	want := s.Type
	if want == "" {
		return nil
	}
	if got := jsonKind(v); got != want && (want != "integer" || got != "number") && (want != "number" || got != "integer") {
		return field.ErrorList{field.TypeInvalid(p, v, fmt.Sprintf("expected %s, got %s", want, got))}
	}
	var errs field.ErrorList
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, applyTypes(t[k], &prop, p.Child(k))...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, applyTypes(t[k], s.AdditionalProperties.Structural, p.Key(k))...)
			}
		}
	case []any:
		for i, x := range t {
			errs = append(errs, applyTypes(x, s.Items, p.Index(i))...)
		}
	}
	return errs
}

// jsonKind is the OpenAPI type of a JSON value: object, array, string,
// integer, number or boolean.
func jsonKind(v any) string {
	switch t := v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		if t == float64(int64(t)) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}
