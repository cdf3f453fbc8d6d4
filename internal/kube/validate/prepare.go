package validate

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiserverfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	jobutil "k8s.io/kubernetes/pkg/api/job"
	pvutil "k8s.io/kubernetes/pkg/api/persistentvolume"
	pvcutil "k8s.io/kubernetes/pkg/api/persistentvolumeclaim"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	"k8s.io/kubernetes/pkg/apis/batch"
	"k8s.io/kubernetes/pkg/apis/coordination"
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/discovery"
	"k8s.io/kubernetes/pkg/apis/policy"
	"k8s.io/kubernetes/pkg/apis/storage"
	"k8s.io/kubernetes/pkg/features"
)

// prepare does what the registry strategy of a kind does on create
// before it validates (its PrepareForCreate) where that changes the
// verdict: the status is the server's to fill, and fields whose feature
// gate is off in Kubernetes ServedVersion are dropped (a pod's
// lifecycle.stopSignal, a Lease's strategy), not refused. The registry
// packages are not imported (they bring the API server's storage):
// their exported helpers are called (pkg/api/pod, job, persistentvolume,
// persistentvolumeclaim), and the few lines of the others are written
// here, each naming its strategy.
func prepare(gk schema.GroupKind, obj runtime.Object) {
	if statusCleared[gk] {
		if st := reflect.ValueOf(obj).Elem().FieldByName("Status"); st.IsValid() && st.CanSet() {
			st.SetZero()
		}
	}
	if fn := preparers[gk]; fn != nil {
		fn(obj)
	}
}

// statusCleared are the kinds whose strategy empties the status on
// create.
var statusCleared = map[schema.GroupKind]bool{
	{Group: "", Kind: "Pod"}: true, {Group: "", Kind: "ReplicationController"}: true, {Group: "", Kind: "Service"}: true,
	{Group: "", Kind: "PersistentVolume"}: true, {Group: "", Kind: "PersistentVolumeClaim"}: true, {Group: "", Kind: "ResourceQuota"}: true,
	{Group: "", Kind: "Namespace"}:      true,
	{Group: "apps", Kind: "Deployment"}: true, {Group: "apps", Kind: "StatefulSet"}: true, {Group: "apps", Kind: "DaemonSet"}: true,
	{Group: "apps", Kind: "ReplicaSet"}: true,
	{Group: "batch", Kind: "Job"}:       true, {Group: "batch", Kind: "CronJob"}: true,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:           true,
	{Group: "policy", Kind: "PodDisruptionBudget"}:                    true,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                     true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: true, {Group: "certificates.k8s.io", Kind: "PodCertificateRequest"}: true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}: true, {Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}: true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}: true, {Group: "storage.k8s.io", Kind: "CSINode"}: true,
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}: true,
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                   true, {Group: "resource.k8s.io", Kind: "DeviceTaintRule"}: true,
}

