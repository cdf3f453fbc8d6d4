package adopt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/redact"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Status is what the GitOps tool's first apply does to one object.
type Status string

// The statuses of Check.
const (
	Unchanged   Status = "unchanged"
	Changed     Status = "changed"
	Restarts    Status = "restarts pods"
	CannotApply Status = "cannot apply"
	NotLive     Status = "rendered, not live"
	HookNotLive Status = "hook, not live"
	NotRendered Status = "live, not rendered"
)

// The field managers of Options.
const (
	ArgoCDManager = "argocd-controller"
	FluxManager   = "kustomize-controller"
	// KUDOManager is the field manager of KUDO's controller: the name of
	// its binary, "manager", which client-go derives from the user agent.
	KUDOManager = "manager"
	// Manager is the field manager of adopt's own patches.
	Manager = "kudo-render"
)

// Options of Check and Apply.
type Options struct {
	// FieldManager is the GitOps tool's: ArgoCDManager or FluxManager.
	FieldManager string
	// KUDOManagers are the field managers whose fields Apply hands over;
	// nil: KUDOManager.
	KUDOManagers []string
	// Diff shapes the field-by-field changes (secrets are masked unless
	// Diff.ShowSecrets).
	Diff diff.Options
	// Used names the Secrets and ConfigMaps the render uses without
	// rendering them (the pipe artifacts of spec.pipes), with why: live,
	// they are listed as used, not as left over.
	Used map[string]string
}

func (o Options) kudoManagers() []string {
	if len(o.KUDOManagers) == 0 {
		return []string{KUDOManager}
	}
	return o.KUDOManagers
}

// Instance is one KUDO Instance of the install: the one named, then the
// ones it owns (KudoOperator dependencies).
type Instance struct {
	Name, UID string
	// OperatorVersion is the Instance's spec.operatorVersion.name.
	OperatorVersion string
	Finalizers      []string
	live            *unstructured.Unstructured
}

// Object is one object of the render or of the Instances.
type Object struct {
	Key        diff.Key
	APIVersion string
	Status     Status
	// Reason is why the object cannot be applied, or the API server's
	// answer to an unexpected error.
	Reason string `json:",omitempty"`
	// Fields are the changes of a changed object, as diff shows them.
	Fields []diff.Field `json:",omitempty"`
	// Owners are the Instances that own the live object.
	Owners []string `json:",omitempty"`
	// ChangedBy names the other clients that changed the live object
	// ("kubectl-edit at 2026-11-25T10:00:00Z").
	ChangedBy []string `json:",omitempty"`
	// Note says more about the status.
	Note string `json:",omitempty"`

	live     *unstructured.Unstructured
	rendered bool
	// applied are the fields the render sets: the GitOps tool's field
	// set in the result of the dry run.
	applied *fieldpath.Set
}

// Report is the result of Check.
type Report struct {
	Namespace string
	Instances []Instance
	Objects   []Object
	// Warnings are the API server's warnings and what Check noticed
	// about the cluster.
	Warnings []string          `json:",omitempty"`
	uids     map[string]string // Instance uid -> name
}

// Counts counts the objects by status.
func (r *Report) Counts() map[Status]int {
	c := map[Status]int{}
	for _, o := range r.Objects {
		c[o.Status]++
	}
	return c
}

// Adoptable reports whether the GitOps tool's first apply changes nothing
// but bookkeeping: every rendered object is live and unchanged (hooks
// aside).
func (r *Report) Adoptable() bool {
	for _, o := range r.Objects {
		switch o.Status {
		case Changed, Restarts, CannotApply, NotLive:
			return false
		}
	}
	return true
}

