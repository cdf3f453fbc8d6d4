package validate

import (
	"maps"
	"reflect"
	"slices"
	"sync"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
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
	// validation is the version's schema as written (a
	// CustomResourceValidation in map form, of the definition's API
	// version gv), typed only when a custom resource needs it: a
	// definition of the render that no resource uses costs no second
	// typing.
	validation map[string]any
	gv         schema.GroupVersion
	topLevel   bool // validation is spec.validation (v1beta1)
	once       sync.Once
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
// definition that does not decode is left to its own validation. Its
// schemas are typed when a custom resource needs them (customKind.prepare).
func (v *Validator) addCRD(o *object.Object) {
	s := schemeFor("apiextensions.k8s.io")
	gv, err := schema.ParseGroupVersion(o.APIVersion())
	if err != nil || !s.Recognizes(gv.WithKind(o.Kind())) {
		return
	}
	light, schemas := withoutSchemas(o.Map)
	typed, errs := decode(s, gv.WithKind(o.Kind()), light)
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
		c := newCustomKind(gvk, crd, ver)
		c.gv, c.validation = gv, schemas[ver.Name]
		if c.validation == nil {
			c.validation, c.topLevel = schemas[""], true // a v1beta1 definition's
		}
		v.custom[gvk] = c
	}
}

// withoutSchemas returns a copy of a CustomResourceDefinition in map form
// without its schemas (spec.validation, spec.versions[*].schema), which
// are returned by version name ("" for spec.validation). Only the maps
// on the way are copied.
func withoutSchemas(crd map[string]any) (map[string]any, map[string]map[string]any) {
	schemas := map[string]map[string]any{}
	out := maps.Clone(crd)
	spec, ok := crd["spec"].(map[string]any)
	if !ok {
		return out, schemas
	}
	spec = maps.Clone(spec)
	out["spec"] = spec
	if val, ok := spec["validation"].(map[string]any); ok {
		schemas[""] = val
		delete(spec, "validation")
	}
	versions, _ := spec["versions"].([]any)
	spec["versions"] = slices.Clone(versions)
	for i, ver := range versions {
		vm, ok := ver.(map[string]any)
		if !ok {
			continue
		}
		if val, ok := vm["schema"].(map[string]any); ok {
			name, _ := vm["name"].(string)
			schemas[name] = val
			vm = maps.Clone(vm)
			delete(vm, "schema")
			spec["versions"].([]any)[i] = vm
		}
	}
	return out, schemas
}

// newCustomKind prepares the validation of one version of crd (decoded
// without its schemas), as the API server prepares it when it starts
// serving the version.
func newCustomKind(gvk schema.GroupVersionKind, crd *apiextensions.CustomResourceDefinition, ver apiextensions.CustomResourceDefinitionVersion) *customKind {
	c := &customKind{
		gvk:        gvk,
		crd:        crd.Name,
		namespaced: crd.Spec.Scope != apiextensions.ClusterScoped,
		preserve:   crd.Spec.PreserveUnknownFields != nil && *crd.Spec.PreserveUnknownFields,
	}
	sub := crd.Spec.Subresources
	if ver.Subresources != nil {
		sub = ver.Subresources
	}
	if sub != nil {
		c.status = sub.Status != nil
		c.scale = sub.Scale
	}
	return c
}

// prepare types the version's schema, the first time a custom resource
// of it is validated: its validator, its structural schema with the
// defaults the server prunes pruned, its CEL expressions. A schema that
// does not decode (its definition's own validation says why) validates
// nothing.
func (c *customKind) prepare() {
	c.once.Do(func() {
		if c.validation == nil {
			return
		}
		s := schemeFor("apiextensions.k8s.io")
		typed, err := s.New(c.gv.WithKind("CustomResourceDefinition"))
		if err != nil {
			return
		}
		// The schema alone, where the definition's API version holds it.
		spec := map[string]any{"versions": []any{map[string]any{"name": c.gvk.Version, "schema": c.validation}}}
		if c.topLevel {
			spec = map[string]any{"validation": c.validation}
		}
		wrapped := map[string]any{"spec": spec}
		if errs, _ := typeErrors(wrapped, reflect.TypeOf(typed).Elem()); len(errs) > 0 || runtime.DefaultUnstructuredConverter.FromUnstructured(wrapped, typed) != nil {
			return
		}
		crd := &apiextensions.CustomResourceDefinition{}
		if s.Convert(typed, crd, nil) != nil {
			return
		}
		val := crd.Spec.Validation
		if len(crd.Spec.Versions) > 0 && crd.Spec.Versions[0].Schema != nil {
			val = crd.Spec.Versions[0].Schema
		}
		if val == nil || val.OpenAPIV3Schema == nil {
			return
		}
		sch := val.OpenAPIV3Schema
		if val, _, err := apiservervalidation.NewSchemaValidator(sch); err == nil {
			c.schema = val
		}
		// The server copies the structural schema before pruning its
		// defaults, which it shares with the definition; this definition
		// is ours.
		if st, err := structuralschema.NewStructural(sch); err == nil && structuraldefaulting.PruneDefaults(st) == nil {
			c.structural = st
		}
		eachExpression(sch, func(e string) { c.exprs = append(c.exprs, e) })
	})
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