// preparers drop the fields each strategy drops on create.
var preparers = map[schema.GroupKind]func(runtime.Object){
	{Group: "", Kind: "Pod"}: func(o runtime.Object) { podutil.DropDisabledPodFields(o.(*core.Pod), nil) },
	{Group: "", Kind: "PodTemplate"}: func(o runtime.Object) {
		podutil.DropDisabledTemplateFields(&o.(*core.PodTemplate).Template, nil)
	},
	{Group: "", Kind: "ReplicationController"}: func(o runtime.Object) {
		podutil.DropDisabledTemplateFields(o.(*core.ReplicationController).Spec.Template, nil)
	},
	{Group: "", Kind: "PersistentVolume"}: func(o runtime.Object) { pvutil.DropDisabledSpecFields(&o.(*core.PersistentVolume).Spec, nil) },
	{Group: "", Kind: "PersistentVolumeClaim"}: func(o runtime.Object) {
		spec := &o.(*core.PersistentVolumeClaim).Spec
		pvcutil.DropDisabledFields(spec, nil)
		pvcutil.EnforceDataSourceBackwardsCompatibility(spec, nil)
		pvcutil.NormalizeDataSources(spec)
	},
	{Group: "", Kind: "ServiceAccount"}: func(o runtime.Object) { // cleanSecretReferences
		sa := o.(*core.ServiceAccount)
		for i, s := range sa.Secrets {
			sa.Secrets[i] = core.ObjectReference{Name: s.Name}
		}
	},
	{Group: "", Kind: "Node"}: func(o runtime.Object) { // dropDisabledFields, on create
		n := o.(*core.Node)
		n.Spec.ConfigSource, n.Status = nil, core.NodeStatus{}
		if !utilfeature.DefaultFeatureGate.Enabled(features.InPlacePodVerticalScalingSchedulerPreemption) {
			n.Spec.PodPreemptionPolicy = nil
		}
	},
	{Group: "apps", Kind: "Deployment"}: func(o runtime.Object) { podutil.DropDisabledTemplateFields(&o.(*apps.Deployment).Spec.Template, nil) },
	{Group: "apps", Kind: "ReplicaSet"}: func(o runtime.Object) { podutil.DropDisabledTemplateFields(&o.(*apps.ReplicaSet).Spec.Template, nil) },
	{Group: "apps", Kind: "DaemonSet"}:  func(o runtime.Object) { podutil.DropDisabledTemplateFields(&o.(*apps.DaemonSet).Spec.Template, nil) },
	{Group: "apps", Kind: "StatefulSet"}: func(o runtime.Object) { // dropStatefulSetDisabledFields
		s := o.(*apps.StatefulSet)
		if !utilfeature.DefaultFeatureGate.Enabled(features.MaxUnavailableStatefulSet) && s.Spec.UpdateStrategy.RollingUpdate != nil {
			s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = nil
		}
		podutil.DropDisabledTemplateFields(&s.Spec.Template, nil)
	},
	{Group: "batch", Kind: "Job"}: func(o runtime.Object) {
		j := o.(*batch.Job)
		if !utilfeature.DefaultFeatureGate.Enabled(features.JobManagedBy) {
			j.Spec.ManagedBy = nil
		}
		jobutil.DropDisabledFields(&j.Spec, nil)
		podutil.DropDisabledTemplateFields(&j.Spec.Template, nil)
	},
	{Group: "batch", Kind: "CronJob"}: func(o runtime.Object) {
		spec := &o.(*batch.CronJob).Spec.JobTemplate.Spec
		jobutil.DropDisabledFields(spec, nil)
		podutil.DropDisabledTemplateFields(&spec.Template, nil)
	},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: func(o runtime.Object) { // dropDisabledFields
		if b := o.(*autoscaling.HorizontalPodAutoscaler).Spec.Behavior; b != nil && !utilfeature.DefaultFeatureGate.Enabled(features.HPAConfigurableTolerance) {
			for _, r := range []*autoscaling.HPAScalingRules{b.ScaleDown, b.ScaleUp} {
				if r != nil {
					r.Tolerance = nil
				}
			}
		}
	},
	{Group: "policy", Kind: "PodDisruptionBudget"}: func(o runtime.Object) { // dropDisabledFields
		sel := o.(*policy.PodDisruptionBudget).Spec.Selector
		if !reflect.DeepEqual(sel, policy.NonV1beta1MatchNoneSelector) && !reflect.DeepEqual(sel, policy.NonV1beta1MatchAllSelector) {
			policy.StripPDBV1beta1Label(sel)
		}
	},
	{Group: "coordination.k8s.io", Kind: "Lease"}: func(o runtime.Object) {
		if l := o.(*coordination.Lease); !utilfeature.DefaultFeatureGate.Enabled(apiserverfeatures.CoordinatedLeaderElection) {
			l.Spec.Strategy, l.Spec.PreferredHolder = nil, nil
		}
	},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}: func(o runtime.Object) { // dropDisabledFieldsOnCreate, dropTopologyOnV1
		eps := o.(*discovery.EndpointSlice)
		for i := range eps.Endpoints {
			if h := eps.Endpoints[i].Hints; h != nil && !utilfeature.DefaultFeatureGate.Enabled(features.PreferSameTrafficDistribution) {
				h.ForNodes = nil
			}
			eps.Endpoints[i].DeprecatedTopology = nil
		}
	},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}: func(o runtime.Object) {
		spec := &o.(*storage.CSIDriver).Spec
		gate := utilfeature.DefaultFeatureGate.Enabled
		if !gate(features.SELinuxMountReadWriteOncePod) {
			spec.SELinuxMount = nil
		}
		if !gate(features.MutableCSINodeAllocatableCount) {
			spec.NodeAllocatableUpdatePeriodSeconds = nil
		}
		if !gate(features.CSIServiceAccountTokenSecrets) {
			spec.ServiceAccountTokenInSecrets = nil
		}
		if !gate(features.VolumeLimitScaling) {
			spec.PreventPodSchedulingIfMissing = nil
		}
	},
}
