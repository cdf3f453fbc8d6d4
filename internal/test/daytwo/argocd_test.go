package daytwo

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/rest"
	"k8s.io/kubectl/pkg/cmd/apply"
	"k8s.io/kubectl/pkg/util"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// argoManager is Argo CD's field manager for server-side apply.
const argoManager = "argocd-controller"

// argoCD syncs an application the way Argo CD's application controller
// does (gitops-engine's sync context, argo-cd/gitops-engine/pkg/sync):
// objects in the order of their sync waves, hooks run in their wave and
// deleted by their delete policy, every object applied by applyObject's
// rules, and what the previous sync applied but this render lacks pruned.
// Hooks succeed at once: no pod runs.
type argoCD struct {
	srv *kubetest.Server
	// ssa is the Application's ServerSideApply=true sync option.
	ssa bool
	// applied are the objects (not hooks) of the last sync, for pruning.
	applied map[string]*unstructured.Unstructured
}

// outcome is what a sync did to one object.
type outcome struct {
	key    string // kind namespace/name
	action string // created, configured, unchanged, recreated, hook, pruned, refused
	err    error
}

// sync applies the objects of a render; it stops at the first wave with a
// refused object, as Argo CD fails the sync operation there.
func (a *argoCD) sync(ctx context.Context, objs []*unstructured.Unstructured) ([]outcome, error) {
	var out []outcome
	current := map[string]*unstructured.Unstructured{}
	for _, wave := range byWave(objs) {
		var failed error
		for _, o := range wave {
			res := a.syncOne(ctx, o)
			out = append(out, res)
			if !isHook(o) {
				current[res.key] = o
			}
			if res.err != nil && failed == nil {
				failed = fmt.Errorf("%s: %w", res.key, res.err)
			}
		}
		if failed != nil {
			return out, failed // later waves are not applied; nothing is pruned
		}
	}
	for key, o := range a.applied {
		if current[key] == nil {
			out = append(out, outcome{key: key, action: "pruned", err: a.prune(ctx, o)})
		}
	}
	a.applied = current
	return out, nil
}

// byWave groups objects by sync wave, in order; within a wave, kinds in
// gitops-engine's kind order (namespaces and definitions first, workloads
// later), hooks after the resources.
func byWave(objs []*unstructured.Unstructured) [][]*unstructured.Unstructured {
	sorted := slices.Clone(objs)
	slices.SortStableFunc(sorted, func(x, y *unstructured.Unstructured) int {
		if d := wave(x) - wave(y); d != 0 {
			return d
		}
		if hx, hy := isHook(x), isHook(y); hx != hy {
			if hx {
				return 1
			}
			return -1
		}
		return kindRank(x.GetKind()) - kindRank(y.GetKind())
	})
	var out [][]*unstructured.Unstructured
	for i, o := range sorted {
		if i == 0 || wave(o) != wave(sorted[i-1]) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], o)
	}
	return out
}

func wave(o *unstructured.Unstructured) int {
	w, _ := strconv.Atoi(o.GetAnnotations()[argocd.AnnSyncWave])
	return w
}

func isHook(o *unstructured.Unstructured) bool { return o.GetAnnotations()[argocd.AnnHook] != "" }

// kindOrder is gitops-engine's order of kinds within a wave (kube.KindOrder).
var kindOrder = []string{"Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy", "PodDisruptionBudget",
	"ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass", "PersistentVolume", "PersistentVolumeClaim",
	"CustomResourceDefinition", "ClusterRole", "ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList",
	"RoleBinding", "RoleBindingList", "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
	"HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService"}

func kindRank(kind string) int {
	if i := slices.Index(kindOrder, kind); i >= 0 {
		return i
	}
	return len(kindOrder)
}

// syncOne applies one object as gitops-engine's applyObject does, or runs
// a hook.
func (a *argoCD) syncOne(ctx context.Context, o *unstructured.Unstructured) outcome {
	res := outcome{key: keyOf(o)}
	c, err := a.client(ctx, o)
	if err != nil {
		res.err = err
		return res
	}
	live, err := c.get(ctx, o)
	if err != nil && !apierrors.IsNotFound(err) {
		res.err = err
		return res
	}
	if isHook(o) {
		res.action, res.err = "hook", a.runHook(ctx, c, o, live)
		return res
	}
	opts := syncOptions(o, live)
	switch {
	case opts["Replace"] == "true":
		res.action, res.err = c.replace(ctx, o, live, opts["Force"] == "true")
	case opts["ServerSideApply"] != "false" && (a.ssa || opts["ServerSideApply"] == "true"):
		res.action, res.err = c.serverSideApply(ctx, o, live)
	default:
		res.action, res.err = c.clientSideApply(ctx, o, live, opts["Force"] == "true")
	}
	if res.err != nil {
		res.action = "refused"
	}
	return res
}

// syncOptions are the object's sync options, the live object's added
// (gitops-engine reads Replace and Force on both).
func syncOptions(o, live *unstructured.Unstructured) map[string]string {
	opts := map[string]string{}
	for _, u := range []*unstructured.Unstructured{live, o} {
		if u == nil {
			continue
		}
		for _, opt := range strings.Split(u.GetAnnotations()[argocd.AnnSyncOptions], ",") {
			if k, v, ok := strings.Cut(strings.TrimSpace(opt), "="); ok && (u == o || k == "Replace" || k == "Force") {
				opts[k] = v
			}
		}
	}
	return opts
}

