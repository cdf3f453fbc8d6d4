package validate

import (
	"context"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	admissionvalidation "k8s.io/kubernetes/pkg/apis/admissionregistration/validation"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	autoscalingvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"
	"k8s.io/kubernetes/pkg/apis/batch"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/coordination"
	coordinationvalidation "k8s.io/kubernetes/pkg/apis/coordination/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/discovery"
	discoveryvalidation "k8s.io/kubernetes/pkg/apis/discovery/validation"
	"k8s.io/kubernetes/pkg/apis/networking"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	"k8s.io/kubernetes/pkg/apis/node"
	nodevalidation "k8s.io/kubernetes/pkg/apis/node/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/rbac"
	rbacvalidation "k8s.io/kubernetes/pkg/apis/rbac/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
	"k8s.io/kubernetes/pkg/features"
)

// updateValidator is what a kind's registry strategy runs on an update
// (its ValidateUpdate, with the options it derives from both objects), on
// the internal forms of the new and the live object.
type updateValidator func(ctx context.Context, obj, old runtime.Object) field.ErrorList

// updateValidators are the update validations of the built-in kinds, as
// k8s.io/kubernetes/pkg/registry/<group>/<resource>/strategy.go calls
// them (the kinds of validators). A kind without one gets the generic
// metadata checks.
var updateValidators = map[schema.GroupKind]updateValidator{
	{Group: "", Kind: "ConfigMap"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateConfigMapUpdate(o.(*core.ConfigMap), old.(*core.ConfigMap))
	},
	{Group: "", Kind: "Secret"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateSecretUpdate(o.(*core.Secret), old.(*core.Secret))
	},
	{Group: "", Kind: "Service"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateServiceUpdate(o.(*core.Service), old.(*core.Service))
	},
	{Group: "", Kind: "ServiceAccount"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateServiceAccountUpdate(o.(*core.ServiceAccount), old.(*core.ServiceAccount))
	},
	{Group: "", Kind: "Pod"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		pod, oldPod := o.(*core.Pod), old.(*core.Pod)
		opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, &oldPod.Spec, &pod.ObjectMeta, &oldPod.ObjectMeta)
		opts.ResourceIsPod = true
		return corevalidation.ValidatePodUpdate(pod, oldPod, opts)
	},
	{Group: "", Kind: "PodTemplate"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		t, oldT := o.(*core.PodTemplate), old.(*core.PodTemplate)
		return corevalidation.ValidatePodTemplateUpdate(t, oldT, podutil.GetValidationOptionsFromPodTemplate(&t.Template, &oldT.Template))
	},
	{Group: "", Kind: "ReplicationController"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		rc, oldRC := o.(*core.ReplicationController), old.(*core.ReplicationController)
		return corevalidation.ValidateReplicationControllerUpdate(rc, oldRC, podutil.GetValidationOptionsFromPodTemplate(rc.Spec.Template, oldRC.Spec.Template))
	},
	{Group: "", Kind: "PersistentVolumeClaim"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		pvc, oldPVC := o.(*core.PersistentVolumeClaim), old.(*core.PersistentVolumeClaim)
		return corevalidation.ValidatePersistentVolumeClaimUpdate(pvc, oldPVC, corevalidation.ValidationOptionsForPersistentVolumeClaim(pvc, oldPVC))
	},
	{Group: "", Kind: "PersistentVolume"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		pv, oldPV := o.(*core.PersistentVolume), old.(*core.PersistentVolume)
		opts := corevalidation.ValidationOptionsForPersistentVolume(pv, oldPV)
		return append(corevalidation.ValidatePersistentVolume(pv, opts), corevalidation.ValidatePersistentVolumeUpdate(pv, oldPV, opts)...)
	},
	{Group: "", Kind: "Namespace"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		ns := o.(*core.Namespace)
		return append(corevalidation.ValidateNamespace(ns), corevalidation.ValidateNamespaceUpdate(ns, old.(*core.Namespace))...)
	},
	{Group: "", Kind: "Endpoints"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateEndpointsUpdate(o.(*core.Endpoints), old.(*core.Endpoints))
	},
	{Group: "", Kind: "LimitRange"}: func(_ context.Context, o, _ runtime.Object) field.ErrorList {
		return corevalidation.ValidateLimitRange(o.(*core.LimitRange))
	},
	{Group: "", Kind: "ResourceQuota"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return corevalidation.ValidateResourceQuotaUpdate(o.(*core.ResourceQuota), old.(*core.ResourceQuota))
	},
	{Group: "apps", Kind: "Deployment"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		d, oldD := o.(*apps.Deployment), old.(*apps.Deployment)
		return appsvalidation.ValidateDeploymentUpdate(d, oldD, podutil.GetValidationOptionsFromPodTemplate(&d.Spec.Template, &oldD.Spec.Template))
	},
	{Group: "apps", Kind: "StatefulSet"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		s, oldS := o.(*apps.StatefulSet), old.(*apps.StatefulSet)
		setOpts := appsvalidation.StatefulSetValidationOptions{
			AllowInvalidServiceName:          true,
			SkipValidateVolumeClaimTemplates: true,
			AllowStatefulSetRecreateStrategy: utilfeature.DefaultFeatureGate.Enabled(features.StatefulSetRecreateStrategy) || oldS.Spec.UpdateStrategy.Type == apps.RecreateStatefulSetStrategyType,
		}
		return appsvalidation.ValidateStatefulSetUpdate(s, oldS, setOpts, podutil.GetValidationOptionsFromPodTemplate(&s.Spec.Template, &oldS.Spec.Template))
	},
	{Group: "apps", Kind: "DaemonSet"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		d, oldD := o.(*apps.DaemonSet), old.(*apps.DaemonSet)
		opts := podutil.GetValidationOptionsFromPodTemplate(&d.Spec.Template, &oldD.Spec.Template)
		opts.AllowInvalidLabelValueInSelector = opts.AllowInvalidLabelValueInSelector || metav1validation.LabelSelectorHasInvalidLabelValue(oldD.Spec.Selector)
		return appsvalidation.ValidateDaemonSetUpdate(d, oldD, opts)
	},
	{Group: "apps", Kind: "ReplicaSet"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		rs, oldRS := o.(*apps.ReplicaSet), old.(*apps.ReplicaSet)
		return appsvalidation.ValidateReplicaSetUpdate(rs, oldRS, podutil.GetValidationOptionsFromPodTemplate(&rs.Spec.Template, &oldRS.Spec.Template))
	},
	{Group: "apps", Kind: "ControllerRevision"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return appsvalidation.ValidateControllerRevisionUpdate(o.(*apps.ControllerRevision), old.(*apps.ControllerRevision))
	},
	{Group: "batch", Kind: "Job"}: validateJobUpdate,
	{Group: "batch", Kind: "CronJob"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		c, oldC := o.(*batch.CronJob), old.(*batch.CronJob)
		return batchvalidation.ValidateCronJobUpdate(c, oldC, podutil.GetValidationOptionsFromPodTemplate(&c.Spec.JobTemplate.Spec.Template, &oldC.Spec.JobTemplate.Spec.Template))
	},
	{Group: "policy", Kind: "PodDisruptionBudget"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		opts := policyvalidation.PodDisruptionBudgetValidationOptions{
			AllowInvalidLabelValueInSelector: metav1validation.LabelSelectorHasInvalidLabelValue(old.(*policy.PodDisruptionBudget).Spec.Selector),
		}
		return policyvalidation.ValidatePodDisruptionBudget(o.(*policy.PodDisruptionBudget), opts)
	},
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateRoleUpdate(o.(*rbac.Role), old.(*rbac.Role))
	},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		oldR := old.(*rbac.ClusterRole)
		opts := rbacvalidation.ClusterRoleValidationOptions{}
		if oldR.AggregationRule != nil {
			for _, s := range oldR.AggregationRule.ClusterRoleSelectors {
				opts.AllowInvalidLabelValueInSelector = opts.AllowInvalidLabelValueInSelector || metav1validation.LabelSelectorHasInvalidLabelValue(&s)
			}
		}
		return rbacvalidation.ValidateClusterRoleUpdate(o.(*rbac.ClusterRole), oldR, opts)
	},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateRoleBindingUpdate(o.(*rbac.RoleBinding), old.(*rbac.RoleBinding))
	},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateClusterRoleBindingUpdate(o.(*rbac.ClusterRoleBinding), old.(*rbac.ClusterRoleBinding))
	},
	{Group: "networking.k8s.io", Kind: "Ingress"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateIngressUpdate(o.(*networking.Ingress), old.(*networking.Ingress))
	},
	{Group: "networking.k8s.io", Kind: "IngressClass"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateIngressClassUpdate(o.(*networking.IngressClass), old.(*networking.IngressClass))
	},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		np, oldNP := o.(*networking.NetworkPolicy), old.(*networking.NetworkPolicy)
		return networkingvalidation.ValidateNetworkPolicyUpdate(np, oldNP, networkingvalidation.ValidationOptionsForNetworking(np, oldNP))
	},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: validateHPAUpdate,
	{Group: "storage.k8s.io", Kind: "StorageClass"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		sc := o.(*storage.StorageClass)
		return append(storagevalidation.ValidateStorageClass(sc), storagevalidation.ValidateStorageClassUpdate(sc, old.(*storage.StorageClass))...)
	},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return storagevalidation.ValidateCSIDriverUpdate(o.(*storage.CSIDriver), old.(*storage.CSIDriver))
	},
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return schedulingvalidation.ValidatePriorityClassUpdate(o.(*scheduling.PriorityClass), old.(*scheduling.PriorityClass))
	},
	{Group: "node.k8s.io", Kind: "RuntimeClass"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		rc := o.(*node.RuntimeClass)
		return append(nodevalidation.ValidateRuntimeClass(rc), nodevalidation.ValidateRuntimeClassUpdate(rc, old.(*node.RuntimeClass))...)
	},
	{Group: "coordination.k8s.io", Kind: "Lease"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return coordinationvalidation.ValidateLeaseUpdate(o.(*coordination.Lease), old.(*coordination.Lease))
	},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return discoveryvalidation.ValidateEndpointSliceUpdate(o.(*discovery.EndpointSlice), old.(*discovery.EndpointSlice))
	},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateValidatingWebhookConfigurationUpdate(o.(*admissionregistration.ValidatingWebhookConfiguration), old.(*admissionregistration.ValidatingWebhookConfiguration))
	},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}: func(_ context.Context, o, old runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateMutatingWebhookConfigurationUpdate(o.(*admissionregistration.MutatingWebhookConfiguration), old.(*admissionregistration.MutatingWebhookConfiguration))
	},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: func(ctx context.Context, o, old runtime.Object) field.ErrorList {
		return crdvalidation.ValidateCustomResourceDefinitionUpdate(ctx, o.(*apiextensions.CustomResourceDefinition), old.(*apiextensions.CustomResourceDefinition))
	},
}

