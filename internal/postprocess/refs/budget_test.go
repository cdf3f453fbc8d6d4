package refs

import (
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// chain is n objects, each of whose spec holds two references to the
// spec of the one before: the last spec is 2^(n-1) copies of the first.
func chain(n, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t0}\nspec: {v: %s}\n", strings.Repeat("x", size))
	for i := 1; i < n; i++ {
		ref := fmt.Sprintf("{getValueFrom: {kind: Thing, apiVersion: example.com/v1, name: t%d, path: '{.spec}'}}", i-1)
		fmt.Fprintf(&b, "---\napiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t%d}\nspec: {a: %s, b: %s}\n", i, ref, ref)
	}
	return b.String()
}

// TestReferencesWithinBudget: references to references that double the
// objects at every step are charged to the render's budget before they
// copy: resolution stops with the budget's error, naming a reference,
// and leaves the objects as they were.
func TestReferencesWithinBudget(t *testing.T) {
	objs := decodeStream(t, chain(30, 1000)) // 2^29 KB at the end
	before := deepCopyAll(objs)
	budget := limits.NewBudget(limits.Limits{RenderBytes: 1 << 20})
	err := Resolve(objs, nil, Options{Budget: budget})
	if err == nil || !strings.Contains(err.Error(), "getValueFrom {kind: Thing") || !strings.Contains(err.Error(), "total render output exceeds the limit of 1048576 bytes (raise it with --max-render-bytes") {
		t.Fatalf("got %v", err)
	}
	if strings.Count(err.Error(), "exceeds") != 1 {
		t.Errorf("the budget's error is reported once, got:\n%s", err)
	}
	assert.Check(t, gtcmp.DeepEqual(before, mapsOf(objs)), "objects changed on error")
	if spent := budget.Spent(limits.RenderBytes); spent > 1<<20 {
		t.Errorf("spent %d bytes, more than the budget", spent)
	}
}

// TestReferencesCharged: what references copy is charged, values and
// bytes.
func TestReferencesCharged(t *testing.T) {
	objs := decodeStream(t, chain(4, 100)) // 1 + 2 + 4 copies of spec (2 values, 101 bytes)
	budget := limits.NewBudget(limits.Limits{})
	if err := Resolve(objs, nil, Options{Budget: budget}); err != nil {
		t.Fatal(err)
	}
	if v, b := budget.Spent(limits.RenderValues), budget.Spent(limits.RenderBytes); v < 2*7 || b < 101*7 {
		t.Errorf("spent %d values and %d bytes, want at least %d and %d", v, b, 2*7, 101*7)
	}
}
