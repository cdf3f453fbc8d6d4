package fn

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/benchinput"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// BenchmarkKRMZookeeperInstances runs the function on a ResourceList of
// 10, 100 and 1,000 kudo.dev/v1beta1 Instance items of the corpus's
// zookeeper (docs/performance.md, row 3; the time per op should grow
// linearly with the instances).
func BenchmarkKRMZookeeperInstances(b *testing.B) {
	dir := filepath.Join(testcorpus.Dir(b), "kudo-operators")
	for _, n := range []int{10, 100, 1000} {
		in := benchinput.ZookeeperInstances(n, "zookeeper")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchKRM(b, dir, in)
		})
	}
}

// BenchmarkKRMConfigMapsPassThrough runs the function on 50,000 small
// ConfigMaps that it passes through, plus one small render (row 4).
func BenchmarkKRMConfigMapsPassThrough(b *testing.B) {
	dir := b.TempDir()
	if err := benchinput.WritePackage(filepath.Join(dir, "small"), "small", benchinput.SmallPackage); err != nil {
		b.Fatal(err)
	}
	benchKRM(b, dir, benchinput.ConfigMaps(50_000, "small"))
}

// BenchmarkKRMPaths runs 1,000 ConfigMaps passed through (the smallest
// list the fast path takes) on the framework path and on the fast path:
// what the fast path saves.
func BenchmarkKRMPaths(b *testing.B) {
	dir := b.TempDir()
	if err := benchinput.WritePackage(filepath.Join(dir, "small"), "small", benchinput.SmallPackage); err != nil {
		b.Fatal(err)
	}
	in := benchinput.ConfigMaps(1000, "small")
	b.Run("framework", func(b *testing.B) { benchKRMPath(b, dir, in, frameworkPath) })
	b.Run("fast", func(b *testing.B) { benchKRMPath(b, dir, in, fastPath) })
}

func benchKRM(b *testing.B, dir string, in []byte) {
	benchKRMPath(b, dir, in, autoPath)
}

func benchKRMPath(b *testing.B, dir string, in []byte, path readPath) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		f := &Function{Dir: dir, path: path}
		if err := f.Run(bytes.NewReader(in), &out); err != nil {
			b.Fatal(err)
		}
	}
}
