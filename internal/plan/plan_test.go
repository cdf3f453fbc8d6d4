package plan_test

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/plan"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// inv is what a test compares of an Invocation.
type inv struct {
	Where    string // plan.phase.step.task
	Action   plan.Action
	Wave     int
	Toggled  bool
	Instance string // of a dependency; "" for the instance rendered
}

func view(invs []*plan.Invocation) []inv {
	var out []inv
	for _, i := range invs {
		v := inv{Where: i.Where(), Action: i.Action, Wave: i.Wave, Toggled: i.Toggled}
		if i.Unit != nil && i.Unit.Parent != nil {
			v.Instance = i.Unit.Instance
		}
		out = append(out, v)
	}
	return out
}

func task(name, kind string) *bundle.Task { return &bundle.Task{Name: name, Kind: kind} }

func toggle(name, param string) *bundle.Task {
	return &bundle.Task{Name: name, Kind: bundle.KindToggle, Parameter: param}
}

func pipeTask(name string, keys ...string) *bundle.Task {
	t := &bundle.Task{Name: name, Kind: bundle.KindPipe, Pod: "pod.yaml"}
	for _, k := range keys {
		t.Pipe = append(t.Pipe, bundle.PipeFile{File: "/tmp/" + k, Kind: "ConfigMap", Key: k})
	}
	return t
}

func kudoOperator(name, pkg string) *bundle.Task {
	return &bundle.Task{Name: name, Kind: bundle.KindKudoOperator, Operator: &bundle.KudoOperatorSpec{Package: pkg}}
}

func step(name string, tasks ...string) *bundle.Step { return &bundle.Step{Name: name, Tasks: tasks} }

func deleteStep(name string, tasks ...string) *bundle.Step {
	return &bundle.Step{Name: name, Tasks: tasks, Delete: true}
}

func phase(name, strategy string, steps ...*bundle.Step) *bundle.Phase {
	return &bundle.Phase{Name: name, Strategy: strategy, Steps: steps}
}

func newPlan(name, strategy string, phases ...*bundle.Phase) *bundle.Plan {
	return &bundle.Plan{Name: name, Strategy: strategy, Phases: phases}
}

const (
	serial   = bundle.StrategySerial
	parallel = bundle.StrategyParallel
)

func basicTasks() []*bundle.Task {
	return []*bundle.Task{
		task("a", bundle.KindApply), task("b", bundle.KindApply), task("c", bundle.KindApply),
		task("d", bundle.KindApply), task("del", bundle.KindDelete), task("noop", bundle.KindDummy),
		task("dep", bundle.KindKudoOperator),
		toggle("metrics", "METRICS"), toggle("debug", "DEBUG"), toggle("cc", "CRUISE_CONTROL"),
	}
}

