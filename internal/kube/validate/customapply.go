package validate

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// applyErrors is what server-side apply's typed conversion
// (structured-merge-diff, its schema made from the definition's) refuses
// in a custom resource before anything validates it: values of another
// type than the schema's (where the schema validator lets some through:
// a list for a string of a format), and, in the status of a kind whose
// status subresource is on, two items of one key of an
// x-kubernetes-list-type map or set (the create drops the status, which
// is never validated).
func (c *customKind) applyErrors(u map[string]any) field.ErrorList {
	if c.structural == nil {
		return nil
	}
	errs := applyTypeErrors(u, c.structural, nil)
	st, ok := c.structural.Properties["status"]
	status, isMap := u["status"].(map[string]any)
	if c.status && ok && isMap {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(field.NewPath("status"), &st, status)...)
	}
	return errs
}

// applyTypeErrors finds the values of v that do not have the type schema s
// gives them, as structured-merge-diff's typed conversion finds them: a
// null is any type's, a number is an integer's or a number's, a string of
// a format any scalar, fields the schema keeps unknown and int-or-string
// values are whatever they are.
func applyTypeErrors(v any, s *structuralschema.Structural, p *field.Path) field.ErrorList {
	if v == nil || s == nil || s.XIntOrString || s.Type == "" {
		return nil
	}
	want, got := s.Type, jsonKind(v)
	if want == "string" && s.ValueValidation != nil && s.ValueValidation.Format != "" {
		want = "any scalar"
		if got != "object" && got != "array" {
			got = want
		}
	}
	if got != want && (want != "integer" || got != "number") && (want != "number" || got != "integer") {
		return field.ErrorList{field.TypeInvalid(p, v, fmt.Sprintf("expected %s, got %s", want, got))}
	}
	var errs field.ErrorList
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, applyTypeErrors(t[k], &prop, p.Child(k))...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, applyTypeErrors(t[k], s.AdditionalProperties.Structural, p.Key(k))...)
			}
		}
	case []any:
		for i, x := range t {
			errs = append(errs, applyTypeErrors(x, s.Items, p.Index(i))...)
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
