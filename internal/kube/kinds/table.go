package kinds

// Builtin lists the built-in Kubernetes kinds as `kubectl api-resources`
// shows them: group, kind, plural, short names and scope. Kinds that exist
// in two groups (Event) are listed twice. Removed kinds that old packages
// still carry (PodSecurityPolicy) are kept so their scope stays known.
var Builtin = []Kind{
	// core (apiVersion v1)
	{Group: "", Kind: "Binding", Plural: "bindings", Namespaced: true},
	{Group: "", Kind: "ComponentStatus", Plural: "componentstatuses", Short: []string{"cs"}, Namespaced: false},
	{Group: "", Kind: "ConfigMap", Plural: "configmaps", Short: []string{"cm"}, Namespaced: true},
	{Group: "", Kind: "Endpoints", Plural: "endpoints", Short: []string{"ep"}, Namespaced: true},
	{Group: "", Kind: "Event", Plural: "events", Short: []string{"ev"}, Namespaced: true},
	{Group: "", Kind: "LimitRange", Plural: "limitranges", Short: []string{"limits"}, Namespaced: true},
	{Group: "", Kind: "Namespace", Plural: "namespaces", Short: []string{"ns"}, Namespaced: false},
	{Group: "", Kind: "Node", Plural: "nodes", Short: []string{"no"}, Namespaced: false},
	{Group: "", Kind: "PersistentVolumeClaim", Plural: "persistentvolumeclaims", Short: []string{"pvc"}, Namespaced: true},
	{Group: "", Kind: "PersistentVolume", Plural: "persistentvolumes", Short: []string{"pv"}, Namespaced: false},
	{Group: "", Kind: "Pod", Plural: "pods", Short: []string{"po"}, Namespaced: true},
	{Group: "", Kind: "PodTemplate", Plural: "podtemplates", Namespaced: true},
	{Group: "", Kind: "ReplicationController", Plural: "replicationcontrollers", Short: []string{"rc"}, Namespaced: true},
	{Group: "", Kind: "ResourceQuota", Plural: "resourcequotas", Short: []string{"quota"}, Namespaced: true},
	{Group: "", Kind: "Secret", Plural: "secrets", Namespaced: true},
	{Group: "", Kind: "ServiceAccount", Plural: "serviceaccounts", Short: []string{"sa"}, Namespaced: true},
	{Group: "", Kind: "Service", Plural: "services", Short: []string{"svc"}, Namespaced: true},
	// admissionregistration.k8s.io
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy", Plural: "mutatingadmissionpolicies", Namespaced: false},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding", Plural: "mutatingadmissionpolicybindings", Namespaced: false},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration", Plural: "mutatingwebhookconfigurations", Namespaced: false},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy", Plural: "validatingadmissionpolicies", Namespaced: false},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding", Plural: "validatingadmissionpolicybindings", Namespaced: false},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration", Plural: "validatingwebhookconfigurations", Namespaced: false},
	// apiextensions.k8s.io, apiregistration.k8s.io
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition", Plural: "customresourcedefinitions", Short: []string{"crd", "crds"}, Namespaced: false},
	{Group: "apiregistration.k8s.io", Kind: "APIService", Plural: "apiservices", Namespaced: false},
	// apps
	{Group: "apps", Kind: "ControllerRevision", Plural: "controllerrevisions", Namespaced: true},
	{Group: "apps", Kind: "DaemonSet", Plural: "daemonsets", Short: []string{"ds"}, Namespaced: true},
	{Group: "apps", Kind: "Deployment", Plural: "deployments", Short: []string{"deploy"}, Namespaced: true},
	{Group: "apps", Kind: "ReplicaSet", Plural: "replicasets", Short: []string{"rs"}, Namespaced: true},
	{Group: "apps", Kind: "StatefulSet", Plural: "statefulsets", Short: []string{"sts"}, Namespaced: true},
	// authentication.k8s.io, authorization.k8s.io
	{Group: "authentication.k8s.io", Kind: "SelfSubjectReview", Plural: "selfsubjectreviews", Namespaced: false},
	{Group: "authentication.k8s.io", Kind: "TokenReview", Plural: "tokenreviews", Namespaced: false},
	{Group: "authorization.k8s.io", Kind: "LocalSubjectAccessReview", Plural: "localsubjectaccessreviews", Namespaced: true},
	{Group: "authorization.k8s.io", Kind: "SelfSubjectAccessReview", Plural: "selfsubjectaccessreviews", Namespaced: false},
	{Group: "authorization.k8s.io", Kind: "SelfSubjectRulesReview", Plural: "selfsubjectrulesreviews", Namespaced: false},
	{Group: "authorization.k8s.io", Kind: "SubjectAccessReview", Plural: "subjectaccessreviews", Namespaced: false},
	// autoscaling, batch
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Plural: "horizontalpodautoscalers", Short: []string{"hpa"}, Namespaced: true},
	{Group: "batch", Kind: "CronJob", Plural: "cronjobs", Short: []string{"cj"}, Namespaced: true},
	{Group: "batch", Kind: "Job", Plural: "jobs", Namespaced: true},
	// certificates.k8s.io, coordination.k8s.io, discovery.k8s.io, events.k8s.io
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest", Plural: "certificatesigningrequests", Short: []string{"csr"}, Namespaced: false},
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle", Plural: "clustertrustbundles", Namespaced: false},
	{Group: "certificates.k8s.io", Kind: "PodCertificateRequest", Plural: "podcertificaterequests", Namespaced: true},
	{Group: "coordination.k8s.io", Kind: "Lease", Plural: "leases", Namespaced: true},
	{Group: "coordination.k8s.io", Kind: "LeaseCandidate", Plural: "leasecandidates", Namespaced: true},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice", Plural: "endpointslices", Namespaced: true},
	{Group: "events.k8s.io", Kind: "Event", Plural: "events", Short: []string{"ev"}, Namespaced: true},
	// flowcontrol.apiserver.k8s.io
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema", Plural: "flowschemas", Namespaced: false},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration", Plural: "prioritylevelconfigurations", Namespaced: false},
	// networking.k8s.io, node.k8s.io, policy
	{Group: "networking.k8s.io", Kind: "IngressClass", Plural: "ingressclasses", Namespaced: false},
	{Group: "networking.k8s.io", Kind: "Ingress", Plural: "ingresses", Short: []string{"ing"}, Namespaced: true},
	{Group: "networking.k8s.io", Kind: "IPAddress", Plural: "ipaddresses", Short: []string{"ip"}, Namespaced: false},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy", Plural: "networkpolicies", Short: []string{"netpol"}, Namespaced: true},
	{Group: "networking.k8s.io", Kind: "ServiceCIDR", Plural: "servicecidrs", Namespaced: false},
	{Group: "node.k8s.io", Kind: "RuntimeClass", Plural: "runtimeclasses", Namespaced: false},
	{Group: "policy", Kind: "PodDisruptionBudget", Plural: "poddisruptionbudgets", Short: []string{"pdb"}, Namespaced: true},
	{Group: "policy", Kind: "PodSecurityPolicy", Plural: "podsecuritypolicies", Short: []string{"psp"}, Namespaced: false},
	// rbac.authorization.k8s.io
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Plural: "clusterrolebindings", Namespaced: false},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Plural: "clusterroles", Namespaced: false},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding", Plural: "rolebindings", Namespaced: true},
	{Group: "rbac.authorization.k8s.io", Kind: "Role", Plural: "roles", Namespaced: true},
	// resource.k8s.io
	{Group: "resource.k8s.io", Kind: "DeviceClass", Plural: "deviceclasses", Namespaced: false},
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule", Plural: "devicetaintrules", Namespaced: false},
	{Group: "resource.k8s.io", Kind: "ResourceClaim", Plural: "resourceclaims", Namespaced: true},
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate", Plural: "resourceclaimtemplates", Namespaced: true},
	{Group: "resource.k8s.io", Kind: "ResourceSlice", Plural: "resourceslices", Namespaced: false},
	// scheduling.k8s.io, storage.k8s.io
	{Group: "scheduling.k8s.io", Kind: "PriorityClass", Plural: "priorityclasses", Short: []string{"pc"}, Namespaced: false},
	{Group: "storage.k8s.io", Kind: "CSIDriver", Plural: "csidrivers", Namespaced: false},
	{Group: "storage.k8s.io", Kind: "CSINode", Plural: "csinodes", Namespaced: false},
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity", Plural: "csistoragecapacities", Namespaced: true},
	{Group: "storage.k8s.io", Kind: "StorageClass", Plural: "storageclasses", Short: []string{"sc"}, Namespaced: false},
	{Group: "storage.k8s.io", Kind: "VolumeAttachment", Plural: "volumeattachments", Namespaced: false},
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass", Plural: "volumeattributesclasses", Short: []string{"vac"}, Namespaced: false},
	// storagemigration.k8s.io
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration", Plural: "storageversionmigrations", Namespaced: false},
}
