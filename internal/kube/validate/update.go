package validate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	apivalidate "k8s.io/apimachinery/pkg/api/validate"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	apiserverfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Update validates the change of one object from old (the configuration
// applied before, now live in the cluster) to new (the configuration
// applied over it) the way the API server validates the update that a
// GitOps tool sends: Argo CD's and Flux's server-side apply, and kubectl's
// client-side apply, all merge new into the live object. It returns what
// the server refuses (nil: the update is accepted).
//
// The live object is old as the API server stored it: defaulted, with
// what the server fills in on create (a Job's generated selector and pod
// labels, a Service's cluster IP, IP families and node ports, a
// CustomResourceDefinition's stored versions) and, for a
// PersistentVolumeClaim, bound to a volume as it is once in use. The
// update is the live object with what old set and new no longer sets
// removed and new's fields set over it (lists whole); what neither sets
// (the server's defaults and allocations) stays, as with both kinds of
// apply. It is then defaulted, prepared as the kind's registry prepares
// an update (the Service REST's allocation, the strategy's
// PrepareForUpdate where it changes the verdict) and validated by the
// kind's update validation (hand-written and declarative, as the server
// merges them).
//
// Old and new must be the same object: the same API group, kind,
// namespace and name. Objects of custom kinds, of kinds kudo-render has
// no rules of, and objects that do not decode (Object reports them) are
// not checked.
func (v *Validator) Update(old, new *object.Object) (found []*diag.Diagnostic) {
	res := &diag.Resource{APIVersion: new.APIVersion(), Kind: new.Kind(), Namespace: new.Namespace(), Name: new.Name()}
	defer func() {
		if r := recover(); r != nil {
			found = []*diag.Diagnostic{{Resource: res, Msg: fmt.Sprintf("the update cannot be validated (Kubernetes' validation failed on it: %v)", r)}}
		}
	}()
	u, ok := v.newUpdate(old, new)
	if !ok {
		return nil
	}
	errs := u.validate()
	if u.gvk.Group == "" && u.gvk.Kind == "Secret" {
		hideSecretValues(errs)
	}
	return toDiags(res, shortened(errs))
}

// shortened leaves out of errors the values too long to read in a
// message (a whole pod template) and what follows the first line (the
// difference of two specs): the review shows the change itself.
func shortened(errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, len(errs))
	for i, e := range errs {
		c := *e
		if _, omitted := c.BadValue.(field.OmitValueType); !omitted {
			if v, err := json.Marshal(c.BadValue); err != nil || len(v) > maxValueShown {
				c.BadValue = field.OmitValueType{}
			}
		}
		c.Detail, _, _ = strings.Cut(c.Detail, "\n")
		out[i] = &c
	}
	return out
}

// maxValueShown is the longest value, as JSON, an update's message
// quotes.
const maxValueShown = 120

// Update validates the update of one object from old to new (see
// Validator.Update) with opts.
func Update(old, new *object.Object, opts Options) []*diag.Diagnostic {
	return New(nil, opts).Update(old, new)
}

// update is one update being validated: the live object and the object
// the server validates, both in their internal form.
type update struct {
	s         *runtime.Scheme
	gvk       schema.GroupVersionKind
	live, obj runtime.Object
	ctx       context.Context
}

// newUpdate prepares the validation of old → new; false when it is not
// an update kudo-render validates.
func (v *Validator) newUpdate(old, new *object.Object) (*update, bool) {
	gvOld, errOld := schema.ParseGroupVersion(old.APIVersion())
	gvNew, errNew := schema.ParseGroupVersion(new.APIVersion())
	if errOld != nil || errNew != nil || gvOld.Group != gvNew.Group || old.Kind() != new.Kind() {
		return nil, false
	}
	gvk := gvNew.WithKind(new.Kind())
	s := schemeFor(gvk.Group)
	if s == nil || !s.Recognizes(gvk) || !s.Recognizes(gvOld.WithKind(old.Kind())) || v.custom[gvk] != nil {
		return nil, false
	}
	live, ok := stored(s, gvOld.WithKind(old.Kind()), old.Map)
	if !ok {
		return nil, false
	}
	liveMap, ok := versioned(s, live, gvNew)
	if !ok {
		return nil, false
	}
	obj, ok := internalOf(s, gvk, applied(liveMap, old.Map, new.Map))
	if !ok {
		return nil, false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, false
	}
	ctx := genericapirequest.WithNamespace(context.Background(), m.GetNamespace())
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "patch", APIGroup: gvk.Group, APIVersion: gvk.Version, Namespace: m.GetNamespace(), Name: m.GetName(),
	})
	return &update{s: s, gvk: gvk, live: live, obj: obj, ctx: ctx}, true
}