func TestSchedule(t *testing.T) {
	type args struct {
		b      *bundle.Bundle
		plans  []string
		values params.Values
		opts   plan.Options
	}
	type want struct {
		invs []inv
		err  *plan.Error
		msg  []string // parts of err.Msg
	}
	on := params.Values{"METRICS": "true", "DEBUG": "false", "CRUISE_CONTROL": "false"}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"SerialPlanSerialPhases": {
			reason: "A serial plan runs its serial phases one after the other, one wave per step.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial,
						phase("one", serial, step("s1", "a"), step("s2", "b")),
						phase("two", serial, step("s3", "c")),
					),
				}},
				plans: []string{"deploy"},
			},
			want: want{invs: []inv{
				{Where: "deploy.one.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.one.s2.b", Action: plan.Apply, Wave: 1},
				{Where: "deploy.two.s3.c", Action: plan.Apply, Wave: 2},
			}},
		},
		"ParallelPhaseStepsShareAWave": {
			reason: "The steps of a parallel phase share one wave; the next phase of a serial plan follows it.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial,
						phase("one", parallel, step("s1", "a"), step("s2", "b", "c")),
						phase("two", serial, step("s3", "d")),
					),
				}},
				plans: []string{"deploy"},
			},
			want: want{invs: []inv{
				{Where: "deploy.one.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.one.s2.b", Action: plan.Apply, Wave: 0},
				{Where: "deploy.one.s2.c", Action: plan.Apply, Wave: 0},
				{Where: "deploy.two.s3.d", Action: plan.Apply, Wave: 1},
			}},
		},
		"ParallelPlanPhasesStartTogether": {
			reason: "The phases of a parallel plan all start at the plan's first wave; the plan ends after its longest phase.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", parallel,
						phase("one", serial, step("s1", "a"), step("s2", "b")),
						phase("two", serial, step("s3", "c")),
					),
					newPlan("after", serial, phase("p", serial, step("s", "d"))),
				}},
				plans: []string{"deploy", "after"},
			},
			want: want{invs: []inv{
				{Where: "deploy.one.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.one.s2.b", Action: plan.Apply, Wave: 1},
				{Where: "deploy.two.s3.c", Action: plan.Apply, Wave: 0},
				{Where: "after.p.s.d", Action: plan.Apply, Wave: 2},
			}},
		},
		"OnlyExactSerialIsSerial": {
			reason: "As in KUDO, only the exact strategy \"serial\" is serial: \"Serial\" and an empty strategy are parallel.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", "Serial",
						phase("one", "", step("s1", "a"), step("s2", "b")),
						phase("two", "Serial", step("s3", "c"), step("s4", "d")),
					),
				}},
				plans: []string{"deploy"},
			},
			want: want{invs: []inv{
				{Where: "deploy.one.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.one.s2.b", Action: plan.Apply, Wave: 0},
				{Where: "deploy.two.s3.c", Action: plan.Apply, Wave: 0},
				{Where: "deploy.two.s4.d", Action: plan.Apply, Wave: 0},
			}},
		},
		"PlansOneAfterTheOther": {
			reason: "Several plans are rendered in the order given, each starting after the previous one.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("backup", serial, phase("backup", serial, step("s", "c"), step("t", "d"))),
					newPlan("deploy", serial, phase("main", serial, step("s1", "a"), step("s2", "b"))),
				}},
				plans: []string{"deploy", "backup"},
			},
			want: want{invs: []inv{
				{Where: "deploy.main.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.main.s2.b", Action: plan.Apply, Wave: 1},
				{Where: "backup.backup.s.c", Action: plan.Apply, Wave: 2},
				{Where: "backup.backup.t.d", Action: plan.Apply, Wave: 3},
			}},
		},
		"DeleteStep": {
			reason: "A KEP-0009 step with delete: true deletes its tasks' resources; a KUDO Delete task deletes too.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("deploy", serial,
						step("init", "a"),
						deleteStep("cleanup", "a", "noop"),
						step("remove", "del"),
					)),
				}},
				plans: []string{"deploy"},
			},
			want: want{invs: []inv{
				{Where: "deploy.deploy.init.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.deploy.cleanup.a", Action: plan.Delete, Wave: 1},
				{Where: "deploy.deploy.remove.del", Action: plan.Delete, Wave: 2},
			}},
		},
		"DummySkipped": {
			reason: "Dummy tasks contribute nothing, but their step still takes a wave.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s1", "noop"), step("s2", "a"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{invs: []inv{{Where: "deploy.p.s2.a", Action: plan.Apply, Wave: 1}}},
		},
		"Toggles": {
			reason: "A Toggle whose parameter is true applies; false deletes (removes what an earlier step applied).",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", parallel, step("s", "metrics", "debug"))),
				}},
				plans:  []string{"deploy"},
				values: params.Values{"METRICS": "true", "DEBUG": "false"},
			},
			want: want{invs: []inv{
				{Where: "deploy.p.s.metrics", Action: plan.Apply, Wave: 0},
				{Where: "deploy.p.s.debug", Action: plan.Delete, Wave: 0},
			}},
		},
		"ToggleCanonicalBooleans": {
			reason: "Toggle values are read with params.ParseBool: True and 1 are true.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", parallel, step("s", "metrics", "debug"))),
				}},
				plans:  []string{"deploy"},
				values: params.Values{"METRICS": "True", "DEBUG": "1"},
			},
			want: want{invs: []inv{
				{Where: "deploy.p.s.metrics", Action: plan.Apply, Wave: 0},
				{Where: "deploy.p.s.debug", Action: plan.Apply, Wave: 0},
			}},
		},
		"ToggleNotBoolean": {
			reason: "A Toggle parameter that is not a boolean is a *plan.Error naming the task and the parameter.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "metrics"))),
				}},
				plans:  []string{"deploy"},
				values: params.Values{"METRICS": "maybe"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s.metrics"}, msg: []string{`Toggle task "metrics"`, `parameter "METRICS"`, `"maybe"`}},
		},
		"ToggleParameterMissing": {
			reason: "A Toggle parameter without a value is an error.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "metrics"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s.metrics"}, msg: []string{`Toggle task "metrics"`, `parameter "METRICS" is not defined`}},
		},
		"KudoOperatorWithoutPackage": {
			reason: "A KudoOperator task needs a package.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "a", "dep"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s.dep"}, msg: []string{`KudoOperator task "dep" has no package`}},
		},
		"KudoOperatorWithoutResolver": {
			reason: "Without a way to resolve dependencies a KudoOperator task is an error naming the package.",
			args: args{
				b: &bundle.Bundle{Tasks: []*bundle.Task{kudoOperator("dep", "zookeeper")}, Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "dep"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s.dep"}, msg: []string{`KudoOperator task "dep"`, `"zookeeper"`}},
		},
		"UnknownKind": {
			reason: "A task of an unknown kind (only possible when built in memory) is an error.",
			args: args{
				b: &bundle.Bundle{Tasks: []*bundle.Task{task("x", "Frobnicate")}, Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "x"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s.x"}, msg: []string{`unknown kind "Frobnicate"`}},
		},
		"UndefinedTask": {
			reason: "A step naming an undefined task (a bundle built in memory) is an error naming the step.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("p", serial, step("s", "ghost"))),
				}},
				plans: []string{"deploy"},
			},
			want: want{err: &plan.Error{Where: "deploy.p.s"}, msg: []string{`task "ghost" is not defined`}},
		},
		"UndefinedPlan": {
			reason: "Rendering a plan that does not exist lists the plans there are.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("backup", serial, phase("p", serial, step("s", "a"))),
					newPlan("deploy", serial, phase("p", serial, step("s", "a"))),
				}},
				plans: []string{"deplyo"},
			},
			want: want{err: &plan.Error{Where: "deplyo"}, msg: []string{"plan is not defined", "backup, deploy"}},
		},
		"TogglesOfOtherPlans": {
			reason: "Toggle tasks of plans that are not rendered come after the last rendered wave, only when true, marked Toggled; every such plan starts at the same wave and keeps its own order.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("cruise", serial, phase("cc", serial, step("enable", "cc"))),
					newPlan("deploy", serial, phase("main", serial, step("s1", "a"), step("s2", "b"))),
					newPlan("metrics", serial, phase("m", serial,
						step("first", "a", "metrics"),
						step("second", "debug", "metrics"),
						deleteStep("cleanup", "metrics"),
					)),
					newPlan("other", serial, phase("o", serial, step("x", "metrics"))),
				}},
				plans:  []string{"deploy"},
				values: on,
			},
			want: want{invs: []inv{
				{Where: "deploy.main.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.main.s2.b", Action: plan.Apply, Wave: 1},
				{Where: "metrics.m.first.metrics", Action: plan.Apply, Wave: 2, Toggled: true},
				{Where: "metrics.m.second.metrics", Action: plan.Apply, Wave: 3, Toggled: true},
				{Where: "other.o.x.metrics", Action: plan.Apply, Wave: 2, Toggled: true},
			}},
		},
		"TogglesOfOtherPlansIgnoreTheirProblems": {
			reason: "Only Toggle tasks are taken from plans that are not rendered, so a KudoOperator task there is no error.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("main", serial, step("s1", "a"))),
					newPlan("deps", serial, phase("d", serial, step("s", "dep", "metrics"))),
				}},
				plans:  []string{"deploy"},
				values: on,
			},
			want: want{invs: []inv{
				{Where: "deploy.main.s1.a", Action: plan.Apply, Wave: 0},
				{Where: "deps.d.s.metrics", Action: plan.Apply, Wave: 1, Toggled: true},
			}},
		},
		"RenderedPlanNotRepeated": {
			reason: "A plan that is rendered does not contribute its Toggle tasks a second time.",
			args: args{
				b: &bundle.Bundle{Tasks: basicTasks(), Plans: []*bundle.Plan{
					newPlan("deploy", serial, phase("main", serial, step("s1", "metrics"))),
				}},
				plans:  []string{"deploy"},
				values: on,
			},
			want: want{invs: []inv{{Where: "deploy.main.s1.metrics", Action: plan.Apply, Wave: 0}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := plan.Schedule(tc.args.b, tc.args.plans, tc.args.values, tc.args.opts)
			if tc.want.err == nil {
				if err != nil {
					t.Fatalf("\n%s\nSchedule(...): %v", tc.reason, err)
				}
				assert.Check(t, is.DeepEqual(tc.want.invs, view(got)), "%s\nSchedule(...)", tc.reason)
				return
			}
			var pe *plan.Error
			if !errors.As(err, &pe) {
				t.Fatalf("\n%s\nSchedule(...): want *plan.Error, got %T %v", tc.reason, err, err)
			}
			if pe.Where != tc.want.err.Where {
				t.Errorf("\n%s\nSchedule(...): want Where %q, got %q", tc.reason, tc.want.err.Where, pe.Where)
			}
			for _, m := range tc.want.msg {
				if !strings.Contains(pe.Msg, m) {
					t.Errorf("\n%s\nSchedule(...): want message containing %q, got %q", tc.reason, m, pe.Msg)
				}
			}
		})
	}
}

