package kinds_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/kinds"
)

func TestTable(t *testing.T) {
	seen := map[kinds.GK]bool{}
	for _, k := range kinds.Builtin {
		gk := kinds.GK{Group: k.Group, Kind: k.Kind}
		if seen[gk] {
			t.Errorf("%v listed twice", gk)
		}
		seen[gk] = true
		if k.Plural != strings.ToLower(k.Plural) || k.Plural == "" {
			t.Errorf("%v: plural %q must be lower case", gk, k.Plural)
		}
	}
}

func TestClusterScoped(t *testing.T) {
	cases := []struct {
		reason, group, kind string
		want                bool
	}{
		{"core namespaced", "", "ConfigMap", false},
		{"core cluster-scoped", "", "Namespace", true},
		{"rbac cluster-scoped", "rbac.authorization.k8s.io", "ClusterRole", true},
		{"removed but known", "policy", "PodSecurityPolicy", true},
		{"same kind, other group", "rbac.authorization.k8s.io", "Namespace", false},
		{"unknown kind", "example.com", "Widget", false},
	}
	for _, tc := range cases {
		if got := kinds.ClusterScoped(tc.group, tc.kind); got != tc.want {
			t.Errorf("%s: ClusterScoped(%q, %q) = %t", tc.reason, tc.group, tc.kind, got)
		}
	}
}

func ExampleLookup() {
	k, _ := kinds.Lookup("apps", "StatefulSet")
	fmt.Println(k.Plural, k.Short, k.Namespaced)
	// Output: statefulsets [sts] true
}