// validate runs what the API server runs on the update: the registry's
// preparation, the common metadata checks, the kind's update validation
// and the declarative one.
func (u *update) validate() field.ErrorList {
	beforeUpdate(u.obj, u.live)
	gk := u.gvk.GroupKind()
	if prep := updatePreparers[gk]; prep != nil {
		if errs := prep(u.obj, u.live); len(errs) > 0 {
			return errs // the REST layer refused the update before validation
		}
	}
	var errs field.ErrorList
	if fn := updateValidators[gk]; fn != nil {
		errs = fn(u.ctx, u.obj, u.live)
	} else {
		newMeta, _ := meta.Accessor(u.obj)
		oldMeta, _ := meta.Accessor(u.live)
		errs = apivalidation.ValidateObjectMetaAccessorUpdate(newMeta, oldMeta, field.NewPath("metadata"))
	}
	return u.declarative(errs)
}

// declarative merges the declarative update validation of the object's
// version with the hand-written errors, as the API server's registry does
// (see declarative for a create).
func (u *update) declarative(hand field.ErrorList) field.ErrorList {
	obj, err := u.s.ConvertToVersion(u.obj.DeepCopyObject(), u.gvk.GroupVersion())
	if err != nil {
		return hand
	}
	old, err := u.s.ConvertToVersion(u.live.DeepCopyObject(), u.gvk.GroupVersion())
	if err != nil {
		return hand
	}
	var decl field.ErrorList
	for _, e := range u.s.ValidateUpdate(u.ctx, nil, obj, old) {
		if e.Type != field.ErrorTypeInternal { // an option the strategy would have set
			decl = append(decl, e)
		}
	}
	beta := utilfeature.DefaultFeatureGate.Enabled(apiserverfeatures.DeclarativeValidationBeta)
	enforced := apivalidate.FilterEnforcedDeclarativeErrors(u.ctx, decl, beta)
	hand = apivalidate.FilterCoveredHandwrittenErrors(u.ctx, hand.MarkFromImperative(), enforced, beta)
	return append(hand, enforced...)
}

// createdAt is the creation time of every live object: any fixed time.
var createdAt = metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))

// stored is the object of configuration m as the API server stores it on
// create, in its internal form: defaulted, with its scope's namespace, a
// UID, a creation time, a resource version and generation 1, and what the
// kind's create fills in (createFillers).
func stored(s *runtime.Scheme, gvk schema.GroupVersionKind, m map[string]any) (runtime.Object, bool) {
	typed, errs := decode(s, gvk, m)
	if len(errs) > 0 {
		return nil, false
	}
	s.Default(typed)
	internal, err := s.ConvertToVersion(typed, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, false
	}
	om, err := meta.Accessor(internal)
	if err != nil {
		return nil, false
	}
	setScope(gvk, om)
	om.SetUID(fakeUID)
	om.SetCreationTimestamp(createdAt)
	om.SetResourceVersion("1")
	om.SetGeneration(1)
	if fill := createFillers[gvk.GroupKind()]; fill != nil {
		fill(internal)
	}
	return internal, true
}

// versioned is an internal object as the unstructured map of version gv,
// as the server shows it to a patch of that version.
func versioned(s *runtime.Scheme, internal runtime.Object, gv schema.GroupVersion) (map[string]any, bool) {
	out, err := s.ConvertToVersion(internal.DeepCopyObject(), gv)
	if err != nil {
		return nil, false
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(out)
	if err != nil {
		return nil, false
	}
	return m, true
}

// internalOf decodes the patched map m as the server decodes the result of
// a patch (defaulting it) into the internal form, with its scope's
// namespace.
func internalOf(s *runtime.Scheme, gvk schema.GroupVersionKind, m map[string]any) (runtime.Object, bool) {
	typed, err := s.New(gvk)
	if err != nil {
		return nil, false
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, typed); err != nil {
		return nil, false
	}
	s.Default(typed)
	internal, err := s.ConvertToVersion(typed, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, false
	}
	om, err := meta.Accessor(internal)
	if err != nil {
		return nil, false
	}
	setScope(gvk, om)
	return internal, true
}

// beforeUpdate does what every update goes through before the kind's
// validation (k8s.io/apiserver's rest.BeforeUpdate and its common
// checks): the generation and creation time are the live object's, a
// missing UID is the live one's.
func beforeUpdate(obj, live runtime.Object) {
	om, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	lm, err := meta.Accessor(live)
	if err != nil {
		return
	}
	om.SetGeneration(lm.GetGeneration())
	if om.GetUID() == "" {
		om.SetUID(lm.GetUID())
	}
	om.SetCreationTimestamp(lm.GetCreationTimestamp())
}
