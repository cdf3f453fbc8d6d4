package fn

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// instanceItems is n Instance items of the webapp package.
func instanceItems(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "- {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: i%d, namespace: web}, spec: {operatorVersion: {name: webapp-1.0.0}}}\n", i)
	}
	return b.String()
}

// TestKRMBudget: the Instance items of a ResourceList are bounded by the
// render's budget of instances before any is read, and the render of the
// others shares one budget with the items the function decodes.
func TestKRMBudget(t *testing.T) {
	dir := "testdata/krm/instance"
	run := func(lim limits.Limits, items string) error {
		f := &Function{Dir: dir, Limits: lim}
		return f.Run(strings.NewReader(krmList(items, instancesConfig)), &bytes.Buffer{})
	}
	err := run(limits.Limits{RenderInstances: 5}, instanceItems(6))
	if err == nil || !strings.Contains(err.Error(), "the ResourceList (6 instances): render instances exceeds the limit of 5 instances (raise it with --max-render-instances") {
		t.Errorf("six instances over a budget of five: got %v", err)
	}
	if err := run(limits.Limits{RenderInstances: 6}, instanceItems(6)); err != nil {
		t.Errorf("six instances within a budget of six: %v", err)
	}
	// 6 decoded items of 9 values each
	err = run(limits.Limits{RenderValues: 40}, instanceItems(6))
	if err == nil || !strings.Contains(err.Error(), "items (line 8 of the ResourceList): total render values exceeds the limit of 40 values") {
		t.Errorf("the items the function decodes are charged: got %v", err)
	}
	// The instances render side by side: the budget runs out in the
	// parameters of one of them or in a task's template, whichever
	// charges first, never in the items, which fit.
	err = run(limits.Limits{RenderValues: 80}, instanceItems(6))
	if err == nil || !strings.Contains(err.Error(), "task app") && !strings.Contains(err.Error(), "the parameters of instance") ||
		strings.Contains(err.Error(), "of the ResourceList") || !strings.Contains(err.Error(), "total render values exceeds the limit of 80 values") {
		t.Errorf("the render spends what the items left: got %v", err)
	}
}
