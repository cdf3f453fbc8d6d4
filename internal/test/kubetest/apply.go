package kubetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// FieldManager is the field manager of every apply.
const FieldManager = "kudo-render"

// crdKind is the group-kind of CustomResourceDefinitions.
var crdKind = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}

// Result is what the server said about one object.
type Result struct {
	APIVersion, Kind, Namespace, Name string
	// Err is the server's refusal, or why the object could not be sent
	// (no apiVersion, a version the server does not serve, ...); nil when
	// the server accepted the object.
	Err error
	// Skipped, when not empty, says why the object was not sent: its kind
	// is neither built into Kubernetes nor defined by a
	// CustomResourceDefinition among the objects (a ServiceMonitor without
	// the Prometheus operator's CRDs).
	Skipped string
	// Warnings are the server's warnings about the object (a deprecated
	// API version, ...).
	Warnings []string
}

// Accepted reports whether the server accepted the object.
func (r Result) Accepted() bool { return r.Err == nil && r.Skipped == "" }

// ID names the object: "apps/v1 StatefulSet ns1/inst-zookeeper".
func (r Result) ID() string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + name
	}
	return r.APIVersion + " " + r.Kind + " " + name
}

func (r Result) String() string {
	switch {
	case r.Skipped != "":
		return r.ID() + ": skipped: " + r.Skipped
	case r.Err != nil:
		return r.ID() + ": refused: " + r.Err.Error()
	}
	return r.ID() + ": accepted"
}

// RequireAccepted fails the test for every object the server refused, and
// logs the skipped objects and the server's warnings.
func RequireAccepted(tb testing.TB, results []Result) {
	tb.Helper()
	for _, r := range results {
		switch {
		case r.Skipped != "":
			tb.Logf("not applied: %s", r)
		case r.Err != nil:
			tb.Errorf("%s", r)
		}
		for _, w := range r.Warnings {
			tb.Logf("%s: warning: %s", r.ID(), w)
		}
	}
}

