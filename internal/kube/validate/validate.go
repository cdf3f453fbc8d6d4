package validate

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	apivalidate "k8s.io/apimachinery/pkg/api/validate"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	apiserverfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kinds"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Options of a validation.
type Options struct {
	// CRDs are CustomResourceDefinitions that are not objects of the
	// render (a folder the user configured): custom resources of their
	// kinds are validated against their schemas too.
	CRDs []*object.Object
	// Version names the target Kubernetes version in messages; empty is
	// ServedVersion.
	Version string
	// Older, when set, reports whether an API version that Kubernetes
	// ServedVersion no longer serves is still served by the target
	// (an older Kubernetes): objects of it are validated, not refused.
	Older func(apiVersion, kind string) bool
	// Budget, when set, is charged with what CustomResourceDefinitions
	// cost: the schema nodes of those of CRDs, the compilation of the CEL
	// rules of the versions custom resources need, and the rules each
	// custom resource evaluates (definitions among the objects the caller
	// charges: ChargeDefinition, ChargeDefinitionRules). Once it is spent,
	// validation stops and Err returns its error.
	Budget *limits.Budget
}

// Validator validates the objects of one render.
type Validator struct {
	opts   Options
	custom map[schema.GroupVersionKind]*customKind
	// classes are the render's PriorityClasses and RuntimeClasses, which
	// admission reads.
	classes renderClasses
	// ports are the node ports the render's Services ask for.
	ports renderPorts
	spent spentBudget
}

// New prepares the validation of objs: the CustomResourceDefinitions
// among them and in opts give the schemas of custom kinds. A definition
// that cannot be read is reported by Object when it is validated itself.
func New(objs []*object.Object, opts Options) *Validator {
	v := &Validator{opts: opts, custom: map[schema.GroupVersionKind]*customKind{}}
	v.classes = renderClasses{priorities: map[string]priorityClass{}, overheads: map[string]map[string]any{}}
	v.addDefinitions(opts.CRDs, objs)
	v.ports = renderPorts{}
	for _, o := range objs {
		v.classes.addClass(o)
		v.ports.addService(o)
	}
	return v
}

// Objects validates every object and returns the problems of each, in
// order (nil where an object has none); warnings among them are no
// refusals (see Object).
func Objects(objs []*object.Object, opts Options) [][]*diag.Diagnostic {
	v := New(objs, opts)
	out := make([][]*diag.Diagnostic, len(objs))
	for i, o := range objs {
		out[i] = v.Object(o)
	}
	return out
}

// Object validates one object the way the API server validates a create:
// the kind must be served, the fields of the right types, and then what
// the kind's validation (hand-written and declarative) refuses. Objects
// of kinds that are neither built in nor defined by a known
// CustomResourceDefinition are not validated. Warnings
// (diag.SeverityWarning) are about values the server accepts but stores
// otherwise; every other diagnostic is a refusal.
func (v *Validator) Object(o *object.Object) (found []*diag.Diagnostic) {
	res := &diag.Resource{APIVersion: o.APIVersion(), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()}
	defer func() {
		// Kubernetes' validation expects what its decoder produces; an
		// object it cannot handle is refused, never a crash.
		if r := recover(); r != nil {
			found = []*diag.Diagnostic{{Resource: res, Msg: fmt.Sprintf("cannot be validated (Kubernetes' validation failed on it: %v)", r)}}
		}
	}()
	gv, err := schema.ParseGroupVersion(o.APIVersion())
	if err != nil {
		return []*diag.Diagnostic{{Resource: res, Field: "apiVersion", Msg: err.Error()}}
	}
	gvk := gv.WithKind(o.Kind())
	if c := v.custom[gvk]; c != nil {
		if v.Err() != nil {
			return nil // the budget is spent: the render stops with Err
		}
		errs, err := c.validate(o, v.opts.Budget)
		if err != nil {
			v.spent.set(err)
		}
		return toDiags(res, errs)
	}
	s := schemeFor(gv.Group)
	if s == nil && !servedGroups[gv.Group] {
		return nil // not an API group of the API server's own
	}
	if d := v.unknownKind(s, gvk); d != nil {
		d.Resource = res
		return []*diag.Diagnostic{d}
	}
	if why, ok := requests[gvk.GroupKind()]; ok {
		return []*diag.Diagnostic{{Resource: res, Field: "kind", Msg: fmt.Sprintf("%s cannot be applied: it is %s, and server-side apply of it (as Argo CD, Flux and kubectl --server-side apply) is refused", gvk.Kind, why)}}
	}
	if s == nil || !s.Recognizes(gvk) {
		return nil // served, but not a kind whose rules kudo-render has
	}
	if !servedSet[gvk] {
		// An API version an older target still serves: its rules were
		// that version's, not today's; only the types are checked.
		if _, errs := decode(s, gvk, o.Map); len(errs) > 0 {
			return toDiags(res, errs)
		}
		return nil
	}
	errs, warnings := v.validateBuiltin(s, gvk, o)
	errs = append(errs, definitionFields(gvk, o.Map)...)
	errs = append(errs, v.ports.taken(o)...)
	if gvk.Group == "" && gvk.Kind == "Secret" {
		hideSecretValues(errs)
		hideSecretValues(warnings)
	}
	found = toDiags(res, errs)
	for _, d := range toDiags(res, warnings) {
		d.Severity = diag.SeverityWarning
		found = append(found, d)
	}
	return found
}