// runHook runs a Sync hook: created (an old one deleted first), then,
// having succeeded, deleted by its HookSucceeded policy.
func (a *argoCD) runHook(ctx context.Context, c *resourceClient, o, live *unstructured.Unstructured) error {
	if live != nil {
		if err := c.deleteAndWait(ctx, o, metav1.DeletePropagationBackground); err != nil {
			return err
		}
	}
	if _, err := c.helper.Create(o.GetNamespace(), true, o.DeepCopy()); err != nil {
		return err
	}
	if strings.Contains(o.GetAnnotations()[argocd.AnnHookDeletePolicy], "HookSucceeded") {
		return c.deleteAndWait(ctx, o, metav1.DeletePropagationBackground)
	}
	return nil
}

// prune deletes an object the render no longer holds, as Argo CD prunes
// (foreground propagation by default).
func (a *argoCD) prune(ctx context.Context, o *unstructured.Unstructured) error {
	c, err := a.client(ctx, o)
	if err != nil {
		return err
	}
	return c.deleteAndWait(ctx, o, metav1.DeletePropagationForeground)
}

// resourceClient reaches one object's resource as kubectl does.
type resourceClient struct {
	mapping *meta.RESTMapping
	helper  *resource.Helper
}

func (a *argoCD) client(ctx context.Context, o *unstructured.Unstructured) (*resourceClient, error) {
	if _, _, err := a.srv.ResourceOf(ctx, o); err != nil { // creates the namespace
		return nil, err
	}
	m, err := a.srv.Mapping(ctx, o.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	cfg := rest.CopyConfig(a.srv.Config)
	cfg.ContentConfig = resource.UnstructuredPlusDefaultContentConfig()
	gv := m.GroupVersionKind.GroupVersion()
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	rc, err := rest.RESTClientFor(cfg)
	if err != nil {
		return nil, err
	}
	return &resourceClient{mapping: m, helper: resource.NewHelper(rc, m)}, nil
}

func (c *resourceClient) get(_ context.Context, o *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	obj, err := c.helper.Get(o.GetNamespace(), o.GetName())
	if err != nil {
		return nil, err
	}
	return obj.(*unstructured.Unstructured), nil
}

// serverSideApply is kubectl apply --server-side --force-conflicts with
// Argo CD's field manager.
func (c *resourceClient) serverSideApply(_ context.Context, o, live *unstructured.Unstructured) (string, error) {
	body, err := o.MarshalJSON()
	if err != nil {
		return "", err
	}
	force := true
	after, err := c.helper.WithFieldManager(argoManager).Patch(o.GetNamespace(), o.GetName(), types.ApplyPatchType, body, &metav1.PatchOptions{Force: &force})
	return changed(live, after, err)
}

// clientSideApply is kubectl apply (with --force when force): the object
// is created with its last-applied configuration, or patched by kubectl's
// three-way merge, and deleted and created when the patch is refused and
// force is set.
func (c *resourceClient) clientSideApply(_ context.Context, o, live *unstructured.Unstructured, force bool) (string, error) {
	obj := o.DeepCopy()
	if live == nil {
		if err := util.CreateApplyAnnotation(obj, unstructured.UnstructuredJSONScheme); err != nil {
			return "", err
		}
		_, err := c.helper.WithFieldManager(argoManager).Create(o.GetNamespace(), true, obj)
		return "created", err
	}
	modified, err := util.GetModifiedConfiguration(obj, true, unstructured.UnstructuredJSONScheme)
	if err != nil {
		return "", err
	}
	p := &apply.Patcher{
		Mapping: c.mapping, Helper: c.helper.WithFieldManager(argoManager), Overwrite: true, BackOff: clockwork.NewRealClock(),
		Force: force, CascadingStrategy: metav1.DeletePropagationBackground, Timeout: 30 * time.Second, GracePeriod: -1,
	}
	_, after, err := p.Patch(live, modified, "render", o.GetNamespace(), o.GetName(), io.Discard)
	if err != nil {
		return "", err
	}
	u, _ := after.(*unstructured.Unstructured)
	if u != nil && u.GetUID() != live.GetUID() {
		return "recreated", nil
	}
	return changed(live, after, nil)
}

// replace is kubectl replace, or with force kubectl replace --force
// (deleted, then created).
func (c *resourceClient) replace(ctx context.Context, o, live *unstructured.Unstructured, force bool) (string, error) {
	if live == nil {
		_, err := c.helper.Create(o.GetNamespace(), true, o.DeepCopy())
		return "created", err
	}
	if force {
		if err := c.deleteAndWait(ctx, o, metav1.DeletePropagationBackground); err != nil {
			return "", err
		}
		_, err := c.helper.Create(o.GetNamespace(), true, o.DeepCopy())
		return "recreated", err
	}
	after, err := c.helper.Replace(o.GetNamespace(), o.GetName(), true, o.DeepCopy())
	return changed(live, after, err)
}

// deleteAndWait deletes the object and waits until it is gone.
func (c *resourceClient) deleteAndWait(ctx context.Context, o *unstructured.Unstructured, policy metav1.DeletionPropagation) error {
	if _, err := c.helper.DeleteWithOptions(o.GetNamespace(), o.GetName(), &metav1.DeleteOptions{PropagationPolicy: &policy}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		_, err := c.helper.Get(o.GetNamespace(), o.GetName())
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

// changed names what an apply did from live's and the result's resource
// versions.
func changed(live *unstructured.Unstructured, after any, err error) (string, error) {
	switch {
	case err != nil:
		return "", err
	case live == nil:
		return "created", nil
	}
	u, ok := after.(*unstructured.Unstructured)
	if ok && u.GetResourceVersion() != live.GetResourceVersion() {
		return "configured", nil
	}
	return "unchanged", nil
}

// keyOf names an object: "Kind namespace/name".
func keyOf(o *unstructured.Unstructured) string {
	return o.GetKind() + " " + o.GetNamespace() + "/" + o.GetName()
}
