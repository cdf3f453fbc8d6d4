package adopt

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/csaupgrade"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
)

// CleanupFinalizer is the finalizer KUDO's controller put on Instances:
// with it, deleting an Instance waits for KUDO's cleanup plan.
const CleanupFinalizer = "kudo.dev.instance.cleanup"

// ApplyOptions of Apply.
type ApplyOptions struct {
	Options
	// DryRun computes the patches and changes nothing.
	DryRun bool
	// AllowChanges adopts an install whose check is not clean: the GitOps
	// tool's first sync then changes what Check listed.
	AllowChanges bool
	// ControllerNamespace is where KUDO's controller runs; "":
	// kudo-system.
	ControllerNamespace string
}

// Patch is one change Apply makes (or, in a dry run, would make).
type Patch struct {
	Key diff.Key
	// What says what the patch does.
	What string
	// Type is the patch type (a JSON patch) and Data its body.
	Type types.PatchType `json:"-"`
	Data json.RawMessage

	ri   dynamic.ResourceInterface
	name string
}

// Apply detaches the objects of a checked install from its Instances and
// hands their fields to the GitOps tool. It returns the patches it made
// (all of them in a dry run). On error, the patches made so far are
// returned: running Apply again finishes the job.
func Apply(ctx context.Context, c *Cluster, rep *Report, opts ApplyOptions) ([]Patch, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = ArgoCDManager
	}
	if err := c.preflight(ctx, rep, opts); err != nil {
		return nil, err
	}
	var done []Patch
	for i := range rep.Objects {
		ps, err := c.adoptObject(ctx, rep, &rep.Objects[i], opts)
		done = append(done, ps...)
		if err != nil {
			return done, err
		}
	}
	for i := len(rep.Instances) - 1; i >= 0; i-- { // dependencies first
		p, err := c.dropFinalizer(ctx, rep, &rep.Instances[i], opts.DryRun)
		if p != nil {
			done = append(done, *p)
		}
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// preflight refuses, before any change, what would make Apply fail half
// way or adopt an install the GitOps tool would then change.
func (c *Cluster) preflight(ctx context.Context, rep *Report, opts ApplyOptions) error {
	if !rep.Adoptable() && !opts.AllowChanges {
		var bad []string
		for _, o := range rep.Objects {
			switch o.Status {
			case Changed, Restarts, CannotApply, NotLive:
				bad = append(bad, fmt.Sprintf("%s: %s", o.Key, o.Status))
			}
		}
		return fmt.Errorf("nothing was changed: the GitOps tool's first sync would change %d objects (%s); fix the render or the parameters until `kudo-render adopt check` exits 0, or pass --allow-changes to adopt anyway", len(bad), strings.Join(bad, ", "))
	}
	if opts.DryRun {
		return nil
	}
	if err := c.controllerStopped(ctx, opts.ControllerNamespace); err != nil {
		return err
	}
	return c.noKUDOWebhook(ctx)
}

// controllerStopped refuses while KUDO's controller runs: it would put
// back what Apply removes.
func (c *Cluster) controllerStopped(ctx context.Context, ns string) error {
	if ns == "" {
		ns = "kudo-system"
	}
	ri := c.dyn.Resource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}).Namespace(ns)
	sts, err := get(ctx, ri, "kudo-controller-manager")
	if err != nil {
		return fmt.Errorf("cannot read KUDO's controller (StatefulSet %s/kudo-controller-manager) on %s: %w", ns, c.host, err)
	}
	if sts == nil {
		return nil
	}
	replicas, found, _ := unstructured.NestedInt64(sts.Object, "spec", "replicas")
	ready, _, _ := unstructured.NestedInt64(sts.Object, "status", "replicas")
	if !found || replicas > 0 || ready > 0 {
		return fmt.Errorf("nothing was changed: KUDO's controller still runs (StatefulSet %s/kudo-controller-manager) and would undo the adoption; stop it first: kubectl -n %s scale statefulset kudo-controller-manager --replicas=0", ns, ns)
	}
	return nil
}

