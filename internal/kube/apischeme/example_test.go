package apischeme_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kudo-render/kudo-render/internal/kube/apischeme"
)

func Example() {
	s, err := apischeme.For("policy")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Recognizes(schema.GroupVersionKind{Group: "policy", Version: "v1beta1", Kind: "PodDisruptionBudget"}))
	none, _ := apischeme.For("example.com")
	fmt.Println(none == nil)
	// Output:
	// true
	// true
}
