package tmpl_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
)

// TestRenderBudget: templates each under --max-template-bytes are bounded
// together by the render's budget, in bytes, values and objects.
func TestRenderBudget(t *testing.T) {
	cm := func(n int) string {
		return `{{ range until ` + strconv.Itoa(n) + ` }}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: x}
data: {a: "{{ repeat 1000 "x" }}"}
{{ end }}`
	}
	t.Run("bytes", func(t *testing.T) {
		b := limits.NewBudget(limits.Limits{RenderBytes: 300 << 10})
		tp, err := tmpl.Parse("templates/cm.yaml", []byte(cm(100))) // about 110 KB
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if _, err := tp.ExecuteWithin(nil, b); err != nil {
				t.Fatalf("execution %d: %v", i, err)
			}
		}
		if spent := b.Spent(limits.RenderBytes); spent < 200_000 || spent > 250_000 {
			t.Errorf("two executions spent %d bytes, want what they wrote (no step left over)", spent)
		}
		_, err = tp.ExecuteWithin(nil, b)
		if err == nil || !strings.Contains(err.Error(), "templates/cm.yaml:") || !strings.Contains(err.Error(), "--max-render-bytes") {
			t.Errorf("the third execution passes the budget: got %v", err)
		}
	})
	t.Run("values", func(t *testing.T) {
		b := limits.NewBudget(limits.Limits{RenderValues: 2500})
		tp, _ := tmpl.Parse("templates/cm.yaml", []byte(cm(200))) // 1,400 values
		out, err := tp.ExecuteWithin(nil, b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tmpl.Decode(out); err != nil {
			t.Fatal(err)
		}
		if got := b.Spent(limits.RenderValues); got != 1400 {
			t.Errorf("spent %d values, want 1400", got)
		}
		if got := b.Spent(limits.RenderObjects); got != 200 {
			t.Errorf("spent %d objects, want 200", got)
		}
		out, _ = tp.ExecuteWithin(nil, b)
		_, err = tmpl.Decode(out)
		if err == nil || !strings.Contains(err.Error(), "total render values exceeds the limit of 2500 values (raise it with --max-render-values") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("objects", func(t *testing.T) {
		b := limits.NewBudget(limits.Limits{RenderObjects: 150})
		tp, _ := tmpl.Parse("templates/cm.yaml", []byte(cm(200)))
		out, _ := tp.ExecuteWithin(nil, b)
		if _, err := tmpl.Decode(out); err == nil || !strings.Contains(err.Error(), "templates/cm.yaml: render objects exceeds the limit of 150 objects") {
			t.Errorf("got %v", err)
		}
	})
}