// validateJobUpdate validates a Job's update with the options the Job
// strategy derives from both objects.
func validateJobUpdate(_ context.Context, o, old runtime.Object) field.ErrorList {
	job, oldJob := o.(*batch.Job), old.(*batch.Job)
	opts := batchvalidation.JobValidationOptions{
		PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&job.Spec.Template, &oldJob.Spec.Template),
		RequirePrefixedLabels: true,
	}
	opts.AllowInvalidLabelValueInSelector = opts.AllowInvalidLabelValueInSelector || metav1validation.LabelSelectorHasInvalidLabelValue(oldJob.Spec.Selector)
	// The pod template of a suspended Job that never started may change
	// (a live Job that is not suspended has started).
	suspended := oldJob.Spec.Suspend != nil && *oldJob.Spec.Suspend
	opts.AllowMutableSchedulingDirectives = suspended
	if utilfeature.DefaultFeatureGate.Enabled(features.MutablePodResourcesForSuspendedJobs) {
		opts.AllowMutablePodResources = suspended
	}
	_, hadJobName := oldJob.Spec.Template.Labels[batch.JobNameLabel]
	_, hadControllerUID := oldJob.Spec.Template.Labels[batch.ControllerUidLabel]
	opts.RequirePrefixedLabels = hadJobName && hadControllerUID
	return batchvalidation.ValidateJobUpdate(job, oldJob, opts)
}

