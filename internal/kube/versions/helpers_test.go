package versions

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// parse decodes one YAML document into plain values as kudo-render's
// template decoder types them (integers int64).
func parse(t testing.TB, text string) map[string]any {
	t.Helper()
	var x any
	if err := yaml.Unmarshal([]byte(strings.ReplaceAll(text, "\t", "    ")), &x); err != nil {
		t.Fatalf("%v in\n%s", err, text)
	}
	m, _ := plainYAML(x).(map[string]any)
	return m
}

func plainYAML(x any) any {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			t[k] = plainYAML(v)
		}
	case []any:
		for i, v := range t {
			t[i] = plainYAML(v)
		}
	case int:
		return int64(t)
	}
	return x
}

func obj(t testing.TB, text string) *object.Object { return object.New(parse(t, text)) }

func marshal(t testing.TB, o *object.Object) string {
	t.Helper()
	b, err := o.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkOutput checks what every converted object must be: plain values
// only, nothing left to convert, readable strictly as its new API version.
func checkOutput(t testing.TB, o *object.Object, target kubeversion.Version) {
	t.Helper()
	if o.Bool11 != nil {
		t.Errorf("Bool11 = %v; want nil", o.Bool11)
	}
	if p, bad := notPlain(o.Map, nil); bad != nil {
		t.Errorf("%s holds a %T: want only map[string]any, []any, string, int64, float64, bool", p, bad)
	}
	again := o.DeepCopy()
	if d, err := Convert(again, target); d != nil || err != nil || !reflect.DeepEqual(again.Map, o.Map) {
		t.Errorf("converting the output again: %v, %v", d, err)
	}
	s, err := schemeFor(o.APIVersion())
	if err != nil {
		return // no Go types for it (APIService)
	}
	gv, err := schema.ParseGroupVersion(o.APIVersion())
	if err != nil {
		t.Fatal(err)
	}
	if gvk := gv.WithKind(o.Kind()); s.Recognizes(gvk) {
		if _, ref, err := (&typed{s: s}).decode(o.Map, gvk); ref != nil || err != nil {
			t.Errorf("the output is no %s: %v %v", gvk, ref, err)
		}
	}
}

// notPlain returns the path and value of the first value in x that is not
// a plain value.
func notPlain(x any, at path) (path, any) {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			if p, bad := notPlain(v, at.with(k)); bad != nil {
				return p, bad
			}
		}
	case []any:
		for i, v := range t {
			if p, bad := notPlain(v, at.with(i)); bad != nil {
				return p, bad
			}
		}
	case nil, string, int64, float64, bool:
	default:
		return at, x
	}
	return nil, nil
}
