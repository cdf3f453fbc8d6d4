package engine_test

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestProvenancePerObject changes each parameter of every corpus package
// (50 at most, spread) in turn (a number by 2, a boolean flipped, a quantity doubled, any other
// text extended) and renders again: exactly the objects whose content
// changed differ in bytes; the others keep every byte, their
// processed-by marker included (issue 33.2: Argo CD reported all 6
// zookeeper objects OutOfSync after NODE_COUNT 3 -> 5).
func TestProvenancePerObject(t *testing.T) {
	ops := testcorpus.Operators(t)
	mixed := 0
	for _, name := range slices.Sorted(maps.Keys(ops)) {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.LoadDir(ops[name])
			if err != nil {
				t.Fatal(err)
			}
			before := renderBytes(t, b, nil)
			tried, kept := 0, 0
			for _, p := range spread(b.Params, 50) {
				v, ok := otherValue(p)
				if !ok {
					continue
				}
				after, err := renderBytesErr(b, map[string]any{p.Name: v})
				if err != nil {
					continue // a value the package refuses
				}
				tried++
				changed, same := compareRenders(t, fmt.Sprintf("%s=%s", p.Name, v), before, after)
				if changed > 0 && same > 0 {
					mixed++
				}
				kept += same
			}
			if tried == 0 {
				t.Errorf("no parameter of %s could be changed", name)
			}
			t.Logf("%d parameter changes rendered, %d objects kept every byte", tried, kept)
		})
	}
	if mixed == 0 {
		t.Error("no parameter change left some objects unchanged: the test shows nothing")
	}
}

// TestProvenanceZookeeperNodeCount: the case, NODE_COUNT 3 -> 5
// changes the StatefulSet and the validation Job (a hook, which lists the
// servers) alone; the two ConfigMaps, two Services and the
// PodDisruptionBudget keep every byte.
func TestProvenanceZookeeperNodeCount(t *testing.T) {
	b, err := bundle.LoadDir(testcorpus.Operators(t)["zookeeper"])
	if err != nil {
		t.Fatal(err)
	}
	before, after := renderBytes(t, b, nil), renderBytes(t, b, map[string]any{"NODE_COUNT": "5"})
	var differ []string
	for _, k := range slices.Sorted(maps.Keys(before)) {
		if before[k].yaml != after[k].yaml {
			differ = append(differ, k)
		}
	}
	if want := []string{"Job/ns1/inst-validation", "StatefulSet/ns1/inst-zookeeper"}; !slices.Equal(differ, want) || len(before) != 7 {
		t.Errorf("objects that differ after NODE_COUNT 3 -> 5: %v of %d, want %v of 7", differ, len(before), want)
	}
}

// spread is at most n parameters of ps, evenly spaced (kafka has 200:
// each one changed is a render).
func spread(ps []*bundle.Param, n int) []*bundle.Param {
	if len(ps) <= n {
		return ps
	}
	out := make([]*bundle.Param, n)
	for i := range out {
		out[i] = ps[i*len(ps)/n]
	}
	return out
}

// compareRenders checks that an object differs in bytes exactly when its
// content (without kudo-render's digests) differs, and counts those that
// changed and those kept, among the objects of both renders.
func compareRenders(t *testing.T, change string, before, after map[string]rendered) (changed, kept int) {
	t.Helper()
	for k, a := range before {
		b, ok := after[k]
		if !ok {
			continue
		}
		sameContent := a.content == b.content
		switch {
		case sameContent && a.yaml != b.yaml:
			t.Errorf("%s: %s did not change, but its bytes did:\n%s\n---\n%s", change, k, a.yaml, b.yaml)
		case !sameContent && a.yaml == b.yaml:
			t.Errorf("%s: %s changed, but not its bytes", change, k)
		case sameContent:
			kept++
		default:
			changed++
		}
	}
	return changed, kept
}

// otherValue is a valid-looking other value for a parameter with a
// default: a number plus 2, a boolean flipped, a quantity doubled, other
// text extended.
func otherValue(p *bundle.Param) (string, bool) {
	d, ok := p.Default.(string)
	if !ok || d == "" {
		return "", false
	}
	if n, err := strconv.Atoi(d); err == nil {
		return strconv.Itoa(n + 2), true
	}
	if bv, err := strconv.ParseBool(d); err == nil {
		return strconv.FormatBool(!bv), true
	}
	if q, err := resource.ParseQuantity(d); err == nil {
		q.Add(q)
		return q.String(), true
	}
	return d + "x", true
}

// rendered is an object's YAML, and its YAML without kudo-render's two
// digest annotations (its content).
type rendered struct{ yaml, content string }

func renderBytes(t *testing.T, b *bundle.Bundle, params map[string]any) map[string]rendered {
	t.Helper()
	out, err := renderBytesErr(b, params)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// renderBytesErr renders b's deploy plan and returns each object by
// digest.Key.
func renderBytesErr(b *bundle.Bundle, params map[string]any) (map[string]rendered, error) {
	objs, err := engine.Render(engine.Request{Bundle: b, Instance: render.Instance{Name: "inst", Namespace: "ns1"}, Params: params})
	if err != nil {
		return nil, err
	}
	out := map[string]rendered{}
	for _, o := range objs {
		data, err := o.Marshal()
		if err != nil {
			return nil, err
		}
		c := o.DeepCopy()
		ann := c.MapAt("metadata", "annotations")
		delete(ann, digest.AnnResourceVersion)
		delete(ann, digest.AnnProcessedBy)
		content, err := c.Marshal()
		if err != nil {
			return nil, err
		}
		out[digest.Key(o)] = rendered{string(data), string(content)}
	}
	return out, nil
}
