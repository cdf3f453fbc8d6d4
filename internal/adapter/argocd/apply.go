package argocd

import (
	"maps"
	"slices"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
)

// Apply applies what Argo CD's environment says to the FunctionConfig of
// the application: the application's name and namespace when the file
// names none; plans, target and parameters over the file's.
func (s *Settings) Apply(c *config.Config) {
	if c.Metadata.Name == "" {
		c.Metadata.Name = s.Name
	}
	if c.Metadata.Namespace == "" {
		c.Metadata.Namespace = s.Namespace
	}
	if s.Plans != nil {
		c.Spec.Plans = s.Plans
	}
	if s.Target != "" {
		c.Spec.Target = s.Target
	}
	switch {
	case s.KubeVersion != "":
		c.Spec.KubeVersion = s.KubeVersion
	case c.Spec.KubeVersion == "" && s.ClusterVersion != "":
		// The destination cluster's version, when this build knows it
		// (a newer cluster gets the newest version kudo-render knows).
		if _, err := kubeversion.Parse(s.ClusterVersion); err == nil {
			c.Spec.KubeVersion = s.ClusterVersion
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Params)) {
		c.SetParam(k, s.Params[k])
	}
}
