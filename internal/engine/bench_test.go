package engine_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// BenchmarkLoadKafka loads the kafka package (28 templates, 200 params).
func BenchmarkLoadKafka(b *testing.B) {
	dir := testcorpus.Operators(b)["kafka"]
	for b.Loop() {
		if _, err := bundle.LoadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderKafka renders kafka's deploy plan (and the Toggle state
// of its other plans) from a loaded bundle, through serialisation.
func BenchmarkRenderKafka(b *testing.B) {
	bun, err := bundle.LoadDir(testcorpus.Operators(b)["kafka"])
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		objs, err := engine.Render(engine.Request{Bundle: bun, Instance: render.Instance{Name: "inst", Namespace: "ns1"}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := object.Stream(objs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderKafkaValidation renders kafka's deploy plan with and
// without the validation against the Kubernetes API, to show what
// validation adds to a render.
func BenchmarkRenderKafkaValidation(b *testing.B) {
	bun, err := bundle.LoadDir(testcorpus.Operators(b)["kafka"])
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts engine.Options
	}{
		{"validated", engine.Options{}},
		{"not-validated", engine.Options{NoValidate: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				items, err := engine.RenderWith(c.opts, engine.Request{Bundle: bun, Instance: render.Instance{Name: "inst", Namespace: "ns1"}})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := object.Stream(engine.Objects(items)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
