package plan_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/plan"
)

// TestScheduleIgnoresPipesOfOtherPlans: only Toggle tasks are taken from
// plans that are not rendered, so their Pipe tasks must not matter. KUDO
// itself lets a later step's artifact name win when a plan runs the same
// Pipe task twice.
func TestScheduleIgnoresPipesOfOtherPlans(t *testing.T) {
	b := &bundle.Bundle{
		Tasks: []*bundle.Task{task("app", bundle.KindApply), pipeTask("gen", "cert")},
		Plans: []*bundle.Plan{
			newPlan("deploy", serial, phase("main", serial, step("app", "app"))),
			newPlan("regen", serial, phase("main", serial, step("one", "gen"), step("two", "gen"))),
		},
	}
	if _, err := plan.Schedule(b, []string{"deploy"}, nil, plan.Options{Instance: "inst"}); err != nil {
		t.Errorf("Schedule(deploy): want no error from the plan that is not rendered, got %v", err)
	}
}
