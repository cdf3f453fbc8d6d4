package validate

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/operation"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	apiserverfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// A custom resource goes through the API extensions server in three
// steps, each done here with the server's own code:
//
//   - it is read: the metadata into an ObjectMeta, the fields the schema
//     does not declare refused (server-side apply, and strict field
//     validation, which Argo CD and Flux use; unless the schema keeps
//     unknown fields), the metadata of embedded resources checked. Nulls
//     stay: server-side apply does not prune them (a create by client-side
//     apply would drop those of non-nullable fields), so a null where the
//     schema wants a value and has no default is refused;
//   - the schema's defaults are applied, and a create drops the status
//     when the status subresource is on (the strategy's PrepareForCreate);
//   - the strategy validates it: the metadata (a DNS subdomain name,
//     labels, annotations), the OpenAPI schema (types, formats, enums,
//     bounds, int-or-string), the scale subresource's replicas, embedded
//     resources, x-kubernetes-list-type map and set uniqueness, then the
//     x-kubernetes-validations CEL rules within the server's cost limits,
//     and the generic metadata checks of every create.

// unknownField is the message of a field the schema does not declare.
const unknownField = "field not declared in schema (the API server refuses it under strict field validation, which Argo CD and Flux use)"

// unknownFieldError is the problem of a field at p that the schema does
// not declare.
func unknownFieldError(p string) *field.Error {
	return &field.Error{Type: field.ErrorTypeForbidden, Field: p, Detail: unknownField}
}

// validate validates a custom resource as the API server validates a
// create by server-side apply. The CEL rules' compilation and evaluation
// are charged to budget; the error is a spent budget, not a problem of
// the object.
func (c *customKind) validate(o *object.Object, budget *limits.Budget) (field.ErrorList, error) {
	c.prepare()
	u, _ := jsonValue(o.Map).(map[string]any)
	meta, errs := c.read(u)
	if len(errs) > 0 {
		return errs, nil
	}
	applied := c.applyErrors(u)
	if c.structural != nil {
		structuraldefaulting.Default(u, c.structural)
	}
	if c.status {
		delete(u, "status")
	}
	errs, err := c.strategy(u, meta, budget)
	if err != nil {
		return nil, err
	}
	return append(errs, uncovered(applied, errs)...), nil
}

// strategy validates a custom resource read, defaulted and prepared for
// create as the strategy of its kind does, then as every create is.
func (c *customKind) strategy(u map[string]any, meta *metav1.ObjectMeta, budget *limits.Budget) (field.ErrorList, error) {
	ctx := genericapirequest.WithNamespace(context.Background(), meta.Namespace)
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: c.gvk.Group, APIVersion: c.gvk.Version, Namespace: meta.Namespace, Name: meta.Name,
	})
	beta := utilfeature.DefaultFeatureGate.Enabled(apiserverfeatures.DeclarativeValidationBeta)
	errs := apivalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, c.namespaced, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"), beta)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u, c.schema)...)
	errs = append(errs, c.scaleErrors(u)...)
	if c.structural != nil {
		errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u, c.structural, false)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, c.structural, u)...)
	}
	ruleErrs, err := c.checkRules(ctx, u, errs, budget, c.gvk.Kind+" "+strings.TrimPrefix(meta.Namespace+"/"+meta.Name, "/"))
	if err != nil {
		return nil, err
	}
	errs = append(errs, ruleErrs...)
	if len(errs) == 0 {
		// rest.ValidateCreate: the generic checks after the strategy's.
		errs = apivalidation.ValidateObjectMetaAccessor(meta, c.namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))
	}
	return errs, nil
}

// uncovered are the problems of extra at fields errs says nothing of.
func uncovered(extra, errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range extra {
		if !slices.ContainsFunc(errs, func(x *field.Error) bool { return x.Field == e.Field }) {
			out = append(out, e)
		}
	}
	return out
}

