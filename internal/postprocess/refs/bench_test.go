package refs

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// benchObjects returns n Widgets holding one reference each (n references),
// a mix of: label selection, name with a transformer, a filter path, and a
// chain (a reference whose value is itself a reference, to a depth of
// log2 n).
func benchObjects(n int) []*object.Object {
	objs := make([]*object.Object, n)
	for i := range n {
		var ref map[string]any
		j := (i*7 + 3) % n
		switch i % 4 {
		case 0:
			ref = map[string]any{"kind": "Widget", "labels": map[string]any{"app": "bench", "idx": strconv.Itoa(j)}, "path": "{.spec.v}"}
		case 1:
			ref = map[string]any{"kind": "widgets", "apiVersion": "example.com/v1", "name": fmt.Sprintf("w-%d", j), "path": "{.spec.port}", "format-transformers": []any{"StringToInt"}}
		case 2:
			ref = map[string]any{"kind": "wdg", "name": fmt.Sprintf("w-%d", i/2), "path": "{.spec.r}"}
		case 3:
			ref = map[string]any{"kind": "Widget", "name": fmt.Sprintf("w-%d", j), "path": `{.spec.items[?(@.k=="b")].v}`, "format-transformers": []any{"ToString"}}
		}
		objs[i] = object.New(map[string]any{
			"apiVersion": "example.com/v1",
			"kind":       "Widget",
			"metadata": map[string]any{
				"name": fmt.Sprintf("w-%d", i), "namespace": "bench",
				"labels": map[string]any{"app": "bench", "idx": strconv.Itoa(i)},
			},
			"spec": map[string]any{
				"v":     fmt.Sprintf("value-%d", i),
				"port":  strconv.Itoa(1000 + i),
				"items": []any{map[string]any{"k": "a", "v": int64(1)}, map[string]any{"k": "b", "v": int64(i)}},
				"r":     map[string]any{"getValueFrom": ref},
			},
		})
	}
	objs = append(objs, object.New(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{
			"group": "example.com", "scope": "Namespaced",
			"names": map[string]any{"kind": "Widget", "plural": "widgets", "singular": "widget", "shortNames": []any{"wdg"}},
		},
	}))
	return objs
}

func copyObjects(objs []*object.Object) []*object.Object {
	out := make([]*object.Object, len(objs))
	for i, o := range objs {
		out[i] = o.DeepCopy()
	}
	return out
}

// benchResolve resolves n objects with n references per iteration; copying
// the input is not timed.
func benchResolve(n int) func(b *testing.B) {
	return func(b *testing.B) {
		src := benchObjects(n)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			objs := copyObjects(src)
			b.StartTimer()
			if err := Resolve(objs, nil, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/ref")
	}
}

// BenchmarkResolve1000 renders 1,000 objects with 1,000 references.
func BenchmarkResolve1000(b *testing.B) { benchResolve(1000)(b) }

// BenchmarkResolveScaling reports ns/ref at growing sizes: it stays flat
// when resolution is linear in the number of references.
func BenchmarkResolveScaling(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		b.Run(fmt.Sprintf("refs=%d", n), benchResolve(n))
	}
}

// TestResolveScaling times 1k and 4k references with testing.Benchmark
// and reports ns/ref. It only reports (timings are not assertions in unit
// tests); TestResolveWorkIsLinear is the check.
func TestResolveScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("timing report skipped in -short mode")
	}
	small, large := testing.Benchmark(benchResolve(1000)), testing.Benchmark(benchResolve(4000))
	perSmall := float64(small.T.Nanoseconds()) / float64(small.N) / 1000
	perLarge := float64(large.T.Nanoseconds()) / float64(large.N) / 4000
	t.Logf("1k refs: %.0f ns/ref (%v/op), 4k refs: %.0f ns/ref (%v/op), ratio %.2f (1.0 = linear, 4.0 = quadratic)",
		perSmall, small.T/time.Duration(small.N), perLarge, large.T/time.Duration(large.N), perLarge/perSmall)
}

// TestResolveWorkIsLinear counts the resolver's work (index probes, trie
// steps, candidate checks) at 1k and 4k references: the work per reference
// must not grow with the number of references. Deterministic, unlike
// timings.
func TestResolveWorkIsLinear(t *testing.T) {
	perRef := map[int]float64{}
	for _, n := range []int{1000, 4000} {
		r, err := resolve(benchObjects(n), nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		perRef[n] = float64(r.ops) / float64(n)
	}
	t.Logf("work per reference: %.2f at 1k, %.2f at 4k", perRef[1000], perRef[4000])
	if perRef[4000] > perRef[1000]*1.25 {
		t.Errorf("work per reference grows with the number of references: %.2f at 1k, %.2f at 4k", perRef[1000], perRef[4000])
	}
}

// TestBenchObjectsResolve checks the benchmark input resolves as intended.
func TestBenchObjectsResolve(t *testing.T) {
	objs := benchObjects(8)
	if err := Resolve(objs, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	want := []any{"value-3", int64(1002), int64(1002), "0", "value-7", int64(1006), "0", "4"}
	for i, w := range want {
		if got := object.Get(objs[i].Map, "spec", "r"); got != w {
			t.Errorf("w-%d spec.r: want %v (%T), got %v (%T)", i, w, w, got, got)
		}
	}
}