// Check compares the render of the Instance ns/name (items, as the
// engine rendered them for that instance) with the cluster. It changes
// nothing: the applies are dry runs.
func Check(ctx context.Context, c *Cluster, ns, name string, items []engine.Item, opts Options) (*Report, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = ArgoCDManager
	}
	insts, err := c.instances(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	rep := &Report{Namespace: ns, uids: map[string]string{}}
	for _, u := range insts {
		ov, _, _ := unstructured.NestedString(u.Object, "spec", "operatorVersion", "name")
		rep.Instances = append(rep.Instances, Instance{Name: u.GetName(), UID: string(u.GetUID()), OperatorVersion: ov, Finalizers: u.GetFinalizers(), live: u})
		rep.uids[string(u.GetUID())] = u.GetName()
	}
	seen := map[diff.Key]bool{}
	sec := secretsOf(items, opts.Diff)
	for i := range items {
		o, err := c.checkOne(ctx, &items[i], opts, rep)
		if err != nil {
			return nil, sec.Error(err)
		}
		o.Reason = sec.Mask(o.Reason)
		seen[o.Key] = true
		rep.Objects = append(rep.Objects, *o)
	}
	owned, err := c.ownedBy(ctx, ns, rep.uids)
	if err != nil {
		return nil, err
	}
	var extra []Object
	for _, u := range owned {
		k := diff.Key{Group: u.GroupVersionKind().Group, Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()}
		if !seen[k] {
			owners := rep.owners(u)
			o := Object{Key: k, APIVersion: u.GetAPIVersion(), Status: NotRendered, Owners: owners, live: u,
				Note: "owned by Instance " + strings.Join(owners, ", ") + ": adopt apply detaches it and leaves it alone; delete it by hand if it is not needed"}
			if why, ok := opts.Used[u.GetName()]; ok && k.Group == "" && (k.Kind == "Secret" || k.Kind == "ConfigMap") {
				o.Note = "used by the render (" + why + "): adopt apply detaches it from the Instance and keeps it"
			}
			extra = append(extra, o)
		}
	}
	slices.SortFunc(extra, func(a, b Object) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	rep.Objects = append(rep.Objects, extra...)
	return rep, nil
}

// secretsOf are the secret values the API server's answers may quote:
// those of the rendered Secrets, and those references copied out of them
// (opts.SecretValues); none with opts.ShowSecrets. The changes of the
// report are masked by diff as diff masks them.
func secretsOf(items []engine.Item, opts diff.Options) *redact.Set {
	s := redact.New()
	if opts.ShowSecrets {
		return s
	}
	for _, it := range items {
		if redact.IsSecret(it.Obj) {
			s.AddSecret(it.Obj.Map, true)
		}
	}
	for _, v := range opts.SecretValues {
		s.AddCopied(v)
	}
	return s
}

// owners are the names of the Instances that own u.
func (r *Report) owners(u *unstructured.Unstructured) []string {
	var out []string
	refs := u.GetOwnerReferences()
	for _, i := range instanceRefs(u, r.uids) {
		out = append(out, r.uids[string(refs[i].UID)])
	}
	return out
}

// checkOne dry-runs the apply of one rendered object.
func (c *Cluster) checkOne(ctx context.Context, it *engine.Item, opts Options, rep *Report) (*Object, error) {
	ro := it.Obj
	o := &Object{Key: diff.KeyOf(ro), APIVersion: ro.APIVersion(), rendered: true}
	ri, namespaced, err := c.resource(ro.APIVersion(), ro.Kind(), ro.Namespace())
	if err != nil {
		o.Status, o.Reason = CannotApply, err.Error()
		return o, nil
	}
	if !namespaced {
		o.Key.Namespace = ""
	}
	live, err := get(ctx, ri, ro.Name())
	if err != nil {
		return nil, fmt.Errorf("cannot read %s on %s: %w", o.Key, c.host, err)
	}
	if live == nil {
		o.Status = NotLive
		if it.Hook {
			o.Status = HookNotLive
		}
		return o, nil
	}
	o.live, o.Owners, o.ChangedBy = live, rep.owners(live), changedBy(live, opts)
	body, err := json.Marshal(ro.Map)
	if err != nil {
		return nil, err
	}
	dry, err := ri.Patch(ctx, ro.Name(), types.ApplyPatchType, body, metav1.PatchOptions{
		FieldManager: opts.FieldManager, Force: ptr(true), DryRun: []string{metav1.DryRunAll},
	})
	if err != nil {
		if !apierrors.IsInvalid(err) && !apierrors.IsBadRequest(err) && !apierrors.IsForbidden(err) && !apierrors.IsConflict(err) {
			return nil, fmt.Errorf("cannot dry-run the apply of %s on %s: %w", o.Key, c.host, err)
		}
		o.Status, o.Reason = CannotApply, reason(err)
		return o, nil
	}
	if o.applied, err = appliedFields(dry, opts.FieldManager); err != nil {
		return nil, fmt.Errorf("%s: the dry run's managedFields: %w", o.Key, err)
	}
	return o, compare(o, live, dry, opts)
}

// appliedFields is the field set of manager's apply in u's managedFields.
func appliedFields(u *unstructured.Unstructured, manager string) (*fieldpath.Set, error) {
	for _, mf := range u.GetManagedFields() {
		if mf.Manager == manager && mf.Operation == metav1.ManagedFieldsOperationApply && mf.Subresource == "" && mf.FieldsV1 != nil {
			return fieldSet(mf.FieldsV1)
		}
	}
	return &fieldpath.Set{}, nil
}

// fieldSet decodes a managedFields entry's FieldsV1.
func fieldSet(f *metav1.FieldsV1) (*fieldpath.Set, error) {
	set := &fieldpath.Set{}
	return set, set.FromJSON(bytes.NewReader(f.Raw))
}

// compare sets the status and fields of o from the live object and the
// result of the dry run.
func compare(o *Object, live, dry *unstructured.Unstructured, opts Options) error {
	a, b := normalize(live.Object), normalize(dry.Object)
	if reflect.DeepEqual(a, b) {
		o.Status = Unchanged
		return nil
	}
	r, err := diff.Compare([]engine.Item{{Obj: object.New(a)}}, []engine.Item{{Obj: object.New(b)}}, opts.Diff)
	if err != nil {
		return err
	}
	o.Status = Unchanged
	if len(r.Objects) == 1 && r.Objects[0].Status == diff.Changed {
		o.Status, o.Fields = Changed, r.Objects[0].Fields
	}
	if t := podTemplate(o.Key); t != nil && !reflect.DeepEqual(object.Get(a, t...), object.Get(b, t...)) {
		o.Status = Restarts
	}
	return nil
}

// podTemplate is the path of the pod template whose change rolls the
// pods of a kind out, nil for other kinds.
func podTemplate(k diff.Key) []string {
	switch {
	case k.Group == "apps" && (k.Kind == "Deployment" || k.Kind == "StatefulSet" || k.Kind == "DaemonSet" || k.Kind == "ReplicaSet"),
		k.Group == "" && k.Kind == "ReplicationController":
		return []string{"spec", "template"}
	}
	return nil
}

// bookkeepingPrefixes are the annotation and label keys kudo-render, the
// GitOps tools and KUDO's controller write for themselves: adding them
// changes nothing that runs, and neither would removing KUDO's
// (kudo.dev/last-applied-configuration and kudo.dev/last-plan-execution-uid,
// which Apply leaves unowned, so they stay).
var bookkeepingPrefixes = []string{
	"kudorender.dev/", "argocd.argoproj.io/", "kustomize.toolkit.fluxcd.io/",
	"kudo.dev/plan", "kudo.dev/phase", "kudo.dev/step",
	"kudo.dev/last-applied-configuration", "kudo.dev/last-plan-execution-uid",
}

// normalize is an object without what the server keeps for itself
// (status, managedFields, versions, uid, timestamps) and without
// bookkeeping annotations and labels.
func normalize(m map[string]any) map[string]any {
	out := runtime.DeepCopyJSON(m)
	delete(out, "status")
	md, _ := out["metadata"].(map[string]any)
	for _, k := range []string{"managedFields", "resourceVersion", "generation", "uid", "creationTimestamp", "selfLink"} {
		delete(md, k)
	}
	for _, field := range []string{"annotations", "labels"} {
		kv, _ := md[field].(map[string]any)
		for k := range kv {
			for _, p := range bookkeepingPrefixes {
				if strings.HasPrefix(k, p) {
					delete(kv, k)
				}
			}
		}
		if kv != nil && len(kv) == 0 {
			delete(md, field)
		}
	}
	return out
}

// changedBy names the clients other than KUDO, the GitOps tool and
// Kubernetes' own controllers that changed the live object.
func changedBy(u *unstructured.Unstructured, opts Options) []string {
	var out []string
	for _, mf := range u.GetManagedFields() {
		if mf.Subresource != "" || mf.Manager == opts.FieldManager || mf.Manager == Manager ||
			slices.Contains(opts.kudoManagers(), mf.Manager) || strings.HasPrefix(mf.Manager, "kube-") {
			continue
		}
		s := mf.Manager
		if mf.Time != nil {
			s += " at " + mf.Time.UTC().Format(time.RFC3339)
		}
		out = append(out, s)
	}
	return out
}

// reason is the API server's refusal, with its causes (field: message).
func reason(err error) string {
	var st apierrors.APIStatus
	if !errors.As(err, &st) || st.Status().Details == nil || len(st.Status().Details.Causes) == 0 {
		return err.Error()
	}
	var parts []string
	for _, c := range st.Status().Details.Causes {
		msg := c.Message
		// "Invalid value: <the whole field, Go-printed>: field is immutable"
		if i := strings.LastIndex(msg, ": "); len(msg) > 160 && i >= 0 {
			msg = msg[i+2:]
		}
		parts = append(parts, strings.TrimSpace(c.Field+": "+msg))
	}
	return strings.Join(parts, "; ")
}

func ptr[T any](v T) *T { return &v }