func TestSchedulePipes(t *testing.T) {
	cowsay := func() *bundle.Bundle {
		return &bundle.Bundle{
			Tasks: []*bundle.Task{task("app", bundle.KindApply), pipeTask("genwww", "indexHtml")},
			Plans: []*bundle.Plan{newPlan("deploy", serial, phase("main", serial,
				step("genfiles", "genwww"), step("app", "app")))},
		}
	}
	twoKeys := func() *bundle.Bundle {
		return &bundle.Bundle{
			Tasks: []*bundle.Task{task("app", bundle.KindApply), pipeTask("gen", "cert", "key")},
			Plans: []*bundle.Plan{
				newPlan("deploy", serial, phase("main", serial, step("gen", "gen"), step("app", "app"))),
			},
		}
	}
	type want struct {
		invs  []inv
		pipes map[string]string
		err   *plan.Error
		msg   string
	}
	cases := map[string]struct {
		reason string
		b      *bundle.Bundle
		opts   plan.Options
		want   want
	}{
		"KUDOArtifactName": {
			reason: "A Pipe task runs; .Pipes names each key with KUDO's artifact name instance.plan.phase.step.task.key, lowercased and reduced to [a-z0-9].",
			b:      cowsay(),
			opts:   plan.Options{Instance: "inst"},
			want: want{
				invs: []inv{
					{Where: "deploy.main.genfiles.genwww", Action: plan.Pipe, Wave: 0},
					{Where: "deploy.main.app.app", Action: plan.Apply, Wave: 1},
				},
				pipes: map[string]string{"indexHtml": "inst.deploy.main.genfiles.genwww.indexhtml"},
			},
		},
		"AllKeysMapped": {
			reason: "A Pipe task whose keys are all mapped to existing objects is not run; .Pipes uses the mapped names.",
			b:      twoKeys(),
			opts:   plan.Options{Instance: "inst", PipeNames: map[string]string{"cert": "my-cert", "key": "my-key", "extra": "other"}},
			want: want{
				invs:  []inv{{Where: "deploy.main.app.app", Action: plan.Apply, Wave: 1}},
				pipes: map[string]string{"cert": "my-cert", "key": "my-key", "extra": "other"},
			},
		},
		"PartiallyMapped": {
			reason: "Mapping some but not all keys of a Pipe task is an error naming the task.",
			b:      twoKeys(),
			opts:   plan.Options{Instance: "inst", PipeNames: map[string]string{"cert": "my-cert"}},
			want:   want{err: &plan.Error{Where: "deploy.main.gen.gen"}, msg: `Pipe task "gen": either map all of its keys`},
		},
		"MappedKeysInEveryPlan": {
			reason: "Keys mapped in the config are visible in every plan, even one without Pipe tasks.",
			b: &bundle.Bundle{
				Tasks: []*bundle.Task{task("app", bundle.KindApply)},
				Plans: []*bundle.Plan{newPlan("deploy", serial, phase("main", serial, step("app", "app")))},
			},
			opts: plan.Options{Instance: "inst", PipeNames: map[string]string{"indexHtml": "existing"}},
			want: want{
				invs:  []inv{{Where: "deploy.main.app.app", Action: plan.Apply, Wave: 0}},
				pipes: map[string]string{"indexHtml": "existing"},
			},
		},
		"DuplicateKeyInPlan": {
			reason: "A pipe key produced twice in one plan is an error.",
			b: &bundle.Bundle{
				Tasks: []*bundle.Task{pipeTask("g1", "k"), pipeTask("g2", "k")},
				Plans: []*bundle.Plan{newPlan("deploy", serial, phase("main", serial, step("a", "g1"), step("b", "g2")))},
			},
			opts: plan.Options{Instance: "inst"},
			want: want{err: &plan.Error{Where: "deploy"}, msg: `pipe key "k" is produced twice`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := plan.Schedule(tc.b, []string{"deploy"}, nil, tc.opts)
			if tc.want.err != nil {
				var pe *plan.Error
				if !errors.As(err, &pe) {
					t.Fatalf("\n%s\nSchedule(...): want *plan.Error, got %T %v", tc.reason, err, err)
				}
				if pe.Where != tc.want.err.Where || !strings.Contains(pe.Msg, tc.want.msg) {
					t.Errorf("\n%s\nSchedule(...): want %s: ...%s..., got %v", tc.reason, tc.want.err.Where, tc.want.msg, pe)
				}
				return
			}
			if err != nil {
				t.Fatalf("\n%s\nSchedule(...): %v", tc.reason, err)
			}
			assert.Check(t, is.DeepEqual(tc.want.invs, view(got)), "%s\nSchedule(...)", tc.reason)
			for _, i := range got {
				assert.Check(t, is.DeepEqual(tc.want.pipes, i.Pipes), "%s\nSchedule(...) %s", tc.reason, i.Where())
			}
		})
	}
}

