package engine_test

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/render"
)

// fanOut is a KUDO package p<level> whose deploy plan installs p<level+1>
// six times (KudoOperator tasks), then applies a ConfigMap.
func fanOut(t *testing.T, level, depth int) *bundle.Bundle {
	return fanOutTo(t, level, depth, func(int) string { return fmt.Sprintf("../p%d", level+1) })
}

// fanOutTo is fanOut whose k-th task installs the package pkg(k).
func fanOutTo(t *testing.T, level, depth int, pkg func(k int) string) *bundle.Bundle {
	t.Helper()
	var tasks, steps strings.Builder
	if level < depth {
		for k := range 6 {
			fmt.Fprintf(&tasks, "  - {name: d%d, kind: KudoOperator, spec: {package: %s}}\n", k, pkg(k))
			fmt.Fprintf(&steps, "          - {name: d%d, tasks: [d%d]}\n", k, k)
		}
	}
	op := fmt.Sprintf("apiVersion: kudo.dev/v1beta1\nname: p%d\noperatorVersion: 0.1.0\ntasks:\n%s  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n      - name: main\n        strategy: serial\n        steps:\n%s          - {name: app, tasks: [app]}\n", level, tasks.String(), steps.String())
	b, err := bundle.Load(fstest.MapFS{
		"operator.yaml":     {Data: []byte(op)},
		"params.yaml":       {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters: []\n")},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n")},
	}, fmt.Sprintf("p%d", level))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDependencyInstancesBudget: a dependency graph that expands to 6^8
// instances is refused by the render's budget of instances as soon as it
// is spent, naming the task and the flag.
func TestDependencyInstancesBudget(t *testing.T) {
	const depth = 8
	bundles := make([]*bundle.Bundle, depth+1)
	for i := range bundles {
		bundles[i] = fanOut(t, i, depth)
	}
	var resolve engine.DependencyResolver
	resolve = func(task *bundle.Task) (*bundle.Bundle, engine.DependencyResolver, error) {
		var n int
		fmt.Sscanf(task.Operator.Package, "../p%d", &n)
		return bundles[n], resolve, nil
	}
	budget := limits.NewBudget(limits.Limits{RenderInstances: 100})
	_, err := engine.RenderWith(engine.Options{Budget: budget}, engine.Request{Bundle: bundles[0], Instance: render.Instance{Name: "i", Namespace: "ns"}, Dependencies: resolve})
	if err == nil || !strings.Contains(err.Error(), `(KudoOperator) of instance`) || !strings.Contains(err.Error(), "render instances exceeds the limit of 100 instances (raise it with --max-render-instances") {
		t.Fatalf("got %v", err)
	}
	if n := budget.Spent(limits.RenderInstances); n != 100 {
		t.Errorf("spent %d instances, want 100", n)
	}
}

// TestDependencyLoadsBudget: a graph of 6^5 different packages is loaded
// only as far as the render counts its instances (each counted before its
// package is loaded, its own dependencies prefetched then): loading does
// not run through the graph before the budget bites.
func TestDependencyLoadsBudget(t *testing.T) {
	const depth, instances = 5, 100
	var loads atomic.Int64
	var resolve engine.DependencyResolver
	resolve = func(task *bundle.Task) (*bundle.Bundle, engine.DependencyResolver, error) {
		loads.Add(1)
		var level int
		fmt.Sscanf(task.Operator.Package, "../l%d", &level)
		return fanOutTo(t, level, depth, func(k int) string { return fmt.Sprintf("../l%d-%s-%d", level+1, task.Operator.Package[3:], k) }), resolve, nil
	}
	top := fanOutTo(t, 0, depth, func(k int) string { return fmt.Sprintf("../l1-%d", k) })
	budget := limits.NewBudget(limits.Limits{RenderInstances: instances})
	_, err := engine.RenderWith(engine.Options{Budget: budget}, engine.Request{Bundle: top, Instance: render.Instance{Name: "i", Namespace: "ns"}, Dependencies: resolve})
	if err == nil || !strings.Contains(err.Error(), "render instances exceeds the limit of 100 instances") {
		t.Fatalf("got %v", err)
	}
	if n := loads.Load(); n > 6*instances {
		t.Errorf("%d packages loaded for %d instances", n, instances)
	}
}

// TestRequestsBudget: requests count as instances, charged before any is
// rendered; the objects of every request count together.
func TestRequestsBudget(t *testing.T) {
	b := fanOut(t, 1, 1)
	reqs := make([]engine.Request, 30)
	for i := range reqs {
		reqs[i] = engine.Request{Bundle: b, Instance: render.Instance{Name: fmt.Sprintf("i%d", i), Namespace: "ns"}}
	}
	_, err := engine.RenderWith(engine.Options{Budget: limits.NewBudget(limits.Limits{RenderInstances: 20})}, reqs...)
	if err == nil || !strings.Contains(err.Error(), "30 instances requested: render instances exceeds the limit of 20 instances") {
		t.Errorf("got %v", err)
	}
	_, err = engine.RenderWith(engine.Options{Budget: limits.NewBudget(limits.Limits{RenderObjects: 20})}, reqs...)
	if err == nil || !strings.Contains(err.Error(), "templates/cm.yaml: render objects exceeds the limit of 20 objects") {
		t.Errorf("got %v", err)
	}
}

// TestParametersBudget: the parameters each instance resolves, and the
// copy of them each task's templates get, are charged to the render's
// values: 30 instances of a package whose map default has 10,000 entries
// copy 600,000 values.
func TestParametersBudget(t *testing.T) {
	var m strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&m, "      k%d: v\n", i)
	}
	b, err := bundle.Load(fstest.MapFS{
		"operator.yaml":     {Data: []byte("apiVersion: kudo.dev/v1beta1\nname: m\noperatorVersion: 0.1.0\ntasks:\n  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n      - name: main\n        strategy: serial\n        steps:\n          - {name: app, tasks: [app]}\n")},
		"params.yaml":       {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: M\n    type: map\n    default:\n" + m.String())},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n")},
	}, "m")
	if err != nil {
		t.Fatal(err)
	}
	reqs := make([]engine.Request, 30)
	for i := range reqs {
		reqs[i] = engine.Request{Bundle: b, Instance: render.Instance{Name: fmt.Sprintf("i%d", i), Namespace: "ns"}}
	}
	if _, err := engine.RenderWith(engine.Options{Budget: limits.NewBudget(limits.Limits{RenderValues: 1_000_000})}, reqs...); err != nil {
		t.Fatalf("30 instances within the budget: %v", err)
	}
	budget := limits.NewBudget(limits.Limits{RenderValues: 300_000})
	_, err = engine.RenderWith(engine.Options{Budget: budget}, reqs...)
	if err == nil || !regexp.MustCompile(`the parameters (of instance "i\d+"|given to task "app" \(instance "i\d+" of m@0\.1\.0\)): total render values exceeds the limit of 300000 values`).MatchString(err.Error()) {
		t.Fatalf("got %v", err)
	}
}
