package adopt

import (
	"context"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// Cluster is the API server adopt talks to.
type Cluster struct {
	host   string
	dyn    dynamic.Interface
	disc   discovery.DiscoveryInterface
	mapper meta.RESTMapper
}

// NewCluster connects to the API server of cfg. It sends nothing yet.
func NewCluster(cfg *rest.Config) (*Cluster, error) {
	// Listing every namespaced resource draws the API server's deprecation
	// warnings (v1 Endpoints...), which say nothing about the install.
	cfg = rest.CopyConfig(cfg)
	cfg.WarningHandler, cfg.WarningHandlerWithContext = rest.NoWarnings{}, nil
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	cached := memory.NewMemCacheClient(disc)
	return &Cluster{
		host:   cfg.Host,
		dyn:    dyn,
		disc:   cached,
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(cached),
	}, nil
}

// InstanceGVR is KUDO's Instance resource.
var InstanceGVR = schema.GroupVersionResource{Group: "kudo.dev", Version: "v1beta1", Resource: "instances"}

// resource is the client of the resource of apiVersion and kind, in ns
// when it is namespaced.
func (c *Cluster) resource(apiVersion, kind, ns string) (dynamic.ResourceInterface, bool, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false, err
	}
	m, err := c.mapper.RESTMapping(gv.WithKind(kind).GroupKind(), gv.Version)
	if meta.IsNoMatchError(err) {
		return nil, false, fmt.Errorf("the cluster does not serve %s %s", apiVersion, kind)
	}
	if err != nil { // discovery failed (a cluster that does not answer): not an answer
		return nil, false, fmt.Errorf("cannot find %s %s on %s: %w", apiVersion, kind, c.host, err)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.dyn.Resource(m.Resource).Namespace(ns), true, nil
	}
	return c.dyn.Resource(m.Resource), false, nil
}

// get returns the live object, nil when there is none.
func get(ctx context.Context, ri dynamic.ResourceInterface, name string) (*unstructured.Unstructured, error) {
	u, err := ri.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// instances returns the Instance name of ns and the Instances it owns
// (KudoOperator dependencies), transitively, parent first.
func (c *Cluster) instances(ctx context.Context, ns, name string) ([]*unstructured.Unstructured, error) {
	ri := c.dyn.Resource(InstanceGVR).Namespace(ns)
	root, err := get(ctx, ri, name)
	if err != nil {
		return nil, fmt.Errorf("cannot read Instance %s/%s on %s: %w", ns, name, c.host, err)
	}
	if root == nil {
		return nil, fmt.Errorf("there is no KUDO Instance %s/%s on %s (the FunctionConfig's metadata.name and namespace name it)", ns, name, c.host)
	}
	var all []*unstructured.Unstructured
	if err := c.list(ctx, ri, "", func(u *unstructured.Unstructured) { all = append(all, u) }); err != nil {
		return nil, fmt.Errorf("cannot list the Instances of namespace %s on %s: %w", ns, c.host, err)
	}
	out := []*unstructured.Unstructured{root}
	owned := map[string]bool{string(root.GetUID()): true}
	for grew := true; grew; {
		grew = false
		for _, it := range all {
			if owned[string(it.GetUID())] {
				continue
			}
			for _, ref := range it.GetOwnerReferences() {
				if ref.Kind == "Instance" && owned[string(ref.UID)] {
					owned[string(it.GetUID())] = true
					out = append(out, it)
					grew = true
					break
				}
			}
		}
	}
	slices.SortStableFunc(out[1:], func(a, b *unstructured.Unstructured) int { return strings.Compare(a.GetName(), b.GetName()) })
	return out, nil
}

// ownedBy lists the objects of namespace ns that one of the Instances of
// uids owns, over every namespaced resource the cluster lists. KUDO labels
// every object it applies heritage=kudo.
func (c *Cluster) ownedBy(ctx context.Context, ns string, uids map[string]string) ([]*unstructured.Unstructured, error) {
	lists, err := c.disc.ServerPreferredNamespacedResources()
	if err != nil && len(lists) == 0 {
		return nil, fmt.Errorf("cannot discover the resources of %s: %w", c.host, err)
	}
	var out []*unstructured.Unstructured
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !slices.Contains(r.Verbs, "list") || gv.Group == InstanceGVR.Group {
				continue
			}
			err := c.list(ctx, c.dyn.Resource(gv.WithResource(r.Name)).Namespace(ns), "heritage=kudo", func(it *unstructured.Unstructured) {
				if len(instanceRefs(it, uids)) > 0 {
					it.SetAPIVersion(gv.String())
					it.SetKind(r.Kind)
					out = append(out, it)
				}
			})
			if err != nil {
				return nil, fmt.Errorf("cannot list %s in %s on %s: %w", r.Name, ns, c.host, err)
			}
		}
	}
	return out, nil
}

// MaxListed bounds the objects one check reads from one resource of the
// namespace (KUDO's objects, or Instances): a namespace with more is
// refused, naming the resource.
const MaxListed = 20000

// list calls each for the objects of ri matching selector, a page of 500
// at a time, up to MaxListed.
func (c *Cluster) list(ctx context.Context, ri dynamic.ResourceInterface, selector string, each func(*unstructured.Unstructured)) error {
	opts := metav1.ListOptions{LabelSelector: selector, Limit: 500}
	n := 0
	for {
		page, err := ri.List(ctx, opts)
		if err != nil {
			return err
		}
		if n += len(page.Items); n > MaxListed {
			return fmt.Errorf("more than %d objects: adopt reads at most that many of one resource in a namespace", MaxListed)
		}
		for i := range page.Items {
			each(&page.Items[i])
		}
		if opts.Continue = page.GetContinue(); opts.Continue == "" {
			return nil
		}
	}
}

// instanceRefs are the indexes of the ownerReferences of u to one of the
// Instances of uids.
func instanceRefs(u *unstructured.Unstructured, uids map[string]string) []int {
	var out []int
	for i, ref := range u.GetOwnerReferences() {
		if ref.Kind == "Instance" && strings.HasPrefix(ref.APIVersion, InstanceGVR.Group+"/") && uids[string(ref.UID)] != "" {
			out = append(out, i)
		}
	}
	return out
}
