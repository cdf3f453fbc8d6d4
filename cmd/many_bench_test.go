package cmd

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/internal/benchinput"
)

// BenchmarkManyDocuments renders a template that writes 10,000 and
// 100,000 small documents (docs/performance.md; time per op should grow
// linearly).
func BenchmarkManyDocuments(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		dir := filepath.Join(b.TempDir(), "many")
		if err := benchinput.WritePackage(dir, "many", benchinput.ManyDocuments(n)); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := run("render", dir, "--name", "many", "--target", "plain"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
