package versions

import (
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// BenchmarkConvert converts one object of each kind KUDO packages use
// most, per object.
func BenchmarkConvert(b *testing.B) {
	for _, name := range []string{
		"policy/v1beta1 PodDisruptionBudget becomes policy/v1 (the corpus's zookeeper budget)",
		"rbac v1beta1 Role",
		"extensions/v1beta1 Deployment: its defaults (selector and labels from the template, no progress deadline, all revisions, a surge of 1) are written out",
		"apps/v1beta1 StatefulSet updated its pods on delete only",
		"a v1beta1 CRD with a top-level schema, printer columns and subresources for two versions, keeping unknown fields (the v1beta1 default)",
		"autoscaling/v2beta1 HorizontalPodAutoscaler: metric targets move into target",
	} {
		var in map[string]any
		for _, tc := range convertCases {
			if tc.reason == name {
				in = parse(b, tc.in)
			}
		}
		if in == nil {
			b.Fatalf("no case %q", name)
		}
		b.Run(in["apiVersion"].(string)+"/"+in["kind"].(string), func(b *testing.B) {
			for b.Loop() {
				if _, err := Convert(object.New(deepCopyMap(in)), kubeversion.Default); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("untouched apps/v1 Deployment", func(b *testing.B) {
		o := obj(b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
		for b.Loop() {
			Convert(o, kubeversion.Default)
		}
	})
}