// ApplyYAML applies the objects of a YAML stream (documents separated by
// ---, empty documents ignored), as Apply does. The error is for a stream
// that does not parse.
func (s *Server) ApplyYAML(ctx context.Context, stream []byte) ([]Result, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var items []*item
	for i := 0; ; i++ {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		body, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if t := bytes.TrimSpace(body); len(t) == 0 || string(t) == "null" {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(body, &obj); err != nil {
			return nil, fmt.Errorf("document %d is not an object: %w", i, err)
		}
		// The document as written is the body (an apply patch is YAML), as
		// kubectl sends it: the server sees what the file says, duplicate
		// keys included.
		items = append(items, newItem(obj, doc))
	}
	return s.apply(ctx, items)
}

// Apply applies objects the way a GitOps tool does, without changing the
// cluster:
//
//   - every namespace a namespaced object names is created for real, with
//     its default ServiceAccount (no controller-manager runs to add it);
//   - CustomResourceDefinitions are applied for real first, and waited for
//     until Established;
//   - every other object is applied by server-side apply with dryRun=All,
//     fieldManager kudo-render, force and fieldValidation=Strict.
//
// Whether a kind is namespaced comes from the server's discovery.
// Namespaced objects without a namespace go to "default". The results
// are in the order of objs. The error is for what is not one object's
// fault: a namespace that cannot be created, discovery failing.
func (s *Server) Apply(ctx context.Context, objs []map[string]any) ([]Result, error) {
	items := make([]*item, len(objs))
	for i, obj := range objs {
		// Through JSON, as the server will read it: numbers become
		// float64, which the unstructured helpers expect.
		var m map[string]any
		body, err := json.Marshal(obj)
		if err == nil {
			err = json.Unmarshal(body, &m)
		}
		if err != nil {
			items[i] = newItem(obj, nil)
			items[i].res.Err = err
			continue
		}
		items[i] = newItem(m, body)
	}
	return s.apply(ctx, items)
}

// item is one object on its way to the server.
type item struct {
	res     Result
	gvk     schema.GroupVersionKind
	body    []byte
	obj     map[string]any
	mapping *meta.RESTMapping
}

func newItem(obj map[string]any, body []byte) *item {
	u := unstructured.Unstructured{Object: obj}
	it := &item{obj: obj, body: body, gvk: u.GroupVersionKind()}
	it.res = Result{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()}
	switch {
	case it.res.APIVersion == "" || it.res.Kind == "":
		it.res.Err = errors.New("no apiVersion or kind")
	case it.res.Name == "":
		it.res.Err = errors.New("no metadata.name")
	}
	return it
}

func (s *Server) apply(ctx context.Context, items []*item) ([]Result, error) {
	// The group-kinds the objects' CRDs define.
	defined := map[schema.GroupKind]bool{}
	var crds []*item
	for _, it := range items {
		if it.res.Err == nil && it.gvk.GroupKind() == crdKind {
			crds = append(crds, it)
			gk, _ := crdDefines(it.obj)
			defined[gk] = true
		}
	}

	if err := s.prepare(ctx, items, crds, defined); err != nil {
		return nil, err
	}

	for _, it := range items {
		if it.res.Err != nil || it.res.Skipped != "" || it.gvk.GroupKind() == crdKind {
			continue
		}
		it.res.Warnings, it.res.Err = s.patch(ctx, it, true)
	}
	out := make([]Result, len(items))
	for i, it := range items {
		out[i] = it.res
	}
	return out, nil
}

// prepare applies the CRDs for real, maps every object to its resource
// and creates the namespaces, one Apply at a time.
func (s *Server) prepare(ctx context.Context, items, crds []*item, defined map[schema.GroupKind]bool) error {
	s.setup.Lock()
	defer s.setup.Unlock()
	established := map[schema.GroupVersionKind]bool{} // served by the CRDs applied
	for _, it := range crds {
		if it.res.Err = s.mapItem(ctx, it, false); it.res.Err != nil {
			continue
		}
		if it.res.Warnings, it.res.Err = s.patch(ctx, it, false); it.res.Err == nil {
			it.res.Err = s.waitEstablished(ctx, it.res.Name)
		}
		if it.res.Err == nil {
			gk, versions := crdDefines(it.obj)
			for _, v := range versions {
				established[gk.WithVersion(v)] = true
			}
		}
	}
	if len(crds) > 0 {
		s.mapper.ResetWithContext(ctx)
	}

	namespaces := map[string]bool{}
	for _, it := range items {
		if it.res.Err != nil || it.gvk.GroupKind() == crdKind {
			continue
		}
		gk := it.gvk.GroupKind()
		if !s.builtin[gk] && !defined[gk] {
			it.res.Skipped = fmt.Sprintf("no CustomResourceDefinition among the objects defines %s, and Kubernetes %s does not serve it", kindName(gk), s.Version)
			continue
		}
		if it.res.Err = s.mapItem(ctx, it, established[it.gvk]); it.res.Err != nil {
			continue
		}
		if it.mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			if it.res.Namespace == "" {
				it.res.Namespace = metav1.NamespaceDefault
			}
			namespaces[it.res.Namespace] = true
		}
	}
	for _, ns := range slices.Sorted(maps.Keys(namespaces)) {
		if err := s.ensureNamespace(ctx, ns); err != nil {
			return fmt.Errorf("creating namespace %s: %w", ns, err)
		}
	}
	return nil
}

// crdDefines returns the group-kind a CustomResourceDefinition defines
// and the versions it serves.
func crdDefines(crd map[string]any) (gk schema.GroupKind, served []string) {
	gk.Group, _, _ = unstructured.NestedString(crd, "spec", "group")
	gk.Kind, _, _ = unstructured.NestedString(crd, "spec", "names", "kind")
	versions, _ := object(crd, "spec")["versions"].([]any)
	for _, v := range versions {
		v, _ := v.(map[string]any)
		if name, _ := v["name"].(string); name != "" && v["served"] == true {
			served = append(served, name)
		}
	}
	return gk, served
}

// object is m[key] when it is an object.
func object(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
}

// mapItem finds an object's resource. A kind a CRD of the objects has just
// defined (fromCRD) may take a moment to appear in discovery.
func (s *Server) mapItem(ctx context.Context, it *item, fromCRD bool) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, err := s.mapper.RESTMappingWithContext(ctx, it.gvk.GroupKind(), it.gvk.Version)
		if err == nil {
			it.mapping = m
			return nil
		}
		if !meta.IsNoMatchError(err) {
			return err
		}
		if !fromCRD || time.Now().After(deadline) {
			return fmt.Errorf("the server does not serve %s in version %s: %w", kindName(it.gvk.GroupKind()), it.gvk.GroupVersion(), err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		s.mapper.ResetWithContext(ctx)
	}
}