// read does what the API server does when it reads the body of a custom
// resource: it returns the metadata (namespace set as the request sets
// it) and the object's fields pruned, or the problems that make the
// server refuse the body.
func (c *customKind) read(u map[string]any) (*metav1.ObjectMeta, field.ErrorList) {
	metaPath := field.NewPath("metadata")
	md := u["metadata"]
	if md == nil {
		md = map[string]any{}
	}
	metaType := reflect.TypeFor[metav1.ObjectMeta]()
	errs, _ := typeErrorsAt(md, metaType, metaPath)
	errs = append(errs, unknownFields(md, metaType, metaPath)...)
	for _, k := range []string{"apiVersion", "kind"} {
		if _, ok := u[k].(string); !ok {
			errs = append(errs, field.Invalid(field.NewPath(k), u[k], "must be a string"))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	meta := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(md.(map[string]any), meta); err != nil {
		return nil, field.ErrorList{field.Invalid(metaPath, md, err.Error())}
	}
	switch {
	case !c.namespaced:
		meta.Namespace = ""
	case meta.Namespace == "":
		meta.Namespace = "default"
	}
	if meta.UID != "" {
		// The apply handler: a create of an object that names a uid.
		return nil, field.ErrorList{field.Forbidden(metaPath.Child("uid"), "the API server refuses a new object that names a uid (uid mismatch: no existing object has it); leave it to the server")}
	}
	if c.structural == nil {
		return meta, setMeta(u, meta)
	}
	var unknown []string
	if !c.preserve {
		unknown = structuralpruning.PruneWithOptions(u, c.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	}
	fe, embedded := schemaobjectmeta.CoerceWithOptions(nil, u, c.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if fe != nil {
		// Coercion stops at its first error, walking maps in Go's random
		// order: the unknown fields of embedded resources it collected
		// before are a different part of them every run. The server
		// refuses the object with that error alone.
		errs = append(errs, fe)
		embedded = nil
	}
	unknown = append(unknown, embedded...)
	slices.Sort(unknown)
	for _, p := range slices.Compact(unknown) {
		errs = append(errs, unknownFieldError(p))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return meta, setMeta(u, meta)
}

// setMeta writes the metadata back as the server does once it has read
// it (schemaobjectmeta.SetObjectMeta).
func setMeta(u map[string]any, meta *metav1.ObjectMeta) field.ErrorList {
	if err := schemaobjectmeta.SetObjectMeta(u, meta); err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata"), nil, err.Error())}
	}
	return nil
}

// scaleErrors checks the replicas the scale subresource reads, as the
// strategy's validator does (ValidateScaleSpec, ValidateScaleStatus).
func (c *customKind) scaleErrors(u map[string]any) field.ErrorList {
	if c.scale == nil {
		return nil
	}
	var errs field.ErrorList
	for _, p := range []string{c.scale.SpecReplicasPath, c.scale.StatusReplicasPath} {
		n, _, err := unstructured.NestedInt64(u, strings.Split(strings.TrimPrefix(p, "."), ".")...)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(p), n, err.Error()))
		case n < 0:
			errs = append(errs, field.Invalid(field.NewPath(p), n, "should be a non-negative integer"))
		case n > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(p), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	if p := c.scale.LabelSelectorPath; p != nil {
		if s, _, err := unstructured.NestedString(u, strings.Split(strings.TrimPrefix(*p, "."), ".")...); err != nil {
			errs = append(errs, field.Invalid(field.NewPath(*p), s, err.Error()))
		}
	}
	return errs
}

// checkRules evaluates the x-kubernetes-validations rules of the schema
// unless errs already holds a problem that keeps the server from running
// them. Evaluation gets the server's budget per object
// (RuntimeCELCostBudget), reserved from the render's budget before it
// runs; what it does not spend is given back. who names the object in the
// error of a spent budget.
func (c *customKind) checkRules(ctx context.Context, u map[string]any, errs field.ErrorList, budget *limits.Budget, who string) (field.ErrorList, error) {
	rules, err := c.compiled(budget)
	if err != nil || rules == nil {
		return nil, err
	}
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.ErrorList{field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")}, nil
		}
	}
	reserve := min(int64(celconfig.RuntimeCELCostBudget), budget.Left(limits.CELCost))
	where := who + ": evaluating its x-kubernetes-validations rules"
	if err := budget.Charge(limits.CELCost, reserve, where); err != nil {
		return nil, err
	}
	found, left := rules.Validate(ctx, nil, c.structural, u, nil, reserve)
	budget.Refund(limits.CELCost, max(left, 0))
	if left < 0 && reserve < celconfig.RuntimeCELCostBudget && ranOut(found) {
		// The render's budget ran out, not the server's.
		return nil, budget.Err(limits.CELCost, where)
	}
	return found, nil
}

// ranOut reports whether the CEL validator stopped because its budget ran
// out (not because a rule passed the limit of one evaluation, which the
// server refuses whatever is left).
func ranOut(errs field.ErrorList) bool {
	for _, e := range errs {
		if strings.Contains(e.Detail, "running out of cost budget") {
			return true
		}
	}
	return false
}

// jsonValue copies v as the API server holds a JSON body: integers are
// int64 (or float64 beyond its range), fractions float64, and a float
// with no fraction an int64, as JSON writes it (3.0 is 3).
func jsonValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonValue(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonValue(x)
		}
		return out
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return r.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if r.Uint() > math.MaxInt64 {
			return float64(r.Uint())
		}
		return int64(r.Uint())
	case reflect.Float32, reflect.Float64:
		f := r.Float()
		if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			return int64(f)
		}
		return f
	}
	return v
}
