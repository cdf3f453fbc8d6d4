package kubetest_test

import (
	"errors"
	"fmt"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// A Result names the object and says what the server did with it.
func ExampleResult() {
	fmt.Println(kubetest.Result{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns1", Name: "inst-bootstrap"})
	fmt.Println(kubetest.Result{
		APIVersion: "policy/v1beta1", Kind: "PodDisruptionBudget", Namespace: "ns1", Name: "inst-pdb",
		Err: errors.New(`the server does not serve PodDisruptionBudget.policy in version policy/v1beta1`),
	})
	fmt.Println(kubetest.Result{
		APIVersion: "monitoring.coreos.com/v1", Kind: "ServiceMonitor", Namespace: "ns1", Name: "inst",
		Skipped: "no CustomResourceDefinition among the objects defines ServiceMonitor.monitoring.coreos.com",
	})
	// Output:
	// v1 ConfigMap ns1/inst-bootstrap: accepted
	// policy/v1beta1 PodDisruptionBudget ns1/inst-pdb: refused: the server does not serve PodDisruptionBudget.policy in version policy/v1beta1
	// monitoring.coreos.com/v1 ServiceMonitor ns1/inst: skipped: no CustomResourceDefinition among the objects defines ServiceMonitor.monitoring.coreos.com
}