func TestArtifactName(t *testing.T) {
	cases := map[string]struct {
		reason string
		parts  []string
		want   string
	}{
		"KUDO": {
			reason: "KUDO's example: instance inst, plan deploy, phase main, step genfiles, task genwww, key indexHtml.",
			parts:  []string{"inst", "deploy", "main", "genfiles", "genwww", "indexHtml"},
			want:   "inst.deploy.main.genfiles.genwww.indexhtml",
		},
		"Cleaned": {
			reason: "Each part is lowercased and loses everything but [a-z0-9].",
			parts:  []string{"My-Inst", "Deploy_Plan", "phase 1", "step.2", "gen-www", "Index.HTML"},
			want:   "myinst.deployplan.phase1.step2.genwww.indexhtml",
		},
		"Empty": {
			reason: "No parts give an empty name.",
			want:   "",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, plan.ArtifactName(tc.parts...)), "%s\nArtifactName(%q)", tc.reason, tc.parts)
		})
	}
}

func TestPlans(t *testing.T) {
	mk := func(p string) *plan.Invocation { return &plan.Invocation{Plan: p} }
	got := plan.Plans([]*plan.Invocation{mk("deploy"), mk("deploy"), mk("metrics"), mk("deploy"), mk("backup")})
	assert.Check(t, is.DeepEqual([]string{"deploy", "metrics", "backup"}, got), "Plans(...)")
}

