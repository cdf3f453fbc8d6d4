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

// properties is a parameter schema of n string properties P0...: n+2
// subschemas (the root, properties, and one per property).
func properties(n int) []byte {
	props := map[string]any{}
	for i := range n {
		props[fmt.Sprintf("P%d", i)] = map[string]any{"type": "string"}
	}
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	return data
}

// TestCompileCharged: compiling a schema is charged to the render's
// budget before it is done (the library's work is quadratic in the
// subschemas), and a schema too large for the budget is refused naming
// it, its subschemas and the flag.
func TestCompileCharged(t *testing.T) {
	b := &bundle.Bundle{Name: "h", Version: "1", ParamsSchema: properties(2000), Params: []*bundle.Param{{Name: "P0"}}}
	budget := limits.NewBudget(limits.Limits{SchemaSteps: 1_000_000})
	_, err := ResolveParamsWithin(b, map[string]any{"P0": "x"}, budget)
	want := "params.schema.json (compiling 2002 subschemas): schema validation work exceeds the limit of 1000000 steps (raise it with --max-schema-steps or KUDO_RENDER_MAX_SCHEMA_STEPS)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if spent := budget.Spent(limits.SchemaSteps); spent != 0 {
		t.Errorf("a refused compilation spent %d steps", spent)
	}

	// the same bundle with a larger budget: not refused for good
	budget = limits.NewBudget(limits.Limits{})
	if _, err := ResolveParamsWithin(b, map[string]any{"P0": "x"}, budget); err != nil {
		t.Fatal(err)
	}
	if spent := budget.Spent(limits.SchemaSteps); spent < 2002*2003/2 {
		t.Errorf("spent %d steps, less than the compilation", spent)
	}
}

// TestCompiledOnce: the instances of one package validate against one
// compilation, charged once; each still charges its own validation.
func TestCompiledOnce(t *testing.T) {
	b := &bundle.Bundle{Name: "h", Version: "1", ParamsSchema: properties(3000), Params: []*bundle.Param{{Name: "P0"}, {Name: "P1"}}}
	budget := limits.NewBudget(limits.Limits{})
	if _, err := ResolveParamsWithin(b, map[string]any{"P0": "x"}, budget); err != nil {
		t.Fatal(err)
	}
	first := budget.Spent(limits.SchemaSteps)
	for i := range 20 {
		if _, err := ResolveParamsWithin(b, map[string]any{"P1": strings.Repeat("y", i)}, budget); err != nil {
			t.Fatal(err)
		}
	}
	if more := budget.Spent(limits.SchemaSteps) - first; more >= first/10 || more == 0 {
		t.Errorf("20 more instances spent %d steps, the first (with the compilation) %d", more, first)
	}
	_, err := ResolveParamsWithin(b, map[string]any{"P1": []any{"z"}}, budget)
	if err == nil || !strings.Contains(err.Error(), "P1: got array, want string") {
		t.Errorf("a later instance is still validated: %v", err)
	}
}
