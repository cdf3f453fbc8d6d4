package validate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/certificates"
	"k8s.io/kubernetes/pkg/apis/core"
	schedulingv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	psaapi "k8s.io/pod-security-admission/api"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// kube-apiserver 1.37 runs these admission plugins by default
// (DefaultOffAdmissionPlugins in pkg/kubeapiserver/options): those that
// refuse a create for what the object says, or for what other objects of
// the render say, are checked by admit:
//
//   - Priority: a Pod that gives spec.priority (or preemptionPolicy)
//     other than its PriorityClass's (the system ones, one of the
//     render's; none: 0, or the render's globalDefault class);
//   - RuntimeClass: a Pod that gives spec.overhead without a
//     runtimeClassName, or one other than its RuntimeClass's of the
//     render;
//   - PodSecurity: a Namespace whose pod-security.kubernetes.io labels
//     are not levels and versions;
//   - CertificateSubjectRestriction: a CertificateSigningRequest for
//     kubernetes.io/kube-apiserver-client in the group system:masters.
//
// The others mutate (DefaultTolerationSeconds, DefaultStorageClass, ...),
// or refuse for what only the cluster knows: a ServiceAccount, a
// PriorityClass or a RuntimeClass it does not hold (ServiceAccount,
// Priority, RuntimeClass), LimitRanges and quotas, admission policies and
// webhooks, Pod Security levels of namespaces it already has,
// the requester's permissions (ClusterTrustBundleAttest). Those are not
// checked; docs/validation.md lists them.

// renderClasses are what the render's PriorityClasses and RuntimeClasses
// tell admission.
type renderClasses struct {
	priorities map[string]priorityClass
	// globalDefault is the render's default PriorityClass, "" for none.
	globalDefault string
	overheads     map[string]map[string]any // RuntimeClass name: overhead.podFixed
}

type priorityClass struct {
	value      int32
	preemption string
}

// addClass records a PriorityClass or RuntimeClass of the render.
func (rc *renderClasses) addClass(o *object.Object) {
	switch {
	case o.Kind() == "PriorityClass" && o.Group() == "scheduling.k8s.io":
		v, ok := number(o.Map["value"])
		if !ok || o.Name() == "" {
			return
		}
		p := priorityClass{value: int32(v)}
		p.preemption, _ = o.Map["preemptionPolicy"].(string)
		rc.priorities[o.Name()] = p
		if o.Map["globalDefault"] == true {
			rc.globalDefault = o.Name()
		}
	case o.Kind() == "RuntimeClass" && o.Group() == "node.k8s.io":
		overhead, _ := o.Map["overhead"].(map[string]any)
		fixed, _ := overhead["podFixed"].(map[string]any)
		rc.overheads[o.Name()] = fixed
	}
}

// priority is the priority and preemption policy the Priority plugin
// gives a Pod of class name; ok is false for a class neither the render
// nor every cluster holds.
func (rc *renderClasses) priority(name string) (p priorityClass, ok bool) {
	if name == "" {
		if rc.globalDefault == "" {
			return priorityClass{preemption: "PreemptLowerPriority"}, true
		}
		name = rc.globalDefault
	}
	if p, ok := rc.priorities[name]; ok {
		if p.preemption == "" { // the PriorityClass's default
			p.preemption = "PreemptLowerPriority"
		}
		return p, true
	}
	for _, sys := range schedulingv1.SystemPriorityClasses() {
		if sys.Name == name {
			p := priorityClass{value: sys.Value}
			if sys.PreemptionPolicy != nil {
				p.preemption = string(*sys.PreemptionPolicy)
			}
			return p, true
		}
	}
	return priorityClass{}, false
}

// admit is what the default admission plugins refuse in an object (its
// internal form), as far as the render tells.
func (v *Validator) admit(obj runtime.Object) field.ErrorList {
	switch o := obj.(type) {
	case *core.Pod:
		return append(v.admitPriority(o), v.admitOverhead(o)...)
	case *core.Namespace:
		_, errs := psaapi.PolicyToEvaluate(o.Labels, psaapi.Policy{})
		return errs
	case *certificates.CertificateSigningRequest:
		return admitSubject(o)
	}
	return nil
}

// admitPriority is the Priority plugin's check of a new Pod.
func (v *Validator) admitPriority(pod *core.Pod) field.ErrorList {
	p, known := v.classes.priority(pod.Spec.PriorityClassName)
	if !known {
		return nil // the cluster may hold the class (or refuse the pod)
	}
	var errs field.ErrorList
	if pod.Spec.Priority != nil && *pod.Spec.Priority != p.value {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "priority"), fmt.Sprintf(
			"the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name (the Priority admission plugin)", *pod.Spec.Priority, p.value)))
	}
	if p.preemption != "" && pod.Spec.PreemptionPolicy != nil && string(*pod.Spec.PreemptionPolicy) != p.preemption {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "preemptionPolicy"), fmt.Sprintf(
			"the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name (the Priority admission plugin)", *pod.Spec.PreemptionPolicy, p.preemption)))
	}
	return errs
}

// admitOverhead is the RuntimeClass plugin's check of a new Pod's
// overhead.
func (v *Validator) admitOverhead(pod *core.Pod) field.ErrorList {
	p := field.NewPath("spec", "overhead")
	if pod.Spec.RuntimeClassName == nil {
		if pod.Spec.Overhead != nil {
			return field.ErrorList{field.Forbidden(p, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead (the RuntimeClass admission plugin)")}
		}
		return nil
	}
	fixed, ok := v.classes.overheads[*pod.Spec.RuntimeClassName]
	if !ok {
		return nil // a RuntimeClass of the cluster, or none
	}
	want := core.ResourceList{}
	for name, q := range fixed {
		parsed, err := resource.ParseQuantity(fmt.Sprint(q))
		if err != nil {
			return nil // the RuntimeClass's own validation refuses it
		}
		want[core.ResourceName(name)] = parsed
	}
	switch {
	case len(fixed) == 0 && pod.Spec.Overhead != nil:
		return field.ErrorList{field.Forbidden(p, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead (the RuntimeClass admission plugin)")}
	case len(fixed) > 0 && pod.Spec.Overhead != nil && !equality.Semantic.DeepEqual(want, pod.Spec.Overhead):
		return field.ErrorList{field.Forbidden(p, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead (the RuntimeClass admission plugin)")}
	}
	return nil
}

// admitSubject is the CertificateSubjectRestriction plugin: no client
// certificate of the API server's signer for the group system:masters.
func admitSubject(csr *certificates.CertificateSigningRequest) field.ErrorList {
	const signer = "kubernetes.io/kube-apiserver-client"
	if csr.Spec.SignerName != signer {
		return nil
	}
	parsed, err := certificates.ParseCSR(csr.Spec.Request)
	if err != nil {
		return nil // validation refuses it
	}
	for _, group := range parsed.Subject.Organization {
		if group == "system:masters" {
			return field.ErrorList{field.Forbidden(field.NewPath("spec", "request"), fmt.Sprintf("use of %s signer with system:masters group is not allowed (the CertificateSubjectRestriction admission plugin)", signer))}
		}
	}
	return nil
}
