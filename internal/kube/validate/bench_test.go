package validate_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

const benchConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm-1
  namespace: data
  labels: {app: bench, tier: config}
data:
  key-1: value-1
  key-2: value-2
  key-3: value-3
`

// BenchmarkObject is what validating one object costs a render once its
// group's scheme is built: decoding into the API type, defaulting,
// conversion to the internal version and back, and the kind's
// validation (docs/performance.md, "Per object").
func BenchmarkObject(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"ConfigMap", benchConfigMap},
		{"Deployment", deployment},
	} {
		b.Run(c.name, func(b *testing.B) {
			objs := objects(b, c.src)
			v := validate.New(objs, validate.Options{})
			if ds := v.Object(objs[0]); len(ds) > 0 {
				b.Fatal(ds[0])
			}
			b.ReportAllocs()
			for b.Loop() {
				v.Object(objs[0])
			}
		})
	}
}

var _ = object.New