func TestState(t *testing.T) {
	obj := func(name, v string) *object.Object {
		return object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}, "data": map[string]any{"v": v}})
	}
	at := func(wave int, step string) *plan.Invocation {
		return &plan.Invocation{Plan: "deploy", Phase: "main", Step: step, Task: task("t", bundle.KindApply), Wave: wave}
	}
	type op struct {
		del  bool
		key  string
		obj  *object.Object
		inv  *plan.Invocation
		tmpl string
	}
	type entry struct {
		Name     string
		V        string
		Step     string
		Template string
		Wave     int
		Hook     bool
	}
	cases := map[string]struct {
		reason string
		ops    []op
		want   []entry
		has    map[string]bool
	}{
		"ApplyThenDelete": {
			reason: "An object applied and later deleted becomes a run-once hook in the wave it was applied.",
			ops: []op{
				{key: "job", obj: obj("job", "1"), inv: at(1, "init"), tmpl: "templates/job.yaml"},
				{key: "keep", obj: obj("keep", "1"), inv: at(2, "app"), tmpl: "templates/keep.yaml"},
				{del: true, key: "job"},
			},
			want: []entry{
				{Name: "job", V: "1", Step: "init", Template: "templates/job.yaml", Wave: 1, Hook: true},
				{Name: "keep", V: "1", Step: "app", Template: "templates/keep.yaml", Wave: 2},
			},
			has: map[string]bool{"job": true, "keep": true},
		},
		"DeleteOnly": {
			reason: "An object only deleted is absent.",
			ops:    []op{{del: true, key: "gone"}},
			want:   nil,
			has:    map[string]bool{"gone": false},
		},
		"ReApply": {
			reason: "A second apply keeps the first wave and takes the newer content, invocation and template.",
			ops: []op{
				{key: "cm", obj: obj("cm", "old"), inv: at(0, "first"), tmpl: "templates/a.yaml"},
				{key: "cm", obj: obj("cm", "new"), inv: at(3, "second"), tmpl: "templates/b.yaml"},
			},
			want: []entry{{Name: "cm", V: "new", Step: "second", Template: "templates/b.yaml", Wave: 0}},
			has:  map[string]bool{"cm": true},
		},
		"ApplyDeleteApply": {
			reason: "Applying again after a delete makes the object desired state again, not a hook.",
			ops: []op{
				{key: "cm", obj: obj("cm", "1"), inv: at(0, "a")},
				{del: true, key: "cm"},
				{key: "cm", obj: obj("cm", "2"), inv: at(2, "c")},
			},
			want: []entry{{Name: "cm", V: "2", Step: "c", Wave: 0}},
		},
		"FirstApplicationOrder": {
			reason: "Entries keep the order objects were first applied in.",
			ops: []op{
				{key: "b", obj: obj("b", "1"), inv: at(0, "s")},
				{key: "a", obj: obj("a", "1"), inv: at(1, "s")},
				{key: "b", obj: obj("b", "2"), inv: at(2, "s")},
			},
			want: []entry{{Name: "b", V: "2", Step: "s", Wave: 0}, {Name: "a", V: "1", Step: "s", Wave: 1}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := plan.NewState()
			for _, o := range tc.ops {
				if o.del {
					s.Delete(o.key)
					continue
				}
				s.Apply(o.key, o.obj, o.inv, o.tmpl)
			}
			var got []entry
			for _, e := range s.Entries() {
				got = append(got, entry{Name: e.Obj.Name(), V: e.Obj.String("data", "v"), Step: e.Inv.Step, Template: e.Template, Wave: e.Wave, Hook: e.Hook})
			}
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nEntries()", tc.reason)
			for k, want := range tc.has {
				if got := s.Has(k); got != want {
					t.Errorf("\n%s\nHas(%q): want %t, got %t", tc.reason, k, want, got)
				}
			}
		})
	}
}

