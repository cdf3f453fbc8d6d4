package validate

import (
	"context"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// validator is what the API server's registry strategy of a kind runs on
// create (its PrepareForCreate, where that changes what is validated, then
// its Validate), on the internal form of the object.
type validator func(ctx context.Context, obj runtime.Object) field.ErrorList

// validators are the create validations of the built-in kinds, by group
// and kind, as k8s.io/kubernetes/pkg/registry/<group>/<resource>/strategy.go
// calls them. The registry packages themselves are not imported: they
// bring the API server's storage and metrics, 40 ms of start-up.
var validators = map[schema.GroupKind]validator{
	{Group: "", Kind: "ConfigMap"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateConfigMap(o.(*core.ConfigMap))
	},
	{Group: "", Kind: "Secret"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateSecret(o.(*core.Secret))
	},
	{Group: "", Kind: "Service"}: validateService,
	{Group: "", Kind: "ServiceAccount"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateServiceAccount(o.(*core.ServiceAccount))
	},
	{Group: "", Kind: "Pod"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		pod := o.(*core.Pod)
		opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
		opts.ResourceIsPod = true
		return corevalidation.ValidatePodCreate(pod, opts)
	},
	{Group: "", Kind: "PodTemplate"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		t := o.(*core.PodTemplate)
		return corevalidation.ValidatePodTemplate(t, podutil.GetValidationOptionsFromPodTemplate(&t.Template, nil))
	},
	{Group: "", Kind: "ReplicationController"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		rc := o.(*core.ReplicationController)
		return corevalidation.ValidateReplicationController(rc, podutil.GetValidationOptionsFromPodTemplate(rc.Spec.Template, nil))
	},
	{Group: "", Kind: "PersistentVolumeClaim"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		pvc := o.(*core.PersistentVolumeClaim)
		return corevalidation.ValidatePersistentVolumeClaim(pvc, corevalidation.ValidationOptionsForPersistentVolumeClaim(pvc, nil))
	},
	{Group: "", Kind: "PersistentVolume"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		pv := o.(*core.PersistentVolume)
		return corevalidation.ValidatePersistentVolume(pv, corevalidation.ValidationOptionsForPersistentVolume(pv, nil))
	},
	{Group: "", Kind: "Namespace"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateNamespace(o.(*core.Namespace))
	},
	{Group: "", Kind: "Endpoints"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateEndpointsCreate(o.(*core.Endpoints))
	},
	{Group: "", Kind: "LimitRange"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateLimitRange(o.(*core.LimitRange))
	},
	{Group: "", Kind: "ResourceQuota"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return corevalidation.ValidateResourceQuota(o.(*core.ResourceQuota))
	},
	{Group: "apps", Kind: "Deployment"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		d := o.(*apps.Deployment)
		return appsvalidation.ValidateDeployment(d, podutil.GetValidationOptionsFromPodTemplate(&d.Spec.Template, nil))
	},
	{Group: "apps", Kind: "StatefulSet"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		s := o.(*apps.StatefulSet)
		setOpts := appsvalidation.StatefulSetValidationOptions{
			AllowStatefulSetRecreateStrategy: utilfeature.DefaultFeatureGate.Enabled(features.StatefulSetRecreateStrategy),
		}
		return appsvalidation.ValidateStatefulSet(s, setOpts, podutil.GetValidationOptionsFromPodTemplate(&s.Spec.Template, nil))
	},
	{Group: "apps", Kind: "DaemonSet"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		d := o.(*apps.DaemonSet)
		return appsvalidation.ValidateDaemonSet(d, podutil.GetValidationOptionsFromPodTemplate(&d.Spec.Template, nil))
	},
	{Group: "apps", Kind: "ReplicaSet"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		rs := o.(*apps.ReplicaSet)
		return appsvalidation.ValidateReplicaSet(rs, podutil.GetValidationOptionsFromPodTemplate(&rs.Spec.Template, nil))
	},
	{Group: "apps", Kind: "ControllerRevision"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return appsvalidation.ValidateControllerRevisionCreate(o.(*apps.ControllerRevision))
	},
	{Group: "batch", Kind: "Job"}: validateJob,
	{Group: "batch", Kind: "CronJob"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		c := o.(*batch.CronJob)
		return batchvalidation.ValidateCronJobCreate(c, podutil.GetValidationOptionsFromPodTemplate(&c.Spec.JobTemplate.Spec.Template, nil))
	},
	{Group: "policy", Kind: "PodDisruptionBudget"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return policyvalidation.ValidatePodDisruptionBudget(o.(*policy.PodDisruptionBudget), policyvalidation.PodDisruptionBudgetValidationOptions{})
	},
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateRole(o.(*rbac.Role))
	},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateClusterRole(o.(*rbac.ClusterRole), rbacvalidation.ClusterRoleValidationOptions{})
	},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateRoleBinding(o.(*rbac.RoleBinding))
	},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return rbacvalidation.ValidateClusterRoleBinding(o.(*rbac.ClusterRoleBinding))
	},
	{Group: "networking.k8s.io", Kind: "Ingress"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateIngressCreate(o.(*networking.Ingress))
	},
	{Group: "networking.k8s.io", Kind: "IngressClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return networkingvalidation.ValidateIngressClass(o.(*networking.IngressClass))
	},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		np := o.(*networking.NetworkPolicy)
		return networkingvalidation.ValidateNetworkPolicy(np, networkingvalidation.ValidationOptionsForNetworking(np, nil))
	},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: validateHPA,
	{Group: "storage.k8s.io", Kind: "StorageClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateStorageClass(o.(*storage.StorageClass))
	},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return storagevalidation.ValidateCSIDriver(o.(*storage.CSIDriver))
	},
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return schedulingvalidation.ValidatePriorityClass(o.(*scheduling.PriorityClass))
	},
	{Group: "node.k8s.io", Kind: "RuntimeClass"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return nodevalidation.ValidateRuntimeClass(o.(*node.RuntimeClass))
	},
	{Group: "coordination.k8s.io", Kind: "Lease"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return coordinationvalidation.ValidateLease(o.(*coordination.Lease))
	},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return discoveryvalidation.ValidateEndpointSliceCreate(o.(*discovery.EndpointSlice))
	},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateValidatingWebhookConfiguration(o.(*admissionregistration.ValidatingWebhookConfiguration))
	},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}: func(_ context.Context, o runtime.Object) field.ErrorList {
		return admissionvalidation.ValidateMutatingWebhookConfiguration(o.(*admissionregistration.MutatingWebhookConfiguration))
	},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: func(ctx context.Context, o runtime.Object) field.ErrorList {
		return crdvalidation.ValidateCustomResourceDefinition(ctx, o.(*apiextensions.CustomResourceDefinition))
	},
}

