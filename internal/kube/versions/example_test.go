package versions_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// A PodDisruptionBudget of a KUDO package written for Kubernetes 1.15,
// rendered for 1.37 and for 1.24.
func ExampleConvert() {
	pdb := func() *object.Object {
		return object.New(map[string]any{
			"apiVersion": "policy/v1beta1",
			"kind":       "PodDisruptionBudget",
			"metadata":   map[string]any{"name": "zk-pdb", "namespace": "data"},
			"spec": map[string]any{
				"selector":       map[string]any{"matchLabels": map[string]any{"app": "zk"}},
				"maxUnavailable": int64(1),
			},
		})
	}

	target, err := kubeversion.Parse("v1.37.1")
	if err != nil {
		panic(err)
	}
	o := pdb()
	note, err := versions.Convert(o, target)
	if err != nil {
		panic(err)
	}
	fmt.Println(note)
	out, _ := o.Marshal()
	fmt.Print(string(out))

	// 1.24 still serves policy/v1beta1: the object stays as written.
	o = pdb()
	note, err = versions.Convert(o, kubeversion.Version{Major: 1, Minor: 24})
	fmt.Println(note, err, o.APIVersion())

	// Output:
	// PodDisruptionBudget data/zk-pdb: converted policy/v1beta1 PodDisruptionBudget to policy/v1: policy/v1beta1 PodDisruptionBudget is removed in Kubernetes 1.25 (target 1.37)
	// apiVersion: policy/v1
	// kind: PodDisruptionBudget
	// metadata:
	//   name: zk-pdb
	//   namespace: data
	// spec:
	//   maxUnavailable: 1
	//   selector:
	//     matchLabels:
	//       app: zk
	// <nil> <nil> policy/v1beta1
}

// A PodSecurityPolicy has no successor: the render fails and says what to
// use instead.
func ExampleConvert_refusal() {
	psp := object.New(map[string]any{
		"apiVersion": "policy/v1beta1",
		"kind":       "PodSecurityPolicy",
		"metadata":   map[string]any{"name": "restricted"},
	})
	_, err := versions.Convert(psp, kubeversion.Default)
	fmt.Println(err)
	// Output:
	// PodSecurityPolicy restricted: policy/v1beta1 PodSecurityPolicy is removed in Kubernetes 1.25 (target 1.37), and nothing replaces it: use Pod Security Admission (the namespace labels pod-security.kubernetes.io/enforce, audit and warn) or a policy engine (Kyverno, Gatekeeper) instead, and remove the PodSecurityPolicy (or render for a Kubernetes version older than 1.25, which serves policy/v1beta1)
}

// The table, as docs/kubernetes-versions.md shows it.
func ExampleTable() {
	for _, r := range versions.Table() {
		if r.Removed == (kubeversion.Version{Major: 1, Minor: 25}) {
			fmt.Println(r.APIVersion, r.Kind, r.Successors)
		}
	}
	// Output:
	// autoscaling/v2beta1 HorizontalPodAutoscaler [{autoscaling/v2 1.23}]
	// batch/v1beta1 CronJob [{batch/v1 1.21}]
	// discovery.k8s.io/v1beta1 EndpointSlice [{discovery.k8s.io/v1 1.21}]
	// events.k8s.io/v1beta1 Event [{events.k8s.io/v1 1.19}]
	// node.k8s.io/v1beta1 RuntimeClass [{node.k8s.io/v1 1.20}]
	// policy/v1beta1 PodDisruptionBudget [{policy/v1 1.21}]
	// policy/v1beta1 PodSecurityPolicy []
}
