package enhance

import (
	"github.com/kudo-render/kudo-render/internal/kube/kinds"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Scopes knows which kinds are cluster-scoped.
type Scopes struct {
	extra map[[2]string]bool
}

// ScopesOf learns the scope of custom kinds from the
// CustomResourceDefinitions among objs.
func ScopesOf(objs []*object.Object) *Scopes {
	s := &Scopes{extra: map[[2]string]bool{}}
	for _, o := range objs {
		if o.Kind() != "CustomResourceDefinition" || o.Group() != "apiextensions.k8s.io" {
			continue
		}
		if o.String("spec", "scope") == "Cluster" {
			s.extra[[2]string{o.String("spec", "group"), o.String("spec", "names", "kind")}] = true
		}
	}
	return s
}

// ClusterScoped reports whether objects of group and kind have no namespace.
func (s *Scopes) ClusterScoped(group, kind string) bool {
	k := [2]string{group, kind}
	return kinds.ClusterScoped(group, kind) || (s != nil && s.extra[k])
}
