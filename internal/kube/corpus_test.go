package kube_test

import (
	"encoding/json"
	"reflect"
	"testing"

	sigsjson "sigs.k8s.io/json"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestCorpusDecodesStrictly renders every package of the corpus and
// decodes each object of a built-in kind strictly into its API type, as
// a strict API server does: no unknown field, no field of the wrong type.
func TestCorpusDecodesStrictly(t *testing.T) {
	goTypes := kube.GoTypes(t)
	for name, dir := range testcorpus.Operators(t) {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			objs, err := engine.Render(engine.Request{Bundle: b, Instance: render.Instance{Name: "inst", Namespace: "ns1"}})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, o := range objs {
				typ := goTypes[[2]string{o.APIVersion(), o.Kind()}]
				if typ == nil {
					continue
				}
				data, err := json.Marshal(o.Map)
				if err != nil {
					t.Fatal(err)
				}
				v := reflect.New(typ).Interface()
				strict, err := sigsjson.UnmarshalStrict(data, v, sigsjson.DisallowUnknownFields, sigsjson.DisallowDuplicateFields)
				if err != nil || len(strict) > 0 {
					t.Errorf("%s %s: does not decode strictly: %v %v", o.Kind(), o.Name(), err, strict)
				}
				checked++
			}
			if checked == 0 {
				t.Error("no object of a built-in kind")
			}
		})
	}
}
