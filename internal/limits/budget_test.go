package limits_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
)

func TestBudgetCharge(t *testing.T) {
	b := limits.NewBudget(limits.Limits{RenderObjects: 10})
	if err := b.Charge(limits.RenderObjects, 7, "a"); err != nil {
		t.Fatal(err)
	}
	err := b.Charge(limits.RenderObjects, 4, "templates/b.yaml")
	var le *diag.LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "templates/b.yaml: render objects exceeds the limit of 10 objects (raise it with --max-render-objects or KUDO_RENDER_MAX_RENDER_OBJECTS)") {
		t.Fatalf("got %v", err)
	}
	if got := b.Spent(limits.RenderObjects); got != 7 {
		t.Errorf("a refused charge spent: %d, want 7", got)
	}
	if err := b.Charge(limits.RenderObjects, 3, "c"); err != nil {
		t.Errorf("what is left must still be spendable: %v", err)
	}
	if b.Left(limits.RenderObjects) != 0 || b.Left(limits.RenderBytes) != limits.Default().RenderBytes {
		t.Errorf("left: %d objects, %d bytes", b.Left(limits.RenderObjects), b.Left(limits.RenderBytes))
	}
}

func TestBudgetConcurrent(t *testing.T) {
	b := limits.NewBudget(limits.Limits{RenderValues: 1000})
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 50 {
		wg.Go(func() {
			for range 100 {
				if b.Charge(limits.RenderValues, 1, "x") == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if ok != 1000 || b.Spent(limits.RenderValues) != 1000 {
		t.Errorf("%d charges succeeded, %d spent; want 1000 of 5000", ok, b.Spent(limits.RenderValues))
	}
}

func TestNilBudget(t *testing.T) {
	var b *limits.Budget
	if err := b.Charge(limits.SchemaSteps, 1<<62, "x"); err != nil || b.Spent(limits.SchemaSteps) != 0 {
		t.Errorf("a nil budget bounds nothing: %v", err)
	}
}

func TestEveryMeterHasALimit(t *testing.T) {
	for m := limits.RenderBytes; m <= limits.SchemaSteps; m++ {
		if _, ok := limits.Lookup(m.Limit()); !ok {
			t.Errorf("meter %d: no limit %q in Table", m, m.Limit())
		}
	}
}

func ExampleBudget() {
	b := limits.NewBudget(limits.Limits{RenderBytes: 100})
	fmt.Println(b.Charge(limits.RenderBytes, 60, "templates/a.yaml"))
	fmt.Println(b.Charge(limits.RenderBytes, 60, "templates/b.yaml"))
	// Output:
	// <nil>
	// templates/b.yaml: total render output exceeds the limit of 100 bytes (raise it with --max-render-bytes or KUDO_RENDER_MAX_RENDER_BYTES)
}

func TestMeasure(t *testing.T) {
	v := map[string]any{"ab": []any{"xyz", int64(1), map[string]any{}}, "c": nil}
	if values, bytes := limits.Measure(v, 100); values != 6 || bytes != 6 {
		t.Errorf("got %d values, %d bytes; want 6, 6", values, bytes)
	}
	if values, _ := limits.Measure(v, 2); values != 3 {
		t.Errorf("past the maximum: %d values, want 3 (max+1)", values)
	}
	big := make([]any, 1_000_000)
	if values, _ := limits.Measure(big, 10); values != 11 {
		t.Errorf("a long list past the maximum: %d values", values)
	}
}

func TestChargeValue(t *testing.T) {
	b := limits.NewBudget(limits.Limits{RenderBytes: 10})
	if err := b.ChargeValue(map[string]any{"k": "12345"}, "x"); err != nil {
		t.Fatal(err)
	}
	err := b.ChargeValue(map[string]any{"k": "12345"}, "reference r")
	if err == nil || !strings.Contains(err.Error(), "reference r: total render output exceeds") {
		t.Errorf("got %v", err)
	}
	if b.Spent(limits.RenderValues) != 2 {
		t.Errorf("a refused value still spent values: %d", b.Spent(limits.RenderValues))
	}
}