// served reports whether the target serves gvk: Kubernetes ServedVersion
// does, or an older target still did (opts.Older).
func (v *Validator) served(s *runtime.Scheme, gvk schema.GroupVersionKind) bool {
	return servedSet[gvk] || v.opts.Older != nil && s != nil && s.Recognizes(gvk) && v.opts.Older(gvk.GroupVersion().String(), gvk.Kind)
}

// unknownKind reports a kind or version the API server does not serve,
// with the versions that serve the kind or the kind meant.
func (v *Validator) unknownKind(s *runtime.Scheme, gvk schema.GroupVersionKind) *diag.Diagnostic {
	if v.served(s, gvk) {
		return nil
	}
	gv := gvk.GroupVersion()
	var inGV, versions []string
	for _, k := range servedKinds {
		if k.GroupVersion() == gv {
			inGV = append(inGV, k.Kind)
		}
		if k.Group == gvk.Group && k.Kind == gvk.Kind {
			versions = append(versions, k.GroupVersion().String())
		}
	}
	if len(inGV) == 0 || len(versions) > 0 {
		msg := fmt.Sprintf("%s is not served by Kubernetes %s", gv, v.target())
		if len(versions) > 0 {
			msg += fmt.Sprintf("; %s is served as %s", gvk.Kind, strings.Join(versions, ", "))
		}
		return &diag.Diagnostic{Field: "apiVersion", Msg: msg}
	}
	msg := fmt.Sprintf("no kind %q is served in %s", gvk.Kind, gv)
	if item, isList := strings.CutSuffix(gvk.Kind, "List"); isList && (item == "" || slices.Contains(inGV, item)) {
		return &diag.Diagnostic{Field: "kind", Msg: msg + "; a list is read by clients (kubectl expands it), the API server has no such resource: write each item as a document of its own, with --- between them"}
	}
	if c, ok := suggest.Closest(gvk.Kind, inGV); ok {
		msg += fmt.Sprintf("; did you mean %q?", c)
	}
	return &diag.Diagnostic{Field: "kind", Msg: msg}
}

// target names the Kubernetes version validated against.
func (v *Validator) target() string {
	if v.opts.Version != "" {
		return v.opts.Version
	}
	return ServedVersion
}

