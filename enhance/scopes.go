package enhance

import "github.com/kudo-render/kudo-render/object"

// builtinClusterScoped lists the cluster-scoped kinds of Kubernetes, by
// group and kind.
var builtinClusterScoped = map[[2]string]bool{
	{"", "Namespace"}: true, {"", "Node"}: true, {"", "PersistentVolume"}: true,
	{"", "ComponentStatus"}:                      true,
	{"rbac.authorization.k8s.io", "ClusterRole"}: true, {"rbac.authorization.k8s.io", "ClusterRoleBinding"}: true,
	{"apiextensions.k8s.io", "CustomResourceDefinition"}:                 true,
	{"apiregistration.k8s.io", "APIService"}:                             true,
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"}:     true,
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"}:   true,
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"}:        true,
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"}: true,
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicy"}:          true,
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"}:   true,
	{"storage.k8s.io", "StorageClass"}:                                   true, {"storage.k8s.io", "CSIDriver"}: true,
	{"storage.k8s.io", "CSINode"}: true, {"storage.k8s.io", "VolumeAttachment"}: true,
	{"storage.k8s.io", "VolumeAttributesClass"}: true,
	{"scheduling.k8s.io", "PriorityClass"}:      true,
	{"node.k8s.io", "RuntimeClass"}:             true,
	{"networking.k8s.io", "IngressClass"}:       true, {"networking.k8s.io", "IPAddress"}: true,
	{"networking.k8s.io", "ServiceCIDR"}:                           true,
	{"policy", "PodSecurityPolicy"}:                                true,
	{"certificates.k8s.io", "CertificateSigningRequest"}:           true,
	{"certificates.k8s.io", "ClusterTrustBundle"}:                  true,
	{"flowcontrol.apiserver.k8s.io", "FlowSchema"}:                 true,
	{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"}: true,
	{"resource.k8s.io", "DeviceClass"}:                             true, {"resource.k8s.io", "ResourceSlice"}: true,
}

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
	return builtinClusterScoped[k] || (s != nil && s.extra[k])
}