// fakeUID stands in for the UID the API server gives an object on
// create; the Job strategy puts it in the generated selector.
const fakeUID = "00000000-0000-0000-0000-000000000000"

// validateJob does what the Job strategy does on create: it generates the
// selector and the pod labels unless spec.manualSelector, then validates.
func validateJob(_ context.Context, o runtime.Object) field.ErrorList {
	job := o.(*batch.Job)
	generateJobSelector(job)
	opts := batchvalidation.JobValidationOptions{
		PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&job.Spec.Template, nil),
		RequirePrefixedLabels: true,
	}
	return batchvalidation.ValidateJobCreate(job, opts)
}

// generateJobSelector generates a Job's selector and pod labels, as the
// Job strategy does on create, unless spec.manualSelector.
func generateJobSelector(job *batch.Job) {
	if job.Spec.ManualSelector == nil || !*job.Spec.ManualSelector {
		if job.Spec.Template.Labels == nil {
			job.Spec.Template.Labels = map[string]string{}
		}
		for _, l := range []string{batch.LegacyJobNameLabel, batch.JobNameLabel} {
			if _, ok := job.Spec.Template.Labels[l]; !ok {
				job.Spec.Template.Labels[l] = job.Name
			}
		}
		for _, l := range []string{batch.LegacyControllerUidLabel, batch.ControllerUidLabel} {
			if _, ok := job.Spec.Template.Labels[l]; !ok {
				job.Spec.Template.Labels[l] = fakeUID
			}
		}
		if job.Spec.Selector == nil {
			job.Spec.Selector = &metav1.LabelSelector{}
		}
		if job.Spec.Selector.MatchLabels == nil {
			job.Spec.Selector.MatchLabels = map[string]string{}
		}
		if _, ok := job.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !ok {
			job.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = fakeUID
		}
	}
}

// validateHPA validates a HorizontalPodAutoscaler with the options its
// strategy uses on create.
func validateHPA(_ context.Context, o runtime.Object) field.ErrorList {
	hpa := o.(*autoscaling.HorizontalPodAutoscaler)
	opts := autoscalingvalidation.HorizontalPodAutoscalerSpecValidationOptions{
		MinReplicasLowerBound:           1,
		ScaleTargetRefValidationOptions: autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{RequiredCoveredByDeclarative: true},
		ObjectMetricsValidationOptions:  autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.HPAScaleToZero) {
		opts.MinReplicasLowerBound = 0
	}
	if hpa.Spec.ScaleTargetRef.Kind == "ReplicationController" {
		opts.ScaleTargetRefValidationOptions.AllowEmptyAPIGroup = true
	}
	return autoscalingvalidation.ValidateHorizontalPodAutoscaler(hpa, opts)
}