// noKUDOWebhook refuses while an admission webhook intercepts kudo.dev
// objects: with KUDO's controller stopped it has no endpoint and fails
// closed, so the Instance patches would fail half way.
func (c *Cluster) noKUDOWebhook(ctx context.Context) error {
	for _, res := range []string{"mutatingwebhookconfigurations", "validatingwebhookconfigurations"} {
		list, err := c.dyn.Resource(schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: res}).List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("cannot list %s on %s: %w", res, c.host, err)
		}
		for _, wc := range list.Items {
			if interceptsKUDO(wc.Object) {
				return fmt.Errorf("nothing was changed: the admission webhook %s %q intercepts kudo.dev objects and fails while KUDO's controller is stopped; remove it first: kubectl delete %s %s", strings.TrimSuffix(res, "s"), wc.GetName(), strings.TrimSuffix(res, "s"), wc.GetName())
			}
		}
	}
	return nil
}

// interceptsKUDO reports whether a webhook configuration has a rule for
// the kudo.dev group (or all groups).
func interceptsKUDO(wc map[string]any) bool {
	hooks, _, _ := unstructured.NestedSlice(wc, "webhooks")
	for _, h := range hooks {
		rules, _, _ := unstructured.NestedSlice(h.(map[string]any), "rules")
		for _, r := range rules {
			groups, _, _ := unstructured.NestedStringSlice(r.(map[string]any), "apiGroups")
			if slices.Contains(groups, InstanceGVR.Group) || slices.Contains(groups, "*") {
				return true
			}
		}
	}
	return false
}

// adoptObject detaches one live object and, when the render has it,
// hands its fields to the GitOps tool.
func (c *Cluster) adoptObject(ctx context.Context, rep *Report, o *Object, opts ApplyOptions) ([]Patch, error) {
	if o.live == nil {
		return nil, nil
	}
	ri, _, err := c.resource(o.live.GetAPIVersion(), o.live.GetKind(), o.live.GetNamespace())
	if err != nil {
		return nil, err
	}
	var out []Patch
	cur := o.live
	if p := ownerPatch(rep, o, cur); p != nil {
		p.ri, p.name = ri, cur.GetName()
		out = append(out, *p)
		if !opts.DryRun {
			if cur, err = p.apply(ctx); err != nil {
				return out[:len(out)-1], err
			}
		}
	}
	if !o.rendered || o.applied == nil { // not rendered, or the API server refused its apply
		return out, nil
	}
	data, err := handOver(cur, opts.kudoManagers(), opts.FieldManager, o.applied)
	if err != nil {
		return out, fmt.Errorf("cannot hand the fields of %s to %s: %w", o.Key, opts.FieldManager, err)
	}
	if data == nil {
		return out, nil
	}
	p := Patch{Key: o.Key, What: fmt.Sprintf("the fields of %s that the render sets handed to %s", strings.Join(opts.kudoManagers(), ", "), opts.FieldManager),
		Type: types.JSONPatchType, Data: data, ri: ri, name: cur.GetName()}
	out = append(out, p)
	if !opts.DryRun {
		if _, err := p.apply(ctx); err != nil {
			return out[:len(out)-1], err
		}
	}
	return out, nil
}

