package validate

import (
	"maps"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// customKind is one served version of a kind that a
// CustomResourceDefinition defines.
type customKind struct {
	namespaced bool
	// schema validates the custom resources; nil when the definition
	// gives none (an apiextensions.k8s.io/v1beta1 definition may omit it).
	schema apiservervalidation.SchemaValidator
}

// addCRD records the served versions of the kind that CRD o defines. A
// definition that does not decode is left to its own validation.
func (v *Validator) addCRD(o *object.Object) {
	s := schemeFor("apiextensions.k8s.io")
	gv, err := schema.ParseGroupVersion(o.APIVersion())
	if err != nil || !s.Recognizes(gv.WithKind(o.Kind())) {
		return
	}
	typed, errs := decode(s, gv.WithKind(o.Kind()), o.Map)
	if len(errs) > 0 {
		return
	}
	s.Default(typed)
	crd := &apiextensions.CustomResourceDefinition{}
	if err := s.Convert(typed, crd, nil); err != nil {
		return
	}
	for _, ver := range crd.Spec.Versions {
		if !ver.Served {
			continue
		}
		c := &customKind{namespaced: crd.Spec.Scope != apiextensions.ClusterScoped}
		sch := crd.Spec.Validation
		if ver.Schema != nil {
			sch = ver.Schema
		}
		if sch != nil && sch.OpenAPIV3Schema != nil {
			if val, _, err := apiservervalidation.NewSchemaValidator(sch.OpenAPIV3Schema); err == nil {
				c.schema = val
			}
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: ver.Name, Kind: crd.Spec.Names.Kind}
		v.custom[gvk] = c
	}
}

// validate validates a custom resource as the API server does on create:
// its metadata, then its content against the version's schema.
func (c *customKind) validate(o *object.Object) field.ErrorList {
	content := maps.Clone(o.Map)
	if md, ok := content["metadata"].(map[string]any); ok {
		content["metadata"] = maps.Clone(md)
	}
	u := &unstructured.Unstructured{Object: content}
	switch {
	case !c.namespaced:
		u.SetNamespace("")
	case u.GetNamespace() == "":
		u.SetNamespace("default")
	}
	errs := apivalidation.ValidateObjectMetaAccessor(u, c.namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))
	if c.schema != nil {
		errs = append(errs, apiservervalidation.ValidateCustomResource(nil, content, c.schema)...)
	}
	return errs
}
