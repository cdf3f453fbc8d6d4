package versions

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kudo-render/kudo-render/internal/kube/apischeme"
)

// schemeFor returns the scheme of the API group of apiVersion (package
// kube/apischeme): built on the first conversion into that group, so a
// render without removed API versions never pays for one, and a render
// that converts PodDisruptionBudgets only pays for the policy group. The
// schemes of apps and networking.k8s.io hold extensions/v1beta1 too.
func schemeFor(apiVersion string) (*runtime.Scheme, error) {
	group, _, _ := strings.Cut(apiVersion, "/")
	s, err := apischeme.For(group)
	if err == nil && s == nil {
		err = fmt.Errorf("no scheme for the API group of %s", apiVersion)
	}
	return s, err
}
