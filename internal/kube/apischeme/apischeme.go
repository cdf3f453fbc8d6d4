package apischeme

import (
	"maps"
	"slices"
	"sync"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	apiregistration "k8s.io/kube-aggregator/pkg/apis/apiregistration"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	apiregistrationv1beta1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1beta1"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	admissionregistrationv1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1"
	admissionregistrationv1beta1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1beta1"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsv1 "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsv1beta1 "k8s.io/kubernetes/pkg/apis/apps/v1beta1"
	appsv1beta2 "k8s.io/kubernetes/pkg/apis/apps/v1beta2"
	"k8s.io/kubernetes/pkg/apis/authentication"
	authenticationv1 "k8s.io/kubernetes/pkg/apis/authentication/v1"
	authenticationv1beta1 "k8s.io/kubernetes/pkg/apis/authentication/v1beta1"
	"k8s.io/kubernetes/pkg/apis/authorization"
	authorizationv1 "k8s.io/kubernetes/pkg/apis/authorization/v1"
	authorizationv1beta1 "k8s.io/kubernetes/pkg/apis/authorization/v1beta1"
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
	flowcontrolv1beta1 "k8s.io/kubernetes/pkg/apis/flowcontrol/v1beta1"
	flowcontrolv1beta2 "k8s.io/kubernetes/pkg/apis/flowcontrol/v1beta2"
	flowcontrolv1beta3 "k8s.io/kubernetes/pkg/apis/flowcontrol/v1beta3"
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
	rbacv1alpha1 "k8s.io/kubernetes/pkg/apis/rbac/v1alpha1"
	rbacv1beta1 "k8s.io/kubernetes/pkg/apis/rbac/v1beta1"
	"k8s.io/kubernetes/pkg/apis/resource"
	resourcev1 "k8s.io/kubernetes/pkg/apis/resource/v1"
	resourcev1beta1 "k8s.io/kubernetes/pkg/apis/resource/v1beta1"
	resourcev1beta2 "k8s.io/kubernetes/pkg/apis/resource/v1beta2"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	schedulingv1 "k8s.io/kubernetes/pkg/apis/scheduling/v1"
	schedulingv1beta1 "k8s.io/kubernetes/pkg/apis/scheduling/v1beta1"
	"k8s.io/kubernetes/pkg/apis/storage"
	storagev1 "k8s.io/kubernetes/pkg/apis/storage/v1"
	storagev1beta1 "k8s.io/kubernetes/pkg/apis/storage/v1beta1"
	"k8s.io/kubernetes/pkg/apis/storagemigration"
	storagemigrationv1 "k8s.io/kubernetes/pkg/apis/storagemigration/v1"
	storagemigrationv1beta1 "k8s.io/kubernetes/pkg/apis/storagemigration/v1beta1"
)

// group is the scheme of one API group, built on first use.
type group struct {
	once sync.Once
	s    *runtime.Scheme
	err  error
	add  []func(*runtime.Scheme) error
}

// groups maps each built-in API group to the AddToScheme functions of
// its scheme: internal types first, then the versions (conversions refer
// to both). The schemes of apps and networking.k8s.io also hold
// extensions/v1beta1, whose kinds moved to them.
var groups = map[string]*group{
	"":                             {add: fns(core.AddToScheme, corev1.AddToScheme)},
	"extensions":                   {add: fns(extensions.AddToScheme, extensionsv1beta1.AddToScheme)},
	"admissionregistration.k8s.io": {add: fns(admissionregistration.AddToScheme, admissionregistrationv1.AddToScheme, admissionregistrationv1beta1.AddToScheme)},
	"apps":                         {add: fns(apps.AddToScheme, appsv1.AddToScheme, appsv1beta1.AddToScheme, appsv1beta2.AddToScheme, extensionsv1beta1.AddToScheme)},
	"authentication.k8s.io":        {add: fns(authentication.AddToScheme, authenticationv1.AddToScheme, authenticationv1beta1.AddToScheme)},
	"authorization.k8s.io":         {add: fns(authorization.AddToScheme, authorizationv1.AddToScheme, authorizationv1beta1.AddToScheme)},
	"autoscaling":                  {add: fns(autoscaling.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme)},
	"batch":                        {add: fns(batch.AddToScheme, batchv1.AddToScheme, batchv1beta1.AddToScheme)},
	"certificates.k8s.io":          {add: fns(certificates.AddToScheme, certificatesv1.AddToScheme, certificatesv1beta1.AddToScheme)},
	"coordination.k8s.io":          {add: fns(coordination.AddToScheme, coordinationv1.AddToScheme, coordinationv1beta1.AddToScheme)},
	"discovery.k8s.io":             {add: fns(discovery.AddToScheme, discoveryv1.AddToScheme, discoveryv1beta1.AddToScheme)},
	"events.k8s.io":                {add: fns(core.AddToScheme, corev1.AddToScheme, events.AddToScheme, eventsv1.AddToScheme, eventsv1beta1.AddToScheme)},
	"flowcontrol.apiserver.k8s.io": {add: fns(flowcontrol.AddToScheme, flowcontrolv1.AddToScheme, flowcontrolv1beta1.AddToScheme, flowcontrolv1beta2.AddToScheme, flowcontrolv1beta3.AddToScheme)},
	"networking.k8s.io":            {add: fns(networking.AddToScheme, networkingv1.AddToScheme, networkingv1beta1.AddToScheme, extensionsv1beta1.AddToScheme)},
	"node.k8s.io":                  {add: fns(node.AddToScheme, nodev1.AddToScheme, nodev1beta1.AddToScheme)},
	"policy":                       {add: fns(policy.AddToScheme, policyv1.AddToScheme, policyv1beta1.AddToScheme)},
	"rbac.authorization.k8s.io":    {add: fns(rbac.AddToScheme, rbacv1.AddToScheme, rbacv1alpha1.AddToScheme, rbacv1beta1.AddToScheme)},
	"scheduling.k8s.io":            {add: fns(scheduling.AddToScheme, schedulingv1.AddToScheme, schedulingv1beta1.AddToScheme)},
	"storage.k8s.io":               {add: fns(storage.AddToScheme, storagev1.AddToScheme, storagev1beta1.AddToScheme)},
	"apiextensions.k8s.io":         {add: fns(apiextensions.AddToScheme, apiextensionsv1.AddToScheme, apiextensionsv1beta1.AddToScheme)},
	"apiregistration.k8s.io":       {add: fns(apiregistration.AddToScheme, apiregistrationv1.AddToScheme, apiregistrationv1beta1.AddToScheme)},
	"resource.k8s.io":              {add: fns(resource.AddToScheme, resourcev1.AddToScheme, resourcev1beta1.AddToScheme, resourcev1beta2.AddToScheme)},
	"storagemigration.k8s.io":      {add: fns(storagemigration.AddToScheme, storagemigrationv1.AddToScheme, storagemigrationv1beta1.AddToScheme)},
}

func fns(f ...func(*runtime.Scheme) error) []func(*runtime.Scheme) error { return f }

// For returns the scheme of an API group ("" is the core group), built on
// its first use and shared from then on (read-only); nil for a group
// kudo-render has no types of.
func For(g string) (*runtime.Scheme, error) {
	grp := groups[g]
	if grp == nil {
		return nil, nil
	}
	grp.once.Do(func() { grp.s, grp.err = grp.build() })
	return grp.s, grp.err
}

// build registers the group's types, conversions, defaults and
// validations in a new scheme.
func (grp *group) build() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range grp.add {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Groups lists the API groups For has a scheme of, sorted.
func Groups() []string { return slices.Sorted(maps.Keys(groups)) }
