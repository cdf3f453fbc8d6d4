package kubeversion_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
)

func ExampleParse() {
	v, err := kubeversion.Parse("v1.29.0-eks-1234")
	fmt.Println(v, err, v.Compare(kubeversion.Default))
	_, err = kubeversion.Parse("1.12")
	fmt.Println(err)
	// Output:
	// 1.29 <nil> -1
	// Kubernetes version "1.12": older than 1.13, the oldest version kudo-render supports
}
