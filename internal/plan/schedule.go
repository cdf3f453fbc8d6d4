package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/params"
)

// Action is what an invocation does with its task's resources.
type Action string

const (
	// Apply puts the task's resources into the desired state.
	Apply Action = "apply"
	// Delete removes them (an object applied earlier becomes a hook).
	Delete Action = "delete"
	// Pipe runs a Pipe task's pod and publishes its files.
	Pipe Action = "pipe"
)

// Invocation is one task run in one step of one plan.
type Invocation struct {
	Plan, Phase, Step string
	Task              *bundle.Task
	Action            Action
	Wave              int
	// Pipes is what templates see as .Pipes in this plan.
	Pipes map[string]string
	// Toggled is set for invocations taken from plans that are not
	// rendered, because their Toggle parameter is true.
	Toggled bool
	// Unit is the instance the task belongs to: the one rendered, or a
	// dependency installed by a KudoOperator task.
	Unit *Unit
}

// Unit is one instance being rendered.
type Unit struct {
	Bundle   *bundle.Bundle
	Instance string
	Values   params.Values
	// Parent is the unit whose KudoOperator task installs this one.
	Parent *Unit
	// Via is the invocation of that KudoOperator task.
	Via *Invocation
}

// Wrap gives err, a problem of the unit, the context of the KudoOperator
// tasks that install it, innermost first (nothing for the instance
// rendered): see [Error].
func (u *Unit) Wrap(err error) error {
	for ; err != nil && u != nil && u.Via != nil; u = u.Parent {
		err = u.Via.dependencyError(u, err)
	}
	return err
}

// dependencyError is err, a problem inside the dependency u that the
// KudoOperator task of inv installs.
func (inv *Invocation) dependencyError(u *Unit, err error) *Error {
	return &Error{Where: inv.Where(), Msg: fmt.Sprintf("KudoOperator task %q (instance %q of %s)", inv.Task.Name, u.Instance, u.Bundle.ID()), Err: err}
}

// MaxDependencyDepth caps nested KudoOperator tasks.
const MaxDependencyDepth = 8

// Dependency resolves the KudoOperator task t of parent into the unit it
// installs.
type Dependency func(parent *Unit, t *bundle.Task) (*Unit, error)

// Where names the invocation in messages: plan.phase.step.task.
func (inv *Invocation) Where() string {
	return inv.Plan + "." + inv.Phase + "." + inv.Step + "." + inv.Task.Name
}

// Options of Schedule.
type Options struct {
	// Instance is the instance name, used in pipe artifact names.
	Instance string
	// PipeNames maps pipe keys to existing Secret/ConfigMap names. A Pipe
	// task whose keys are all mapped is not run.
	PipeNames map[string]string
	// Dependency resolves KudoOperator tasks. Without it they are an
	// error. A dependency's deploy plan is nested in the parent's step:
	// its own order is kept and the parent's later steps come after all
	// of it.
	Dependency Dependency
}

// Error is a scheduling problem in a task or plan, or a problem inside
// the package a KudoOperator task installs: loading it, its parameters,
// its plans, its templates. The latter keeps its cause (Err), whose
// diagnostics it hands on, each saying which task installs the package.
type Error struct {
	Where string // plan.phase.step.task or plan
	Msg   string
	// Err is the cause of a problem inside a KudoOperator dependency; Msg
	// then names the task (and the instance, once it is known).
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Where + ": " + e.Msg + ": " + e.Err.Error()
	}
	return e.Where + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// Diagnostics implements diag.Carrier: a dependency's problems, each
// with the file, line, field and resource its cause gives, its message
// starting with the task that installs the dependency. A scheduling
// problem has none (its message is the diagnostic).
func (e *Error) Diagnostics() []*diag.Diagnostic {
	if e.Err == nil {
		return nil
	}
	inner := diag.From(e.Err)
	out := make([]*diag.Diagnostic, len(inner))
	for i, d := range inner {
		c := *d
		c.Msg = e.Where + ": " + e.Msg + ": " + c.Msg
		out[i] = &c
	}
	return out
}

// Schedule lists the task invocations of plans (rendered in that order),
// followed by the Toggle tasks of other plans whose parameter is true.
func Schedule(b *bundle.Bundle, plans []string, values params.Values, opts Options) ([]*Invocation, error) {
	return ScheduleUnit(&Unit{Bundle: b, Instance: opts.Instance, Values: values}, plans, opts)
}

