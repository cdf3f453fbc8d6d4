package validate

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kube-aggregator/pkg/apis/apiregistration"
	apiregistrationvalidation "k8s.io/kube-aggregator/pkg/apis/apiregistration/validation"
	"k8s.io/kubernetes/pkg/api/resourceclaimspec"
	"k8s.io/kubernetes/pkg/apis/resource"
	resourcevalidation "k8s.io/kubernetes/pkg/apis/resource/validation"
	"k8s.io/kubernetes/pkg/apis/storagemigration"
	storagemigrationvalidation "k8s.io/kubernetes/pkg/apis/storagemigration/validation"
	"k8s.io/kubernetes/pkg/features"
)

// extensionValidators are the create validations of the kinds that
// extend the API server (aggregated APIs, storage migrations) and of
// dynamic resource allocation, as their registry strategies call them,
// with what their PrepareForCreate drops.
var extensionValidators = map[schema.GroupKind]validator{
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: func(ctx context.Context, o runtime.Object) field.ErrorList {
		s := o.(*apiregistration.APIService)
		s.Status = apiregistration.APIServiceStatus{}
		return apiregistrationvalidation.ValidateAPIService(ctx, s)
	},
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagemigrationvalidation.ValidateStorageVersionMigration(o.(*storagemigration.StorageVersionMigration))
	},
	{Group: "resource.k8s.io", Kind: "DeviceClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		c := o.(*resource.DeviceClass)
		if !utilfeature.DefaultFeatureGate.Enabled(features.DRAExtendedResource) { // dropDisabledDRAExtendedResourceFields
			c.Spec.ExtendedResourceName = nil
		}
		return resourcevalidation.ValidateDeviceClass(c)
	},
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return resourcevalidation.ValidateDeviceTaintRule(o.(*resource.DeviceTaintRule))
	},
	// The strategies also refuse a request with adminAccess in a
	// namespace without the label resource.kubernetes.io/admin-access:
	// the namespace's labels are the cluster's (not checked).
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		c := o.(*resource.ResourceClaim)
		resourceclaimspec.DropDisabledFields(&c.Spec, nil)
		return resourcevalidation.ValidateResourceClaim(c)
	},
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		t := o.(*resource.ResourceClaimTemplate)
		resourceclaimspec.DropDisabledFields(&t.Spec.Spec, nil)
		return resourcevalidation.ValidateResourceClaimTemplate(t)
	},
}

// notChecked are the served kinds whose own create validation kudo-render
// does not run, with the reason; their types, metadata and list keys are
// checked. TestEveryServedKindIsChecked keeps every served kind in
// validators, clusterValidators, extensionValidators, requests or here,
// and docs/validation.md lists these.
var notChecked = map[schema.GroupKind]string{
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}: "written by a DRA driver at run time, never by a package; its create drops the fields of nine feature gates first, which kudo-render would refuse",
}

// NotChecked says why the create validation of a served kind is not run
// (its types, metadata and list keys are checked); "" when it is run.
func NotChecked(gk schema.GroupKind) string { return notChecked[gk] }
