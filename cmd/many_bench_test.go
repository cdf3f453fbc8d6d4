package cmd

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/benchinput"
)

// BenchmarkManyDocuments renders a template that writes 10,000 and
// 100,000 small documents (docs/performance.md; time per op should grow
// linearly). The output goes to io.Discard, as a process's goes to a pipe:
// a bytes.Buffer growing to 57 MB took about 30% of the time measured.
func BenchmarkManyDocuments(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		dir := filepath.Join(b.TempDir(), "many")
		if err := benchinput.WritePackage(dir, "many", benchinput.ManyDocuments(n)); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := New(strings.NewReader(""), io.Discard, io.Discard)
				c.SetArgs([]string{"render", dir, "--name", "many", "--target", "plain"})
				if err := c.Execute(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
