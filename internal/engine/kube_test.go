package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
)

// TestValidationWarningsAreNotRefusals: a value the API server accepts
// but stores otherwise (an int32 too large, which it cuts) renders, with a
// warning at its template; a refusal beside it still fails the render.
func TestValidationWarningsAreNotRefusals(t *testing.T) {
	pkg := func(extra string) fstest.MapFS {
		return fstest.MapFS{
			"framework.yaml":   {Data: []byte("name: p\nversion: \"1\"\ntasks:\n  all: {resources: [p.yaml]}\nplans:\n  deploy:\n    steps:\n      - {name: all, tasks: [all]}\n")},
			"templates/p.yaml": {Data: []byte("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 2147483648\n" + extra)},
		}
	}
	for _, c := range []struct {
		reason, extra string
		refused       bool
	}{
		{reason: "a warning alone renders"},
		{reason: "a refusal beside it fails", extra: "preemptionPolicy: Sometimes\n", refused: true},
	} {
		t.Run(c.reason, func(t *testing.T) {
			b, err := bundle.Load(pkg(c.extra), "p")
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			opts := engine.Options{Warn: func(m string) { warnings = append(warnings, m) }}
			_, err = engine.RenderWith(opts, engine.Request{Bundle: b, Instance: render.Instance{Name: "p", Namespace: "ns"}})
			if (err != nil) != c.refused {
				t.Fatalf("refused %v, want %v: %v", err != nil, c.refused, err)
			}
			if !c.refused && (len(warnings) != 1 || !strings.Contains(warnings[0], "templates/p.yaml:4") || !strings.Contains(warnings[0], "the API server accepts it and stores -2147483648")) {
				t.Errorf("warnings %q", warnings)
			}
			if c.refused && strings.Contains(err.Error(), "stores -2147483648") {
				t.Errorf("the warning is among the refusals: %v", err)
			}
		})
	}
}