// ScheduleUnit is Schedule for a unit the caller keeps (invocations point
// at it).
func ScheduleUnit(u *Unit, plans []string, opts Options) ([]*Invocation, error) {
	out, _, err := schedule(u, plans, 0, opts)
	return out, err
}

// schedule walks the plans of one unit from wave start; it returns the
// invocations and the first wave after all of them.
func schedule(u *Unit, plans []string, start int, opts Options) ([]*Invocation, int, error) {
	var out []*Invocation
	next := start
	rendered := map[string]bool{}
	for _, name := range plans {
		pl := u.Bundle.Plan(name)
		if pl == nil {
			return nil, 0, &Error{Where: name, Msg: fmt.Sprintf("plan is not defined (plans: %s)", strings.Join(planNames(u.Bundle), ", "))}
		}
		rendered[name] = true
		invs, end, err := walk(u, pl, next, opts, false)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, invs...)
		next = end
	}
	// Toggle state from plans that are not rendered: each such plan starts
	// right after the rendered plans.
	last := next
	for _, pl := range u.Bundle.Plans {
		if rendered[pl.Name] {
			continue
		}
		invs, end, err := walk(u, pl, next, opts, true)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, invs...)
		if len(invs) > 0 {
			last = max(last, end)
		}
	}
	return out, last, nil
}

func planNames(b *bundle.Bundle) []string {
	var names []string
	for _, p := range b.Plans {
		names = append(names, p.Name)
	}
	return names
}

// walk assigns waves to the steps of one plan, starting at start. It
// returns the invocations and the first wave after the plan. With
// togglesOnly, only Toggle tasks whose parameter is true are returned.
func walk(u *Unit, pl *bundle.Plan, start int, opts Options, togglesOnly bool) ([]*Invocation, int, error) {
	b := u.Bundle
	pipes, err := pipesMap(b, pl, Options{Instance: u.Instance, PipeNames: opts.PipeNames})
	if err != nil && !togglesOnly {
		// A plan that is not rendered only contributes Toggle tasks: its
		// pipes matter to their templates only as names.
		return nil, 0, err
	}
	var out []*Invocation
	end := start
	phaseStart := start
	for _, ph := range pl.Phases {
		wave := phaseStart
		phaseEnd := phaseStart
		for _, st := range ph.Steps {
			stepEnd := wave + 1
			for _, tn := range st.Tasks {
				t := b.Task(tn)
				if t == nil {
					return nil, 0, &Error{Where: pl.Name + "." + ph.Name + "." + st.Name, Msg: fmt.Sprintf("task %q is not defined", tn)}
				}
				if togglesOnly && (t.Kind != bundle.KindToggle || st.Delete) {
					continue
				}
				inv := &Invocation{Plan: pl.Name, Phase: ph.Name, Step: st.Name, Task: t, Wave: wave, Pipes: pipes, Toggled: togglesOnly, Unit: u}
				if t.Kind == bundle.KindKudoOperator && !st.Delete {
					deps, depEnd, err := dependency(inv, opts)
					if err != nil {
						return nil, 0, err
					}
					out = append(out, deps...)
					stepEnd = max(stepEnd, depEnd)
					continue
				}
				keep, err := decide(inv, st, u.Values, opts)
				if err != nil {
					return nil, 0, err
				}
				if keep && !(togglesOnly && inv.Action != Apply) {
					out = append(out, inv)
				}
			}
			phaseEnd = max(phaseEnd, stepEnd)
			if ph.Strategy == bundle.StrategySerial {
				wave = stepEnd
			}
		}
		end = max(end, phaseEnd)
		if pl.Strategy == bundle.StrategySerial {
			phaseStart = phaseEnd
		}
	}
	return out, end, nil
}

// dependency schedules the deploy plan of the instance a KudoOperator
// task installs, starting in the task's wave.
func dependency(inv *Invocation, opts Options) ([]*Invocation, int, error) {
	t := inv.Task
	if t.Operator == nil || t.Operator.Package == "" {
		return nil, 0, &Error{Where: inv.Where(), Msg: fmt.Sprintf("KudoOperator task %q has no package", t.Name)}
	}
	if opts.Dependency == nil {
		return nil, 0, &Error{Where: inv.Where(), Msg: fmt.Sprintf("KudoOperator task %q: operator dependencies need a repository or a package path to resolve %q", t.Name, t.Operator.Package)}
	}
	depth := 0
	for p := inv.Unit; p != nil; p = p.Parent {
		depth++
	}
	if depth > MaxDependencyDepth {
		return nil, 0, &Error{Where: inv.Where(), Msg: fmt.Sprintf("KudoOperator task %q: dependencies nested deeper than %d", t.Name, MaxDependencyDepth)}
	}
	child, err := opts.Dependency(inv.Unit, t)
	if err != nil {
		return nil, 0, &Error{Where: inv.Where(), Msg: fmt.Sprintf("KudoOperator task %q", t.Name), Err: err}
	}
	child.Parent, child.Via = inv.Unit, inv
	invs, end, err := schedule(child, []string{"deploy"}, inv.Wave, opts)
	if err != nil {
		return nil, 0, inv.dependencyError(child, err)
	}
	return invs, end, nil
}

