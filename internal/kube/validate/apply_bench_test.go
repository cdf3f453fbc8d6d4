package validate

import "testing"

// BenchmarkApplyTypes is what the first object validated costs a process
// to build the server-side apply schema of the served kinds.
func BenchmarkApplyTypes(b *testing.B) {
	for b.Loop() {
		if len(applyTypes()) == 0 {
			b.Fatal("no types")
		}
	}
}