// validateHPAUpdate validates a HorizontalPodAutoscaler's update with the
// options its strategy derives from both objects.
func validateHPAUpdate(_ context.Context, o, old runtime.Object) field.ErrorList {
	hpa, oldHPA := o.(*autoscaling.HorizontalPodAutoscaler), old.(*autoscaling.HorizontalPodAutoscaler)
	opts := autoscalingvalidation.HorizontalPodAutoscalerSpecValidationOptions{
		MinReplicasLowerBound:           1,
		ScaleTargetRefValidationOptions: autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{RequiredCoveredByDeclarative: true},
		ObjectMetricsValidationOptions:  autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.HPAScaleToZero) || oldHPA.Spec.MinReplicas != nil && *oldHPA.Spec.MinReplicas == 0 {
		opts.MinReplicasLowerBound = 0
	}
	switch {
	case oldHPA.Spec.ScaleTargetRef.APIVersion == hpa.Spec.ScaleTargetRef.APIVersion && oldHPA.Spec.ScaleTargetRef.Kind == hpa.Spec.ScaleTargetRef.Kind:
		opts.ScaleTargetRefValidationOptions.AllowInvalidAPIVersion = true
	case hpa.Spec.ScaleTargetRef.Kind == "ReplicationController":
		opts.ScaleTargetRefValidationOptions.AllowEmptyAPIGroup = true
	}
	return autoscalingvalidation.ValidateHorizontalPodAutoscalerUpdate(hpa, oldHPA, opts)
}
