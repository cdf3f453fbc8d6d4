package schema

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
)

// patterns is a parameter schema whose parameter X must match n patterns
// (allOf), none of which a long run of "a" matches.
func patterns(n int) []byte {
	all := make([]any, n)
	for i := range all {
		all[i] = map[string]any{"pattern": fmt.Sprintf("^a*%d$", i)}
	}
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"X": map[string]any{"type": "string", "allOf": all}}})
	return data
}

// TestSchemaStepsBudget: many patterns against a large value are charged
// to the render's budget of steps (a byte of the string per subschema)
// and stop with its error, naming the schema and the flag.
func TestSchemaStepsBudget(t *testing.T) {
	b := &bundle.Bundle{Name: "h", Version: "1", ParamsSchema: patterns(5000), Params: []*bundle.Param{{Name: "X"}}}
	value := strings.Repeat("a", 1<<20)
	budget := limits.NewBudget(limits.Limits{SchemaSteps: 50 << 20})
	_, err := ResolveParamsWithin(b, map[string]any{"X": value}, budget)
	if err == nil || !strings.Contains(err.Error(), "params.schema.json: schema validation work exceeds the limit of 52428800 steps (raise it with --max-schema-steps or KUDO_RENDER_MAX_SCHEMA_STEPS)") {
		t.Fatalf("got %v", err)
	}
	if spent := budget.Spent(limits.SchemaSteps); spent > 50<<20 {
		t.Errorf("spent %d steps, more than the budget", spent)
	}
}

// TestLongValueMessages: a long value that fails many patterns is quoted
// in each message only as far as a message shows it: the violations do
// not hold (nor the validation allocate) a copy per pattern.
func TestLongValueMessages(t *testing.T) {
	b := &bundle.Bundle{Name: "h", Version: "1", ParamsSchema: patterns(50), Params: []*bundle.Param{{Name: "X"}}}
	value := strings.Repeat("a", 1<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ResolveParamsWithin(b, map[string]any{"X": value}, limits.NewBudget(limits.Limits{}))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), `X: 'aaaa`) || !strings.Contains(err.Error(), `...`) {
		t.Fatalf("got %v", err)
	}
	if len(err.Error()) > 50*400 {
		t.Errorf("the message is %d bytes long", len(err.Error()))
	}
	// the library copies the string once per subschema ([]byte(str)); a
	// quoted copy per message would be 50 x 3 x 1 MiB more
	t.Logf("validation allocated %d MiB", (after.TotalAlloc-before.TotalAlloc)>>20)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("validation allocated %d MiB", alloc>>20)
	}
}
