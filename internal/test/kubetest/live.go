package kubetest

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Dynamic is the administrator's dynamic client, for tests that change
// the cluster for real (Apply only dry-runs).
func (s *Server) Dynamic() dynamic.Interface { return s.dynamic }

// ResourceOf returns the client of an object's resource, in its namespace
// when the kind is namespaced ("default" when it names none), and the
// resource's mapping. It creates the namespace (and its default
// ServiceAccount) when it does not exist. Kinds that CRDs applied since
// the last call define are found too.
func (s *Server) ResourceOf(ctx context.Context, obj *unstructured.Unstructured) (dynamic.ResourceInterface, *meta.RESTMapping, error) {
	gvk := obj.GroupVersionKind()
	s.setup.Lock()
	defer s.setup.Unlock()
	m, err := s.mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		s.mapper.ResetWithContext(ctx)
		m, err = s.mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", kindName(gvk.GroupKind()), err)
	}
	ri := s.dynamic.Resource(m.Resource)
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		return ri, m, nil
	}
	ns := obj.GetNamespace()
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	if err := s.ensureNamespace(ctx, ns); err != nil {
		return nil, nil, fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	return ri.Namespace(ns), m, nil
}

// Mapping returns the resource of a group, version and kind.
func (s *Server) Mapping(ctx context.Context, gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	return s.mapper.RESTMappingWithContext(ctx, gvk.GroupKind(), gvk.Version)
}
