package validate

import (
	"fmt"
	"hash/fnv"
	"slices"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/apis/batch"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// createFillers do, on the internal form of a created object, what the
// API server (or, for a claim or a CustomResourceDefinition, the cluster
// soon after) fills in that a configuration does not set and an update
// keeps: it decides whether a later update is refused.
var createFillers = map[schema.GroupKind]func(runtime.Object){
	{Group: "batch", Kind: "Job"}:      func(o runtime.Object) { generateJobSelector(o.(*batch.Job)) },
	{Group: "apps", Kind: "DaemonSet"}: func(o runtime.Object) { o.(*apps.DaemonSet).Spec.TemplateGeneration = 1 },
	{Group: "", Kind: "Service"}:       func(o runtime.Object) { allocateService(o.(*core.Service)) },
	{Group: "", Kind: "PersistentVolumeClaim"}: func(o runtime.Object) {
		bindClaim(o.(*core.PersistentVolumeClaim))
	},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: func(o runtime.Object) {
		// Established at once by the API extensions server: its scope
		// and kind no longer change.
		crd := o.(*apiextensions.CustomResourceDefinition)
		crd.Status.StoredVersions = nil
		for _, v := range crd.Spec.Versions {
			if v.Storage {
				crd.Status.StoredVersions = []string{v.Name}
			}
		}
		crd.Status.AcceptedNames = crd.Spec.Names
		crd.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{
			{Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionTrue},
			{Type: apiextensions.Established, Status: apiextensions.ConditionTrue},
		}
	},
}

// updatePreparers do what the registry does to an update before the
// kind's validation where it changes the verdict (the Service REST's
// BeginUpdate and strategies' PrepareForUpdate); their errors are the
// REST layer's own refusals.
var updatePreparers = map[schema.GroupKind]func(obj, live runtime.Object) field.ErrorList{
	{Group: "apps", Kind: "DaemonSet"}: func(o, live runtime.Object) field.ErrorList {
		ds, old := o.(*apps.DaemonSet), live.(*apps.DaemonSet)
		ds.Spec.TemplateGeneration = old.Spec.TemplateGeneration
		if !apiequality.Semantic.DeepEqual(ds.Spec.Template, old.Spec.Template) {
			ds.Spec.TemplateGeneration++
		}
		return nil
	},
	{Group: "", Kind: "Service"}: func(o, live runtime.Object) field.ErrorList {
		return prepareServiceUpdate(o.(*core.Service), live.(*core.Service))
	},
	{Group: "", Kind: "PersistentVolumeClaim"}: func(o, live runtime.Object) field.ErrorList {
		o.(*core.PersistentVolumeClaim).Status = live.(*core.PersistentVolumeClaim).Status
		return nil
	},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: func(o, live runtime.Object) field.ErrorList {
		crd := o.(*apiextensions.CustomResourceDefinition)
		crd.Status = live.(*apiextensions.CustomResourceDefinition).Status
		for _, v := range crd.Spec.Versions {
			if v.Storage && !slices.Contains(crd.Status.StoredVersions, v.Name) {
				crd.Status.StoredVersions = append(slices.Clone(crd.Status.StoredVersions), v.Name)
			}
		}
		return nil
	},
}

// bindClaim makes a claim what it is once in use: bound to a volume of
// the size it asked for. (A claim that is still pending cannot change at
// all; one in use can grow.)
func bindClaim(pvc *core.PersistentVolumeClaim) {
	if pvc.Spec.VolumeName == "" {
		pvc.Spec.VolumeName = "pvc-" + fakeUID
	}
	pvc.Status.Phase = core.ClaimBound
	pvc.Status.AccessModes = pvc.Spec.AccessModes
	if size, ok := pvc.Spec.Resources.Requests[core.ResourceStorage]; ok {
		pvc.Status.Capacity = core.ResourceList{core.ResourceStorage: size.DeepCopy()}
	}
}

// allocateService fills in what the Service REST allocates on create in
// a single-stack IPv4 cluster: a cluster IP unless the Service is an
// ExternalName or headless, the IP family policy and families, node ports
// for NodePort and LoadBalancer Services, a health check node port for a
// LoadBalancer with the Local traffic policy. The values are made up (a
// cluster's differ); what matters is that they are set.
func allocateService(svc *core.Service) {
	spec := &svc.Spec
	if spec.Type == core.ServiceTypeExternalName {
		return
	}
	if spec.ClusterIP != "" && len(spec.ClusterIPs) == 0 {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
	if spec.IPFamilyPolicy == nil {
		policy := core.IPFamilyPolicySingleStack
		if spec.ClusterIP == core.ClusterIPNone && len(spec.Selector) == 0 {
			policy = core.IPFamilyPolicyRequireDualStack
		}
		spec.IPFamilyPolicy = &policy
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []core.IPFamily{core.IPv4Protocol}
		if spec.ClusterIP == core.ClusterIPNone && len(spec.Selector) == 0 && *spec.IPFamilyPolicy != core.IPFamilyPolicySingleStack {
			spec.IPFamilies = append(spec.IPFamilies, core.IPv6Protocol)
		}
	}
	if spec.ClusterIP == "" {
		spec.ClusterIP = madeUpIP(svc.Namespace + "/" + svc.Name)
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
	if needsNodePort(svc) {
		for i := range spec.Ports {
			if spec.Ports[i].NodePort == 0 {
				spec.Ports[i].NodePort = int32(30000 + i)
			}
		}
	}
	if needsHealthCheckNodePort(svc) && spec.HealthCheckNodePort == 0 {
		spec.HealthCheckNodePort = 32000
	}
}

// madeUpIP is an IP of the default service range 10.0.0.0/24 for a name.
func madeUpIP(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("10.0.0.%d", 10+h.Sum32()%200)
}

func needsClusterIP(svc *core.Service) bool { return svc.Spec.Type != core.ServiceTypeExternalName }

func needsNodePort(svc *core.Service) bool {
	switch svc.Spec.Type {
	case core.ServiceTypeNodePort:
		return true
	case core.ServiceTypeLoadBalancer:
		return svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts
	}
	return false
}

func needsHealthCheckNodePort(svc *core.Service) bool {
	return svc.Spec.Type == core.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == core.ServiceExternalTrafficPolicyLocal
}

// prepareServiceUpdate does what the Service REST does to an update
// before validating it (pkg/registry/core/service/storage: BeginUpdate's
// patchAllocatedValues, normalizeClusterIPs and the allocator's
// initIPFamilyFields, then the strategy's dropTypeDependentFields): values
// the server allocated and the update leaves empty are kept, clusterIP
// and clusterIPs are kept in step, the IP family policy is the live one
// unless set. Its errors are the allocator's refusals.
func prepareServiceUpdate(svc, live *core.Service) field.ErrorList {
	keepAllocated(svc, live)
	normalizeClusterIPs(svc, live)
	var errs field.ErrorList
	if needsClusterIP(svc) {
		if svc.Spec.IPFamilyPolicy == nil {
			svc.Spec.IPFamilyPolicy = live.Spec.IPFamilyPolicy
			if svc.Spec.IPFamilyPolicy == nil {
				single := core.IPFamilyPolicySingleStack
				svc.Spec.IPFamilyPolicy = &single
			}
		}
		errs = corevalidation.ValidateServiceClusterIPsRelatedFields(svc, live)
		if live.Spec.Type == core.ServiceTypeExternalName {
			allocateService(svc) // from ExternalName: allocated as on create
		}
	}
	dropTypeDependentFields(svc, live)
	return errs
}

// keepAllocated keeps the cluster IPs, node ports and health check node
// port the server allocated when the update leaves them empty and the
// Service still needs them.
func keepAllocated(svc, live *core.Service) {
	if needsClusterIP(live) && needsClusterIP(svc) {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = live.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(live.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = live.Spec.ClusterIPs
		}
	}
	if needsNodePort(live) && needsNodePort(svc) {
		used := map[int32]bool{}
		for _, p := range svc.Spec.Ports {
			used[p.NodePort] = p.NodePort != 0
		}
		byName := map[string]int32{}
		for _, p := range live.Spec.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range svc.Spec.Ports {
			if p := &svc.Spec.Ports[i]; p.NodePort == 0 && !used[byName[p.Name]] {
				p.NodePort = byName[p.Name]
			}
		}
	}
	if needsHealthCheckNodePort(live) && needsHealthCheckNodePort(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = live.Spec.HealthCheckNodePort
	}
}

// normalizeClusterIPs keeps clusterIP and clusterIPs in step on an update.
func normalizeClusterIPs(svc, live *core.Service) {
	if len(live.Spec.ClusterIPs) > 0 && len(svc.Spec.ClusterIPs) == 0 && live.Spec.ClusterIP == svc.Spec.ClusterIP {
		svc.Spec.ClusterIPs = live.Spec.ClusterIPs
	}
	if live.Spec.ClusterIP == svc.Spec.ClusterIP || !slices.Equal(live.Spec.ClusterIPs, svc.Spec.ClusterIPs) {
		return
	}
	if live.Spec.ClusterIP != "" && svc.Spec.ClusterIP == "" {
		svc.Spec.ClusterIPs = nil
	} else {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
}

// dropTypeDependentFields clears what a change of type no longer uses
// when the update did not change it itself.
func dropTypeDependentFields(svc, live *core.Service) {
	if needsClusterIP(live) && !needsClusterIP(svc) {
		if slices.Equal(live.Spec.ClusterIPs, svc.Spec.ClusterIPs) {
			svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "", nil
		}
		if slices.Equal(live.Spec.IPFamilies, svc.Spec.IPFamilies) {
			svc.Spec.IPFamilies = nil
		}
		if ptrEqual(live.Spec.IPFamilyPolicy, svc.Spec.IPFamilyPolicy) {
			svc.Spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePort(live) && !needsNodePort(svc) && sameNodePorts(svc, live) {
		for i := range svc.Spec.Ports {
			svc.Spec.Ports[i].NodePort = 0
		}
	}
	if needsHealthCheckNodePort(live) && !needsHealthCheckNodePort(svc) && svc.Spec.HealthCheckNodePort == live.Spec.HealthCheckNodePort {
		svc.Spec.HealthCheckNodePort = 0
	}
	if live.Spec.Type == core.ServiceTypeLoadBalancer && svc.Spec.Type != core.ServiceTypeLoadBalancer &&
		svc.Spec.AllocateLoadBalancerNodePorts != nil && ptrEqual(live.Spec.AllocateLoadBalancerNodePorts, svc.Spec.AllocateLoadBalancerNodePorts) {
		svc.Spec.AllocateLoadBalancerNodePorts = nil
	}
	if live.Spec.Type == core.ServiceTypeLoadBalancer && svc.Spec.Type != core.ServiceTypeLoadBalancer && ptrEqual(live.Spec.LoadBalancerClass, svc.Spec.LoadBalancerClass) {
		svc.Spec.LoadBalancerClass = nil
	}
	if externallyAccessible(live) && !externallyAccessible(svc) && live.Spec.ExternalTrafficPolicy == svc.Spec.ExternalTrafficPolicy {
		svc.Spec.ExternalTrafficPolicy = ""
	}
}

// externallyAccessible: a NodePort or LoadBalancer Service, or one with
// external IPs.
func externallyAccessible(svc *core.Service) bool {
	return svc.Spec.Type == core.ServiceTypeLoadBalancer || svc.Spec.Type == core.ServiceTypeNodePort ||
		svc.Spec.Type == core.ServiceTypeClusterIP && len(svc.Spec.ExternalIPs) > 0
}

// sameNodePorts: the same node port on every port, by position.
func sameNodePorts(a, b *core.Service) bool {
	if len(a.Spec.Ports) != len(b.Spec.Ports) {
		return false
	}
	for i := range a.Spec.Ports {
		if a.Spec.Ports[i].NodePort != b.Spec.Ports[i].NodePort {
			return false
		}
	}
	return true
}

func ptrEqual[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
