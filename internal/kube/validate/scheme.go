package validate

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/capabilities"

	"github.com/kudo-render/kudo-render/internal/kube/apischeme"
)

// allowPrivileged: privileged containers are allowed, as every common
// cluster (kubeadm, kind, the managed ones) starts kube-apiserver with
// --allow-privileged=true; its default, false, refuses them.
var allowPrivileged sync.Once

// schemeFor returns the scheme of an API group (package kube/apischeme),
// built on first use; nil for a group kudo-render has no types of.
func schemeFor(group string) *runtime.Scheme {
	allowPrivileged.Do(func() { capabilities.Setup(true, 0) })
	s, err := apischeme.For(group)
	if err != nil {
		return nil // AddToScheme of Kubernetes' own packages: does not fail
	}
	return s
}
