package validate

import (
	"sync"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	admissionregistrationv1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1"
	admissionregistrationv1beta1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1beta1"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1 "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsv1beta1 "k8s.io/kubernetes/pkg/apis/apps/v1beta1"
	appsv1beta2 "k8s.io/kubernetes/pkg/apis/apps/v1beta2"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	autoscalingv1 "k8s.io/kubernetes/pkg/apis/autoscaling/v1"
	autoscalingv2 "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	"k8s.io/kubernetes/pkg/apis/batch"
	batchv1 "k8s.io/kubernetes/pkg/apis/batch/v1"
	batchv1beta1 "k8s.io/kubernetes/pkg/apis/batch/v1beta1"
	"k8s.io/kubernetes/pkg/apis/certificates"
	certificatesv1 "k8s.io/kubernetes/pkg/apis/certificates/v1"
	certificatesv1beta1 "k8s.io/kubernetes/pkg/apis/certificates/v1beta1"
	"k8s.io/kubernetes/pkg/apis/coordination"
	coordinationv1 "k8s.io/kubernetes/pkg/apis/coordination/v1"
	coordinationv1beta1 "k8s.io/kubernetes/pkg/apis/coordination/v1beta1"
	"k8s.io/kubernetes/pkg/apis/core"
	corev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/discovery"
	discoveryv1 "k8s.io/kubernetes/pkg/apis/discovery/v1"
	discoveryv1beta1 "k8s.io/kubernetes/pkg/apis/discovery/v1beta1"
	"k8s.io/kubernetes/pkg/apis/events"
	eventsv1 "k8s.io/kubernetes/pkg/apis/events/v1"
	eventsv1beta1 "k8s.io/kubernetes/pkg/apis/events/v1beta1"
	"k8s.io/kubernetes/pkg/apis/extensions"
	extensionsv1beta1 "k8s.io/kubernetes/pkg/apis/extensions/v1beta1"
	"k8s.io/kubernetes/pkg/apis/flowcontrol"
	flowcontrolv1 "k8s.io/kubernetes/pkg/apis/flowcontrol/v1"
	"k8s.io/kubernetes/pkg/apis/networking"
	networkingv1 "k8s.io/kubernetes/pkg/apis/networking/v1"
	networkingv1beta1 "k8s.io/kubernetes/pkg/apis/networking/v1beta1"
	"k8s.io/kubernetes/pkg/apis/node"
	nodev1 "k8s.io/kubernetes/pkg/apis/node/v1"
	nodev1beta1 "k8s.io/kubernetes/pkg/apis/node/v1beta1"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyv1 "k8s.io/kubernetes/pkg/apis/policy/v1"
	policyv1beta1 "k8s.io/kubernetes/pkg/apis/policy/v1beta1"
	"k8s.io/kubernetes/pkg/apis/rbac"
	rbacv1 "k8s.io/kubernetes/pkg/apis/rbac/v1"
	rbacv1beta1 "k8s.io/kubernetes/pkg/apis/rbac/v1beta1"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	schedulingv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	schedulingv1beta1 "k8s.io/kubernetes/pkg/apis/scheduling/v1beta1"
	"k8s.io/kubernetes/pkg/apis/storage"
	storagev1 "k8s.io/kubernetes/pkg/apis/storage/v1"
	storagev1beta1 "k8s.io/kubernetes/pkg/apis/storage/v1beta1"
	"k8s.io/kubernetes/pkg/capabilities"
)

// groupScheme holds the internal and versioned types of one built-in API
// group, with Kubernetes' defaulting, conversion and declarative
// validation functions. It is built on first use, group by group: a
// render of ConfigMaps and Deployments pays only for the core and apps
// groups (registering every group takes about 5 ms).
type groupScheme struct {
	once sync.Once
	s    *runtime.Scheme
	add  []func(*runtime.Scheme) error
}

func fns(f ...func(*runtime.Scheme) error) []func(*runtime.Scheme) error { return f }

// groups are the API groups whose objects are decoded, defaulted and
// validated, with the AddToScheme functions of their scheme: internal
// types first, then the versions.
var groups = map[string]*groupScheme{
	"":                             {add: fns(core.AddToScheme, corev1.AddToScheme)},
	"apps":                         {add: fns(apps.AddToScheme, appsv1.AddToScheme, appsv1beta1.AddToScheme, appsv1beta2.AddToScheme)},
	"extensions":                   {add: fns(extensions.AddToScheme, extensionsv1beta1.AddToScheme)},
	"batch":                        {add: fns(batch.AddToScheme, batchv1.AddToScheme, batchv1beta1.AddToScheme)},
	"policy":                       {add: fns(policy.AddToScheme, policyv1.AddToScheme, policyv1beta1.AddToScheme)},
	"rbac.authorization.k8s.io":    {add: fns(rbac.AddToScheme, rbacv1.AddToScheme, rbacv1beta1.AddToScheme)},
	"networking.k8s.io":            {add: fns(networking.AddToScheme, networkingv1.AddToScheme, networkingv1beta1.AddToScheme)},
	"autoscaling":                  {add: fns(autoscaling.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme)},
	"storage.k8s.io":               {add: fns(storage.AddToScheme, storagev1.AddToScheme, storagev1beta1.AddToScheme)},
	"scheduling.k8s.io":            {add: fns(scheduling.AddToScheme, schedulingv1.AddToScheme, schedulingv1beta1.AddToScheme)},
	"admissionregistration.k8s.io": {add: fns(admissionregistration.AddToScheme, admissionregistrationv1.AddToScheme, admissionregistrationv1beta1.AddToScheme)},
	"coordination.k8s.io":          {add: fns(coordination.AddToScheme, coordinationv1.AddToScheme, coordinationv1beta1.AddToScheme)},
	"discovery.k8s.io":             {add: fns(discovery.AddToScheme, discoveryv1.AddToScheme, discoveryv1beta1.AddToScheme)},
	"events.k8s.io":                {add: fns(core.AddToScheme, corev1.AddToScheme, events.AddToScheme, eventsv1.AddToScheme, eventsv1beta1.AddToScheme)},
	"node.k8s.io":                  {add: fns(node.AddToScheme, nodev1.AddToScheme, nodev1beta1.AddToScheme)},
	"flowcontrol.apiserver.k8s.io": {add: fns(flowcontrol.AddToScheme, flowcontrolv1.AddToScheme)},
	"certificates.k8s.io":          {add: fns(certificates.AddToScheme, certificatesv1.AddToScheme, certificatesv1beta1.AddToScheme)},
	"apiextensions.k8s.io":         {add: fns(apiextensions.AddToScheme, apiextensionsv1.AddToScheme, apiextensionsv1beta1.AddToScheme)},
}

// Privileged containers are allowed, as every common cluster (kubeadm,
// kind, the managed ones) starts kube-apiserver with
// --allow-privileged=true; its default, false, refuses them.
var allowPrivileged sync.Once

// schemeFor returns the scheme of an API group, built on first use; nil
// for a group kudo-render has no types of.
func schemeFor(group string) *runtime.Scheme {
	g := groups[group]
	if g == nil {
		return nil
	}
	g.once.Do(func() {
		allowPrivileged.Do(func() { capabilities.Setup(true, 0) })
		s := runtime.NewScheme()
		for _, add := range g.add {
			utilruntime.Must(add(s))
		}
		g.s = s
	})
	return g.s
}