// handOver is the JSON patch that gives the GitOps tool's manager the
// fields KUDO's managers own that the render sets (applied), as an apply
// of its own (client-go's csaupgrade, limited to those fields), and drops
// KUDO's entries; nil when KUDO's managers own nothing. The fields KUDO
// set that the render does not (the API server's defaults, KUDO's
// bookkeeping annotations) are then owned by nobody: the GitOps tool's
// applies leave them alone, where owning them would remove them (and a
// removed default, put back by the server, still bumps a Deployment's
// generation).
func handOver(u *unstructured.Unstructured, kudo []string, manager string, applied *fieldpath.Set) ([]byte, error) {
	var had *fieldpath.Set
	found := false
	for _, mf := range u.GetManagedFields() {
		switch {
		case mf.Subresource != "":
		case mf.Operation == metav1.ManagedFieldsOperationUpdate && slices.Contains(kudo, mf.Manager):
			found = true
		case mf.Operation == metav1.ManagedFieldsOperationApply && mf.Manager == manager && mf.FieldsV1 != nil:
			var err error
			if had, err = fieldSet(mf.FieldsV1); err != nil {
				return nil, err
			}
		}
	}
	if !found {
		return nil, nil
	}
	cp := u.DeepCopy()
	if err := csaupgrade.UpgradeManagedFields(cp, sets.New(kudo...), manager); err != nil {
		return nil, err
	}
	keep := applied
	if had != nil {
		keep = keep.Union(had)
	}
	mfs := cp.GetManagedFields()
	for i, mf := range mfs {
		if mf.Manager != manager || mf.Operation != metav1.ManagedFieldsOperationApply || mf.Subresource != "" || mf.FieldsV1 == nil {
			continue
		}
		set, err := fieldSet(mf.FieldsV1)
		if err != nil {
			return nil, err
		}
		raw, err := set.Intersection(keep).ToJSON()
		if err != nil {
			return nil, err
		}
		mfs[i].FieldsV1 = &metav1.FieldsV1{Raw: raw}
	}
	return json.Marshal([]map[string]any{
		{"op": "replace", "path": "/metadata/managedFields", "value": mfs},
		// as csaupgrade: a conflict (409) if the object changed since it was read
		{"op": "replace", "path": "/metadata/resourceVersion", "value": u.GetResourceVersion()},
	})
}

// ownerPatch removes the ownerReferences of u to the Instances, each
// after a test of its uid; nil when there are none.
func ownerPatch(rep *Report, o *Object, u *unstructured.Unstructured) *Patch {
	idx := instanceRefs(u, rep.uids)
	if len(idx) == 0 {
		return nil
	}
	refs := u.GetOwnerReferences()
	var ops []map[string]any
	var names []string
	for _, i := range slices.Backward(idx) {
		path := fmt.Sprintf("/metadata/ownerReferences/%d", i)
		ops = append(ops,
			map[string]any{"op": "test", "path": path + "/uid", "value": string(refs[i].UID)},
			map[string]any{"op": "remove", "path": path})
		names = append(names, refs[i].Name)
	}
	slices.Sort(names)
	data, _ := json.Marshal(ops)
	return &Patch{Key: o.Key, What: "ownerReference to Instance " + strings.Join(names, ", ") + " removed", Type: types.JSONPatchType, Data: data}
}

// dropFinalizer removes KUDO's cleanup finalizer from an Instance.
func (c *Cluster) dropFinalizer(ctx context.Context, rep *Report, in *Instance, dryRun bool) (*Patch, error) {
	i := slices.Index(in.live.GetFinalizers(), CleanupFinalizer)
	if i < 0 {
		return nil, nil
	}
	path := fmt.Sprintf("/metadata/finalizers/%d", i)
	data, _ := json.Marshal([]map[string]any{
		{"op": "test", "path": "/metadata/uid", "value": in.UID},
		{"op": "test", "path": path, "value": CleanupFinalizer},
		{"op": "remove", "path": path},
	})
	p := &Patch{Key: diff.Key{Group: InstanceGVR.Group, Kind: "Instance", Namespace: rep.Namespace, Name: in.Name},
		What: "finalizer " + CleanupFinalizer + " removed", Type: types.JSONPatchType, Data: data,
		ri: c.dyn.Resource(InstanceGVR).Namespace(rep.Namespace), name: in.Name}
	if dryRun {
		return p, nil
	}
	_, err := p.apply(ctx)
	return p, err
}

// apply sends the patch.
func (p *Patch) apply(ctx context.Context) (*unstructured.Unstructured, error) {
	u, err := p.ri.Patch(ctx, p.name, p.Type, p.Data, metav1.PatchOptions{FieldManager: Manager})
	if err != nil {
		return nil, fmt.Errorf("cannot patch %s (%s): %w", p.Key, p.What, err)
	}
	return u, nil
}