// decide sets the invocation's action; it reports false for tasks that
// contribute nothing (Dummy tasks, Pipe tasks whose keys are all mapped).
func decide(inv *Invocation, st *bundle.Step, values params.Values, opts Options) (bool, error) {
	t := inv.Task
	if st.Delete {
		if t.Kind == bundle.KindDummy {
			return false, nil
		}
		inv.Action = Delete
		return true, nil
	}
	switch t.Kind {
	case bundle.KindApply:
		inv.Action = Apply
	case bundle.KindDelete:
		inv.Action = Delete
	case bundle.KindDummy:
		return false, nil
	case bundle.KindToggle:
		v, ok := values[t.Parameter]
		if !ok {
			return false, &Error{Where: inv.Where(), Msg: fmt.Sprintf("Toggle task %q: parameter %q is not defined", t.Name, t.Parameter)}
		}
		on, err := params.ParseBool(v)
		if err != nil {
			return false, &Error{Where: inv.Where(), Msg: fmt.Sprintf("Toggle task %q: parameter %q: %v", t.Name, t.Parameter, err)}
		}
		inv.Action = Delete
		if on {
			inv.Action = Apply
		}
	case bundle.KindPipe:
		mapped := 0
		for _, pf := range t.Pipe {
			if _, ok := opts.PipeNames[pf.Key]; ok {
				mapped++
			}
		}
		if mapped == len(t.Pipe) {
			return false, nil
		}
		if mapped > 0 {
			return false, &Error{Where: inv.Where(), Msg: fmt.Sprintf("Pipe task %q: either map all of its keys to existing objects in spec.pipes or none", t.Name)}
		}
		inv.Action = Pipe
	default:
		return false, &Error{Where: inv.Where(), Msg: fmt.Sprintf("task %q has unknown kind %q", t.Name, t.Kind)}
	}
	return true, nil
}

// pipesMap computes .Pipes for a plan: every key of every Pipe task in the
// plan maps to KUDO's artifact name, unless opts maps it to an existing
// object.
func pipesMap(b *bundle.Bundle, pl *bundle.Plan, opts Options) (map[string]string, error) {
	pipes := map[string]string{}
	for _, ph := range pl.Phases {
		for _, st := range ph.Steps {
			for _, tn := range st.Tasks {
				t := b.Task(tn)
				if t == nil || t.Kind != bundle.KindPipe {
					continue
				}
				for _, pf := range t.Pipe {
					if _, dup := pipes[pf.Key]; dup {
						return nil, &Error{Where: pl.Name, Msg: fmt.Sprintf("pipe key %q is produced twice in the plan", pf.Key)}
					}
					if name, ok := opts.PipeNames[pf.Key]; ok {
						pipes[pf.Key] = name
						continue
					}
					pipes[pf.Key] = ArtifactName(opts.Instance, pl.Name, ph.Name, st.Name, t.Name, pf.Key)
				}
			}
		}
	}
	// Keys mapped in the config are visible in every plan.
	for k, v := range opts.PipeNames {
		if _, ok := pipes[k]; !ok {
			pipes[k] = v
		}
	}
	return pipes, nil
}

var nonAlnum = lazy.Regexp(`[^a-z0-9]+`)

// ArtifactName is KUDO's name for a pipe artifact:
// instance.plan.phase.step.task.key, each part lowercased and reduced to
// [a-z0-9].
func ArtifactName(parts ...string) string {
	clean := make([]string, len(parts))
	for i, p := range parts {
		clean[i] = nonAlnum().ReplaceAllString(strings.ToLower(p), "")
	}
	return strings.Join(clean, ".")
}

// Plans returns the names of the plans invocations came from, in order.
func Plans(invs []*Invocation) []string {
	var out []string
	for _, inv := range invs {
		if !slices.Contains(out, inv.Plan) {
			out = append(out, inv.Plan)
		}
	}
	return out
}