func kindName(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// patch applies one mapped object by server-side apply, as a dry run or
// for real.
func (s *Server) patch(ctx context.Context, it *item, dryRun bool) ([]string, error) {
	ctx, warnings := collectWarnings(ctx)
	ri := s.dynamic.Resource(it.mapping.Resource)
	var err error
	opts := metav1.PatchOptions{FieldManager: FieldManager, Force: new(true), FieldValidation: metav1.FieldValidationStrict}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	if it.mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		_, err = ri.Namespace(it.res.Namespace).Patch(ctx, it.res.Name, types.ApplyPatchType, it.body, opts)
	} else {
		_, err = ri.Patch(ctx, it.res.Name, types.ApplyPatchType, it.body, opts)
	}
	return warnings.list(), err
}

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// waitEstablished waits until a CRD is Established, or fails with the
// reason its names were not accepted.
func (s *Server) waitEstablished(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		crd, err := s.dynamic.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		for _, c := range conds {
			c, _ := c.(map[string]any)
			switch {
			case c["type"] == "Established" && c["status"] == "True":
				return nil
			case c["type"] == "NamesAccepted" && c["status"] == "False":
				return fmt.Errorf("CustomResourceDefinition %s: names not accepted: %v", name, c["message"])
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("CustomResourceDefinition %s not Established: %w (conditions %v)", name, ctx.Err(), conds)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ensureNamespace creates a namespace and its default ServiceAccount when
// they do not exist. A namespace made once is not asked for again (no
// test deletes one): many concurrent Applies into one namespace cost no
// request each.
func (s *Server) ensureNamespace(ctx context.Context, ns string) error {
	if s.namespaces[ns] {
		return nil
	}
	create := func(ri interface {
		Create(context.Context, *unstructured.Unstructured, metav1.CreateOptions, ...string) (*unstructured.Unstructured, error)
	}, apiVersion, kind, name string) error {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name}}}
		_, err := ri.Create(ctx, obj, metav1.CreateOptions{FieldManager: FieldManager})
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}
	if err := create(s.dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}), "v1", "Namespace", ns); err != nil {
		return err
	}
	if err := create(s.dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}).Namespace(ns), "v1", "ServiceAccount", "default"); err != nil {
		return err
	}
	if s.namespaces == nil {
		s.namespaces = map[string]bool{}
	}
	s.namespaces[ns] = true
	return nil
}

// ServedKinds lists the group/version/kinds the server serves now, sorted
// by group, version and kind (subresources left out). Kinds of the CRDs
// Apply has applied are among them; DefaultKinds are those of a fresh
// server.
func (s *Server) ServedKinds(ctx context.Context) ([]schema.GroupVersionKind, error) {
	_, lists, err := s.discovery.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[schema.GroupVersionKind]bool{}
	var out []schema.GroupVersionKind
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			gvk := gv.WithKind(r.Kind)
			if !seen[gvk] {
				seen[gvk] = true
				out = append(out, gvk)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return out, nil
}

// DefaultKinds lists the group/version/kinds the server served when it
// had started, before anything was applied: what Kubernetes serves by
// default, sorted as ServedKinds.
func (s *Server) DefaultKinds() []schema.GroupVersionKind { return slices.Clone(s.defaults) }

// warnings collected for one request.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.msgs)
}

type warningsKey struct{}

func collectWarnings(ctx context.Context) (context.Context, *warnings) {
	w := &warnings{}
	return context.WithValue(ctx, warningsKey{}, w), w
}

// warningCollector hands the server's warnings to the request's
// collector.
type warningCollector struct{}

func (warningCollector) HandleWarningHeaderWithContext(ctx context.Context, _ int, _ string, text string) {
	if w, ok := ctx.Value(warningsKey{}).(*warnings); ok {
		w.mu.Lock()
		w.msgs = append(w.msgs, text)
		w.mu.Unlock()
	}
}
