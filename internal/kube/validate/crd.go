package validate

import (
	"maps"
	"slices"
	"sync"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// customKind is one served version of a kind that a
// CustomResourceDefinition defines, as the API extensions server serves
// it (its crdHandler's serving info for the version).
type customKind struct {
	gvk schema.GroupVersionKind
	// crd names the definition in messages.
	crd        string
	namespaced bool
	// preserve is spec.preserveUnknownFields (apiextensions.k8s.io/v1beta1
	// definitions of Options.CRDs): nothing is pruned, unknown fields are
	// kept.
	preserve bool
	// structural is the version's schema as a structural schema, with
	// the defaults the server prunes pruned; nil when the definition
	// gives no schema or one that is not structural (a v1beta1 definition
	// may): then nothing is pruned, defaulted or checked by CEL.
	structural *structuralschema.Structural
	// schema validates the custom resources; nil without a schema.
	schema apiservervalidation.SchemaValidator
	// status: the status subresource is on (a create drops status).
	status bool
	// scale is the scale subresource, nil when off.
	scale *apiextensions.CustomResourceSubresourceScale
	// exprs are the CEL expressions of the schema (rules and message
	// expressions), what compiling its validator costs.
	exprs []string
	// rules is the schema's CEL validator, compiled at the first custom
	// resource of the version (compiling is charged to the budget).
	rules struct {
		once sync.Once
		v    *cel.Validator
		err  error
	}
}

// addDefinitions records the kinds that the CustomResourceDefinitions of
// crds (definitions the render does not hold) and objs define. It charges
// the budget with the schema nodes of crds; those of objs, and the rules
// their own validation compiles, the caller charged before it converted
// them (ChargeDefinition, ChargeDefinitionRules). A spent budget stops it
// (Err).
func (v *Validator) addDefinitions(crds, objs []*object.Object) {
	for _, o := range crds {
		if !isDefinition(o) {
			continue
		}
		if err := ChargeDefinition(o, v.opts.Budget, ""); err != nil {
			v.spent.set(err)
			return
		}
		v.addCRD(o)
	}
	for _, o := range objs {
		if isDefinition(o) {
			v.addCRD(o)
		}
	}
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
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: ver.Name, Kind: crd.Spec.Names.Kind}
		v.custom[gvk] = newCustomKind(gvk, crd, ver)
	}
}

// Err is the error of the budget once validation spent it (Options.Budget),
// nil before.
func (v *Validator) Err() error { return v.spent.get() }

// spentBudget holds the first error of a spent budget; objects are
// validated on several goroutines.
type spentBudget struct {
	mu  sync.Mutex
	err error
}

func (s *spentBudget) set(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

func (s *spentBudget) get() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// newCustomKind prepares the validation of one version of crd, as the API
// server prepares it when it starts serving the version.
func newCustomKind(gvk schema.GroupVersionKind, crd *apiextensions.CustomResourceDefinition, ver apiextensions.CustomResourceDefinitionVersion) *customKind {
	c := &customKind{
		gvk:        gvk,
		crd:        crd.Name,
		namespaced: crd.Spec.Scope != apiextensions.ClusterScoped,
		preserve:   crd.Spec.PreserveUnknownFields != nil && *crd.Spec.PreserveUnknownFields,
	}
	sch, sub := crd.Spec.Validation, crd.Spec.Subresources
	if ver.Schema != nil {
		sch = ver.Schema
	}
	if ver.Subresources != nil {
		sub = ver.Subresources
	}
	if sub != nil {
		c.status = sub.Status != nil
		c.scale = sub.Scale
	}
	if sch == nil || sch.OpenAPIV3Schema == nil {
		return c
	}
	if val, _, err := apiservervalidation.NewSchemaValidator(sch.OpenAPIV3Schema); err == nil {
		c.schema = val
	}
	if st, err := structuralschema.NewStructural(sch.OpenAPIV3Schema); err == nil {
		st = st.DeepCopy() // defaults are shared with the definition
		if structuraldefaulting.PruneDefaults(st) == nil {
			c.structural = st
		}
	}
	eachExpression(sch.OpenAPIV3Schema, func(e string) { c.exprs = append(c.exprs, e) })
	return c
}

// eachExpression calls f with every CEL expression of schema s: the rule
// and the message expression of each x-kubernetes-validations entry.
func eachExpression(s *apiextensions.JSONSchemaProps, f func(string)) {
	if s == nil {
		return
	}
	for _, r := range s.XValidations {
		f(r.Rule)
		if r.MessageExpression != "" {
			f(r.MessageExpression)
		}
	}
	for _, k := range sortedProps(s.Properties) {
		p := s.Properties[k]
		eachExpression(&p, f)
	}
	if s.Items != nil {
		eachExpression(s.Items.Schema, f)
		for i := range s.Items.JSONSchemas {
			eachExpression(&s.Items.JSONSchemas[i], f)
		}
	}
	if s.AdditionalProperties != nil {
		eachExpression(s.AdditionalProperties.Schema, f)
	}
	for i := range s.AllOf {
		eachExpression(&s.AllOf[i], f)
	}
}

func sortedProps(m map[string]apiextensions.JSONSchemaProps) []string {
	return slices.Sorted(maps.Keys(m))
}