// validateBuiltin decodes o into its API type, checks what server-side
// apply refuses (its list keys), defaults it, converts it to the internal
// version and runs the kind's create validation. The warnings are about
// values the server accepts but stores otherwise.
func (v *Validator) validateBuiltin(s *runtime.Scheme, gvk schema.GroupVersionKind, o *object.Object) (errs, warnings field.ErrorList) {
	typed, typeErrs, warnings := decodeWarn(s, gvk, o.Map)
	if len(typeErrs) > 0 {
		// The rest of the object is still validated, without the values
		// of the wrong type (and without what that absence causes).
		typed = decodeWithout(s, gvk, o.Map)
		if typed == nil {
			return typeErrs, nil
		}
		return append(typeErrs, withoutFields(v.validateTyped(s, gvk, typed), typeErrs)...), nil
	}
	return append(builtinApplyErrors(gvk, o.Map), v.validateTyped(s, gvk, typed)...), warnings
}

// validateTyped defaults, converts and validates a decoded object, and
// runs the default admission plugins' checks.
func (v *Validator) validateTyped(s *runtime.Scheme, gvk schema.GroupVersionKind, typed runtime.Object) field.ErrorList {
	s.Default(typed)
	// Unsafe: the result may share memory with typed, which is not used
	// again (ConvertToVersion deep-copies it first).
	internal, err := s.UnsafeConvertToVersion(typed, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil // a kind without internal form: its types were checked
	}
	m, err := meta.Accessor(internal)
	if err != nil {
		return nil
	}
	namespaced := setScope(gvk, m)
	m.SetUID(fakeUID) // as the server fills it before validating
	ctx := genericapirequest.WithNamespace(context.Background(), m.GetNamespace())
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: m.GetNamespace(), Name: m.GetName(),
	})
	prepare(gvk.GroupKind(), internal)
	var hand field.ErrorList
	if fn := validatorOf(gvk.GroupKind()); fn != nil {
		hand = fn(ctx, internal)
	}
	if len(hand) == 0 {
		// As the API server's ValidateCreate: once the kind's validation
		// (which may check the metadata with stricter name rules, or
		// not at all: PodDisruptionBudget's covers its spec) passes, the
		// generic ObjectMeta check runs.
		hand = apivalidation.ValidateObjectMetaAccessor(m, namespaced, path.ValidatePathSegmentName, field.NewPath("metadata"))
	}
	hand = append(hand, v.admit(internal)...)
	return declarative(ctx, s, gvk, internal, hand)
}

// declarative merges the declarative validation of the object's version
// with the hand-written errors, as the API server's registry does.
func declarative(ctx context.Context, s *runtime.Scheme, gvk schema.GroupVersionKind, internal runtime.Object, hand field.ErrorList) field.ErrorList {
	versioned, err := s.UnsafeConvertToVersion(internal, gvk.GroupVersion()) // internal is not used again
	if err != nil {
		return hand
	}
	var decl field.ErrorList
	for _, e := range s.Validate(ctx, nil, versioned) {
		if e.Type != field.ErrorTypeInternal { // an option the strategy would have set
			decl = append(decl, e)
		}
	}
	beta := utilfeature.DefaultFeatureGate.Enabled(apiserverfeatures.DeclarativeValidationBeta)
	enforced := apivalidate.FilterEnforcedDeclarativeErrors(ctx, decl, beta)
	hand = apivalidate.FilterCoveredHandwrittenErrors(ctx, hand.MarkFromImperative(), enforced, beta)
	return append(hand, enforced...)
}

// setScope gives a namespaced object the namespace the API server would
// take from the request when it has none, and clears the namespace of a
// cluster-scoped one (the server ignores it). It reports whether the kind
// is namespaced.
func setScope(gvk schema.GroupVersionKind, m metav1.Object) bool {
	k, known := kinds.Lookup(gvk.Group, gvk.Kind)
	namespaced := !known || k.Namespaced
	switch {
	case !namespaced:
		m.SetNamespace("")
	case m.GetNamespace() == "":
		m.SetNamespace("default")
	}
	return namespaced
}

// decode reads m into the API type of gvk as the API server reads a
// request body (JSON, case-sensitive); a value of the wrong type is
// reported at its field.
func decode(s *runtime.Scheme, gvk schema.GroupVersionKind, m map[string]any) (runtime.Object, field.ErrorList) {
	typed, errs, _ := decodeWarn(s, gvk, m)
	return typed, errs
}

