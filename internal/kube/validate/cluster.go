package validate

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	admissionvalidation "k8s.io/kubernetes/pkg/apis/admissionregistration/validation"
	"k8s.io/kubernetes/pkg/apis/certificates"
	certvalidation "k8s.io/kubernetes/pkg/apis/certificates/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/flowcontrol"
	flowcontrolvalidation "k8s.io/kubernetes/pkg/apis/flowcontrol/validation"
	"k8s.io/kubernetes/pkg/apis/networking"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
)

// clusterValidators are the create validations of the kinds that run a
// cluster rather than a workload (admission policies, certificates,
// API priority and fairness, addresses, nodes, events, volume
// attachments), as their registry strategies call them; validators holds
// the others.
var clusterValidators = map[schema.GroupKind]validator{
	{Group: "", Kind: "Node"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateNode(o.(*core.Node))
	},
	{Group: "", Kind: "Event"}: func(ctx context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateEventCreate(o.(*core.Event), requestGroupVersion(ctx))
	},
	{Group: "events.k8s.io", Kind: "Event"}: func(ctx context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateEventCreate(o.(*core.Event), requestGroupVersion(ctx))
	},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateValidatingAdmissionPolicy(o.(*admissionregistration.ValidatingAdmissionPolicy))
	},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateValidatingAdmissionPolicyBinding(o.(*admissionregistration.ValidatingAdmissionPolicyBinding))
	},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateMutatingAdmissionPolicy(o.(*admissionregistration.MutatingAdmissionPolicy))
	},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateMutatingAdmissionPolicyBinding(o.(*admissionregistration.MutatingAdmissionPolicyBinding))
	},
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: validateCSR,
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return certvalidation.ValidateClusterTrustBundle(o.(*certificates.ClusterTrustBundle), certvalidation.ValidateClusterTrustBundleOptions{})
	},
	{Group: "certificates.k8s.io", Kind: "PodCertificateRequest"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return certvalidation.ValidatePodCertificateRequestCreate(o.(*certificates.PodCertificateRequest))
	},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return flowcontrolvalidation.ValidateFlowSchema(o.(*flowcontrol.FlowSchema))
	},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}: func(ctx context.Context, o runtime.Object) field.ErrorList {
		return flowcontrolvalidation.ValidatePriorityLevelConfiguration(o.(*flowcontrol.PriorityLevelConfiguration), requestGroupVersion(ctx), flowcontrolvalidation.PriorityLevelValidationOptions{})
	},
	{Group: "networking.k8s.io", Kind: "IPAddress"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateIPAddress(o.(*networking.IPAddress))
	},
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateServiceCIDR(o.(*networking.ServiceCIDR))
	},
	{Group: "storage.k8s.io", Kind: "CSINode"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateCSINode(o.(*storage.CSINode))
	},
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateCSIStorageCapacity(o.(*storage.CSIStorageCapacity), storagevalidation.CSIStorageCapacityValidateOptions{})
	},
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateVolumeAttachment(o.(*storage.VolumeAttachment))
	},
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateVolumeAttributesClass(o.(*storage.VolumeAttributesClass))
	},
}

// validatorOf is the create validation of a kind, nil for none.
func validatorOf(gk schema.GroupKind) validator {
	if fn := validators[gk]; fn != nil {
		return fn
	}
	if fn := clusterValidators[gk]; fn != nil {
		return fn
	}
	return extensionValidators[gk]
}

// requestGroupVersion is the group version of the request, as the
// strategies of events and priority levels read it.
func requestGroupVersion(ctx context.Context) schema.GroupVersion {
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok {
		return schema.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
	}
	return schema.GroupVersion{}
}

// validateCSR does what the CertificateSigningRequest strategy does on
// create: the requester's identity is the server's to fill (the fields
// given are dropped), then validates.
func validateCSR(_ context.Context, o runtime.Object) field.ErrorList {
	csr := o.(*certificates.CertificateSigningRequest)
	csr.Spec.Username, csr.Spec.UID, csr.Spec.Groups, csr.Spec.Extra = "", "", nil, nil
	return certvalidation.ValidateCertificateSigningRequestCreate(csr)
}

// requests are the kinds the API server only creates as a request it
// answers (it stores nothing, so nothing can be applied or patched), or
// only reads: server-side apply of them is refused.
var requests = map[schema.GroupKind]string{
	{Group: "", Kind: "Binding"}:                                      "a request to bind a pod to a node, which the API server answers and does not store",
	{Group: "", Kind: "ComponentStatus"}:                              "read-only: the API server reports it",
	{Group: "authentication.k8s.io", Kind: "TokenReview"}:             "a request the API server answers and does not store",
	{Group: "authentication.k8s.io", Kind: "SelfSubjectReview"}:       "a request the API server answers and does not store",
	{Group: "authorization.k8s.io", Kind: "SubjectAccessReview"}:      "a request the API server answers and does not store",
	{Group: "authorization.k8s.io", Kind: "LocalSubjectAccessReview"}: "a request the API server answers and does not store",
	{Group: "authorization.k8s.io", Kind: "SelfSubjectAccessReview"}:  "a request the API server answers and does not store",
	{Group: "authorization.k8s.io", Kind: "SelfSubjectRulesReview"}:   "a request the API server answers and does not store",
}