func TestScheduleDependencies(t *testing.T) {
	zk := &bundle.Bundle{Name: "zookeeper", Version: "0.3.0", Tasks: basicTasks(), Plans: []*bundle.Plan{
		newPlan("deploy", serial, phase("zk", serial, step("infra", "a"), step("app", "b", "c"))),
		newPlan("metrics", serial, phase("m", serial, step("on", "metrics"))),
	}}
	parent := func(deps ...*bundle.Task) *bundle.Bundle {
		return &bundle.Bundle{Name: "kafka", Version: "1.0.0", Tasks: append(basicTasks(), deps...), Plans: []*bundle.Plan{
			newPlan("deploy", serial, phase("main", serial, step("first", "a"), step("deps", "zk", "d"), step("last", "b"))),
		}}
	}
	resolve := func(p *plan.Unit, t *bundle.Task) (*plan.Unit, error) {
		return &plan.Unit{Bundle: zk, Instance: p.Instance + "-" + t.Operator.Package, Values: params.Values{"METRICS": "true"}}, nil
	}
	type want struct {
		invs []inv
		err  *plan.Error
		msg  []string
	}
	cases := map[string]struct {
		reason string
		b      *bundle.Bundle
		dep    plan.Dependency
		want   want
	}{
		"NestedInTheStep": {
			reason: "A dependency's deploy plan starts in the KudoOperator task's wave, keeps its own order (and its toggles), and the parent's later steps come after all of it.",
			b:      parent(kudoOperator("zk", "zookeeper")),
			dep:    resolve,
			want: want{invs: []inv{
				{Where: "deploy.main.first.a", Action: plan.Apply, Wave: 0},
				{Where: "deploy.zk.infra.a", Action: plan.Apply, Wave: 1, Instance: "kafka-zookeeper"},
				{Where: "deploy.zk.app.b", Action: plan.Apply, Wave: 2, Instance: "kafka-zookeeper"},
				{Where: "deploy.zk.app.c", Action: plan.Apply, Wave: 2, Instance: "kafka-zookeeper"},
				{Where: "metrics.m.on.metrics", Action: plan.Apply, Wave: 3, Toggled: true, Instance: "kafka-zookeeper"},
				{Where: "deploy.main.deps.d", Action: plan.Apply, Wave: 1},
				{Where: "deploy.main.last.b", Action: plan.Apply, Wave: 4},
			}},
		},
		"ResolverError": {
			reason: "A dependency that cannot be resolved is a *plan.Error naming the task, its cause kept.",
			b:      parent(kudoOperator("zk", "zookeeper")),
			dep: func(*plan.Unit, *bundle.Task) (*plan.Unit, error) {
				return nil, errors.New("no repository has zookeeper")
			},
			want: want{err: &plan.Error{Where: "deploy.main.deps.zk"}, msg: []string{`KudoOperator task "zk"`, "no repository has zookeeper"}},
		},
		"Cycle": {
			reason: "Dependencies nested without end stop at MaxDependencyDepth.",
			b:      parent(kudoOperator("zk", "kafka")),
			dep: func(p *plan.Unit, t *bundle.Task) (*plan.Unit, error) {
				return &plan.Unit{Bundle: p.Bundle, Instance: p.Instance + "x", Values: p.Values}, nil
			},
			want: want{err: &plan.Error{Where: "deploy.main.deps.zk"}, msg: []string{"nested deeper than"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := plan.Schedule(tc.b, []string{"deploy"}, params.Values{"METRICS": "false", "DEBUG": "false", "CRUISE_CONTROL": "false"}, plan.Options{Instance: "kafka", Dependency: tc.dep})
			if tc.want.err == nil {
				if err != nil {
					t.Fatalf("\n%s\nSchedule(...): %v", tc.reason, err)
				}
				assert.Check(t, is.DeepEqual(tc.want.invs, view(got)), "%s\nSchedule(...)", tc.reason)
				return
			}
			var pe *plan.Error
			if !errors.As(err, &pe) {
				t.Fatalf("\n%s\nSchedule(...): want *plan.Error, got %T %v", tc.reason, err, err)
			}
			if pe.Where != tc.want.err.Where {
				t.Errorf("\n%s\nSchedule(...): want Where %q, got %q", tc.reason, tc.want.err.Where, pe.Where)
			}
			for _, m := range tc.want.msg {
				if !strings.Contains(pe.Error(), m) {
					t.Errorf("\n%s\nSchedule(...): want message containing %q, got %q", tc.reason, m, pe.Error())
				}
			}
		})
	}
}

// TestDependencyDiagnostics: a problem inside a KudoOperator dependency
// keeps its cause, and its diagnostics reach the adapters with their
// file, line and field, the message naming the task (issue 25.3: the
// cause was flattened with %v).
func TestDependencyDiagnostics(t *testing.T) {
	zk := &bundle.Bundle{Name: "zookeeper", Version: "0.3.0", Tasks: basicTasks(), Plans: []*bundle.Plan{
		newPlan("deploy", serial, phase("zk", serial, step("infra", "a"))),
	}}
	parent := &bundle.Bundle{Name: "kafka", Version: "1.0.0", Tasks: append(basicTasks(), kudoOperator("zk", "zookeeper")), Plans: []*bundle.Plan{
		newPlan("deploy", serial, phase("main", serial, step("deps", "zk"))),
	}}
	var l diag.List
	l.Add("operator.yaml", 9, "tasks[0].spec.resourcs", `unknown field "resourcs"`)
	l.Add("params.yaml", 3, "parameters[0].default", "bad default")
	cause := l.Err(`cannot load framework "zookeeper"`)
	_, err := plan.Schedule(parent, []string{"deploy"}, params.Values{}, plan.Options{Instance: "kafka",
		Dependency: func(*plan.Unit, *bundle.Task) (*plan.Unit, error) { return nil, cause }})
	if !errors.Is(err, cause) {
		t.Fatalf("Schedule(...): the cause is lost: %v", err)
	}
	want := []*diag.Diagnostic{
		{File: "operator.yaml", Line: 9, Field: "tasks[0].spec.resourcs", Msg: `deploy.main.deps.zk: KudoOperator task "zk": unknown field "resourcs"`},
		{File: "params.yaml", Line: 3, Field: "parameters[0].default", Msg: `deploy.main.deps.zk: KudoOperator task "zk": bad default`},
	}
	assert.Check(t, is.DeepEqual(want, diag.From(err)), "diag.From(Schedule(...))")

	// A unit wraps the problems of its objects with every task up to the
	// instance rendered.
	invs, err := plan.Schedule(parent, []string{"deploy"}, params.Values{}, plan.Options{Instance: "kafka",
		Dependency: func(p *plan.Unit, t *bundle.Task) (*plan.Unit, error) {
			return &plan.Unit{Bundle: zk, Instance: "kafka-zk"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	werr := invs[0].Unit.Wrap(diag.Newf("templates/cm.yaml", 4, "", "boom"))
	if got, want := werr.Error(), `deploy.main.deps.zk: KudoOperator task "zk" (instance "kafka-zk" of zookeeper@0.3.0): templates/cm.yaml:4: boom`; got != want {
		t.Errorf("Wrap: %q, want %q", got, want)
	}
	if ds := diag.From(werr); len(ds) != 1 || ds[0].File != "templates/cm.yaml" || ds[0].Line != 4 {
		t.Errorf("Wrap: diagnostics %+v", ds)
	}
}