// decodeWarn is decode, with warnings about the numbers the server cuts
// to their field's size.
func decodeWarn(s *runtime.Scheme, gvk schema.GroupVersionKind, m map[string]any) (runtime.Object, field.ErrorList, field.ErrorList) {
	typed, err := s.New(gvk)
	if err != nil {
		return nil, field.ErrorList{field.InternalError(nil, err)}, nil
	}
	// The values are checked against the type first (as a JSON decoder
	// would refuse them), then converted without a trip through JSON.
	errs, warnings := typeErrors(m, reflect.TypeOf(typed).Elem())
	if len(errs) > 0 {
		return nil, errs, warnings
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, typed); err != nil {
		return nil, field.ErrorList{field.Invalid(nil, nil, err.Error())}, warnings
	}
	return typed, nil, warnings
}

// decodeWithout decodes a copy of m whose values of the wrong type are
// replaced by placeholders of the right type (or left out); nil when it
// still does not decode.
func decodeWithout(s *runtime.Scheme, gvk schema.GroupVersionKind, m map[string]any) runtime.Object {
	typed, err := s.New(gvk)
	if err != nil {
		return nil
	}
	c := object.New(m).DeepCopy().Map
	fix := map[string]any{}
	typeCheck(c, reflect.TypeOf(typed).Elem(), &cursor{}, fix)
	for _, p := range slices.Sorted(maps.Keys(fix)) {
		setField(c, p, fix[p])
	}
	typed, errs := decode(s, gvk, c)
	if len(errs) > 0 {
		return nil
	}
	return typed
}

// setField sets (nil: deletes) the value at a field path ("a.b[0].c",
// "m[key]").
func setField(m map[string]any, p string, v any) {
	segs := splitField(p)
	if len(segs) == 0 {
		return
	}
	var cur any = m
	for _, seg := range segs[:len(segs)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return
			}
			cur = c[i]
		default:
			return
		}
	}
	last := segs[len(segs)-1]
	switch c := cur.(type) {
	case map[string]any:
		if v == nil {
			delete(c, last)
		} else {
			c[last] = v
		}
	case []any:
		if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(c) {
			c[i] = v
		}
	}
}

// splitField splits a field path into its names and subscripts; a
// subscript may hold dots ("metadata.labels[app.kubernetes.io/name]").
func splitField(p string) []string {
	var out []string
	for p != "" {
		switch {
		case p[0] == '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return append(out, p[1:])
			}
			out, p = append(out, p[1:end]), p[end+1:]
		case p[0] == '.':
			p = p[1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out, p = append(out, p[:end]), p[end:]
		}
	}
	return out
}

// withoutFields drops the errors about the fields of removed (or below
// them): their values were left out because of their type.
func withoutFields(errs, removed field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		skip := false
		for _, r := range removed {
			if e.Field == r.Field || strings.HasPrefix(e.Field, r.Field+".") || strings.HasPrefix(e.Field, r.Field+"[") {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, e)
		}
	}
	return out
}

// hideSecretValues leaves the values of a Secret's data out of its
// errors: messages end up in CI logs and pull-request comments.
func hideSecretValues(errs field.ErrorList) {
	for _, e := range errs {
		if strings.HasPrefix(e.Field, "data") || strings.HasPrefix(e.Field, "stringData") {
			e.BadValue = field.OmitValueType{}
		}
	}
}

// toDiags turns field errors into diagnostics of the resource, without
// repeats, sorted by field and message: Kubernetes' validation walks maps
// (labels, annotations, data) in Go's random order.
func toDiags(res *diag.Resource, errs field.ErrorList) []*diag.Diagnostic {
	errs = slices.Clone(errs)
	slices.SortStableFunc(errs, func(a, b *field.Error) int {
		return cmp.Or(strings.Compare(a.Field, b.Field), strings.Compare(a.ErrorBody(), b.ErrorBody()))
	})
	var out []*diag.Diagnostic
	seen := map[string]bool{}
	for _, e := range errs {
		d := &diag.Diagnostic{Resource: res, Field: e.Field, Msg: e.ErrorBody()}
		if key := d.Field + "\x00" + d.Msg; !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}
