package validate

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ServedVersion is the Kubernetes version whose API servedKinds lists.
const ServedVersion = "1.37"

// servedKinds are the kinds a kube-apiserver of ServedVersion serves with
// its default flags (no alpha or beta API enabled), as its discovery lists
// them; TestServedKinds compares them with a real API server's.
var servedKinds = []schema.GroupVersionKind{
	{Group: "", Version: "v1", Kind: "Binding"},
	{Group: "", Version: "v1", Kind: "ComponentStatus"},
	{Group: "", Version: "v1", Kind: "ConfigMap"},
	{Group: "", Version: "v1", Kind: "Endpoints"},
	{Group: "", Version: "v1", Kind: "Event"},
	{Group: "", Version: "v1", Kind: "LimitRange"},
	{Group: "", Version: "v1", Kind: "Namespace"},
	{Group: "", Version: "v1", Kind: "Node"},
	{Group: "", Version: "v1", Kind: "PersistentVolume"},
	{Group: "", Version: "v1", Kind: "PersistentVolumeClaim"},
	{Group: "", Version: "v1", Kind: "Pod"},
	{Group: "", Version: "v1", Kind: "PodTemplate"},
	{Group: "", Version: "v1", Kind: "ReplicationController"},
	{Group: "", Version: "v1", Kind: "ResourceQuota"},
	{Group: "", Version: "v1", Kind: "Secret"},
	{Group: "", Version: "v1", Kind: "Service"},
	{Group: "", Version: "v1", Kind: "ServiceAccount"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"},
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
	{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"},
	{Group: "apps", Version: "v1", Kind: "ControllerRevision"},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"},
	{Group: "apps", Version: "v1", Kind: "Deployment"},
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "SelfSubjectReview"},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenReview"},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "LocalSubjectAccessReview"},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview"},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectRulesReview"},
	{Group: "authorization.k8s.io", Version: "v1", Kind: "SubjectAccessReview"},
	{Group: "autoscaling", Version: "v1", Kind: "HorizontalPodAutoscaler"},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"},
	{Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "batch", Version: "v1", Kind: "Job"},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest"},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "ClusterTrustBundle"},
	{Group: "certificates.k8s.io", Version: "v1", Kind: "PodCertificateRequest"},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
	{Group: "events.k8s.io", Version: "v1", Kind: "Event"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "FlowSchema"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1", Kind: "PriorityLevelConfiguration"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "IngressClass"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "ServiceCIDR"},
	{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"},
	{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceClass"},
	{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRule"},
	{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaim"},
	{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceClaimTemplate"},
	{Group: "resource.k8s.io", Version: "v1", Kind: "ResourceSlice"},
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttachment"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClass"},
	{Group: "storagemigration.k8s.io", Version: "v1", Kind: "StorageVersionMigration"},
}

// ServedKinds returns the kinds Kubernetes ServedVersion serves by
// default, sorted.
func ServedKinds() []schema.GroupVersionKind { return slices.Clone(servedKinds) }

// servedSet indexes servedKinds.
var servedSet = func() map[schema.GroupVersionKind]bool {
	m := make(map[schema.GroupVersionKind]bool, len(servedKinds))
	for _, k := range servedKinds {
		m[k] = true
	}
	return m
}()

// servedGroups are the API groups of servedKinds.
var servedGroups = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range servedKinds {
		m[k.Group] = true
	}
	return m
}()
