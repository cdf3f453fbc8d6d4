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

// scheme holds the internal and versioned types of the built-in API
// groups, with Kubernetes' defaulting, conversion and declarative
// validation functions. It is built on first use: registering every group
// costs a few milliseconds that renders without objects do not pay.
var scheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		core.AddToScheme, corev1.AddToScheme,
		apps.AddToScheme, appsv1.AddToScheme, appsv1beta1.AddToScheme, appsv1beta2.AddToScheme,
		extensions.AddToScheme, extensionsv1beta1.AddToScheme,
		batch.AddToScheme, batchv1.AddToScheme, batchv1beta1.AddToScheme,
		policy.AddToScheme, policyv1.AddToScheme, policyv1beta1.AddToScheme,
		rbac.AddToScheme, rbacv1.AddToScheme, rbacv1beta1.AddToScheme,
		networking.AddToScheme, networkingv1.AddToScheme, networkingv1beta1.AddToScheme,
		autoscaling.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme,
		storage.AddToScheme, storagev1.AddToScheme, storagev1beta1.AddToScheme,
		scheduling.AddToScheme, schedulingv1.AddToScheme, schedulingv1beta1.AddToScheme,
		admissionregistration.AddToScheme, admissionregistrationv1.AddToScheme, admissionregistrationv1beta1.AddToScheme,
		coordination.AddToScheme, coordinationv1.AddToScheme, coordinationv1beta1.AddToScheme,
		discovery.AddToScheme, discoveryv1.AddToScheme, discoveryv1beta1.AddToScheme,
		events.AddToScheme, eventsv1.AddToScheme, eventsv1beta1.AddToScheme,
		node.AddToScheme, nodev1.AddToScheme, nodev1beta1.AddToScheme,
		flowcontrol.AddToScheme, flowcontrolv1.AddToScheme,
		certificates.AddToScheme, certificatesv1.AddToScheme, certificatesv1beta1.AddToScheme,
		apiextensions.AddToScheme, apiextensionsv1.AddToScheme, apiextensionsv1beta1.AddToScheme,
	} {
		utilruntime.Must(add(s))
	}
	// Privileged containers are allowed, as every common cluster (kubeadm,
	// kind, the managed ones) starts kube-apiserver with
	// --allow-privileged=true; its default, false, refuses them.
	capabilities.Setup(true, 0)
	return s
})
