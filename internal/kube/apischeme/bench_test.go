package apischeme

import "testing"

// BenchmarkBuildScheme is what the first object of a group costs a
// process beyond its own conversion or validation: registering the types,
// conversions, defaults and validations of the group's versions; all is
// every group.
func BenchmarkBuildScheme(b *testing.B) {
	for _, g := range []string{"", "policy", "apps", "apiextensions.k8s.io"} {
		b.Run("group="+g, func(b *testing.B) {
			for b.Loop() {
				if _, err := groups[g].build(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			for _, g := range groups {
				if _, err := g.build(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
