package kube

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestBuiltinTypes: the types registered one group version at a time are
// those of one scheme with every built-in group, and other group versions
// have none.
func TestBuiltinTypes(t *testing.T) {
	all := runtime.NewScheme()
	for _, g := range apiGroups {
		if err := g.add(all); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range apiGroups {
		if got, want := builtinTypes(g.gv), all.KnownTypes(g.gv); !reflect.DeepEqual(got, want) || len(got) == 0 {
			t.Errorf("%s: %d types, want the %d of the full scheme", g.gv, len(got), len(want))
		}
	}
	if got := builtinTypes(schema.GroupVersion{Group: "apps", Version: "v1"})["Deployment"]; got != reflect.TypeFor[appsv1.Deployment]() {
		t.Errorf("apps/v1 Deployment is %v", got)
	}
	if got := builtinTypes(schema.GroupVersion{Group: "example.com", Version: "v1"}); got != nil {
		t.Errorf("a custom group has types: %v", got)
	}
}
