package bundle

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/internal/suggest"
)

func fieldf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func sortedKeys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	return slices.Sorted(maps.Keys(m))
}

// taskField names a task in messages: "tasks[2]" (KUDO) or "tasks.backup".
func (b *Bundle) taskField(i int, t *Task) string {
	if b.Format == FormatKUDO {
		return fmt.Sprintf("tasks[%d]", i)
	}
	return "tasks." + t.Name
}

// Validate checks the references inside a bundle that was built or merged
// in memory (Load validates what it loads).
func Validate(b *Bundle) error {
	var p problems
	validate(b, &p)
	if errs := p.Errors(); len(errs) > 0 {
		return &LoadError{Framework: b.Name, Problems: errs}
	}
	return nil
}

// TemplatePath is the path of a template key for messages and provenance:
// "service.yaml" is "templates/service.yaml", and a base template of an
// extension, "base/init.yaml", is "base/templates/init.yaml".
func TemplatePath(key string) string {
	prefix := ""
	for strings.HasPrefix(key, BasePrefix) {
		prefix += BasePrefix
		key = strings.TrimPrefix(key, BasePrefix)
	}
	return prefix + templatesDir + "/" + key
}

// validate checks references inside the bundle: tasks name templates that
// exist, plans name tasks that exist, names are unique.
func validate(b *Bundle, p *problems) {
	b.validateParams(p)
	b.validateTasks(p)
	for _, pl := range b.Plans {
		b.validatePlan(pl, p)
	}
}

// validateParams reports parameters defined twice.
func (b *Bundle) validateParams(p *problems) {
	seen := map[string]bool{}
	for _, prm := range b.Params {
		if prm.Name != "" && seen[prm.Name] {
			p.Add(paramsFile, prm.Pos.Line, prm.Name, "parameter is defined twice")
		}
		seen[prm.Name] = true
	}
}

// validateTasks checks every task: a unique name, its kind and what the
// kind needs, the templates it uses and its from.
func (b *Bundle) validateTasks(p *problems) {
	seen := map[string]bool{}
	pipeKeys := map[string]string{}
	for i, t := range b.Tasks {
		field := b.taskField(i, t)
		if t.Name == "" {
			p.Add(t.Pos.File, t.Pos.Line, field+".name", "is required")
		} else if seen[t.Name] {
			p.Add(t.Pos.File, t.Pos.Line, field+".name", "task %q is defined twice", t.Name)
		}
		seen[t.Name] = true
		b.validateTaskKind(t, field, pipeKeys, p)
		for j, r := range t.Resources {
			b.checkTemplateRef(t, fmt.Sprintf("%s.resources[%d]", field, j), r, p)
		}
		for j, r := range t.Patches {
			b.checkTemplateRef(t, fmt.Sprintf("%s.patches[%d]", field, j), r.Path, p)
		}
		for j, r := range t.PatchesStrategicMerge {
			b.checkTemplateRef(t, fmt.Sprintf("%s.patchesStrategicMerge[%d]", field, j), r, p)
		}
		if t.From != "" && b.Extends == nil {
			p.Add(t.Pos.File, t.Pos.Line, field+".from", "%q needs `extends`: this framework has no base", t.From)
		}
	}
}

// validateTaskKind checks the kind of task t (at field) and what that kind
// needs; pipeKeys maps the pipe keys seen so far to their tasks.
func (b *Bundle) validateTaskKind(t *Task, field string, pipeKeys map[string]string, p *problems) {
	switch t.Kind {
	case KindApply, KindDelete, KindDummy, KindKudoOperator:
	case KindToggle:
		b.validateToggle(t, field, p)
	case KindPipe:
		b.validatePipe(t, field, pipeKeys, p)
	case "":
		p.Add(t.Pos.File, t.Pos.Line, field+".kind", "task %q has no kind", t.Name)
	default:
		p.Add(t.Pos.File, t.Pos.Line, field+".kind", "task %q has unknown kind %q%s", t.Name, t.Kind, wantOneOf(t.Kind, TaskKinds))
	}
}

// TaskKinds lists the kinds of KUDO tasks; KUDO refuses any other (case
// matters).
var TaskKinds = []string{KindApply, KindDelete, KindDummy, KindToggle, KindPipe, KindKudoOperator}

// PipeKinds lists the kinds of object a Pipe task's file becomes.
var PipeKinds = []string{"Secret", "ConfigMap"}

// wantOneOf ends a message refusing got: a "did you mean" when one of
// allowed is close, else the list of allowed values.
func wantOneOf(got string, allowed []string) string {
	if hint := suggest.DidYouMean(got, allowed); hint != "" {
		return hint
	}
	return " (want " + orList(allowed) + ")"
}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// StrategyProblem says what is wrong with the strategy s of a plan or
// phase, "" when nothing is: "serial", "parallel" and "" (KUDO's parallel)
// are strategies. KUDO ran every other value in parallel without a word,
// so a typo such as "Serial" silently changed the order of a plan: it is
// refused, with a "did you mean".
func StrategyProblem(s string) string {
	switch s {
	case StrategySerial, StrategyParallel, "":
		return ""
	}
	msg := fmt.Sprintf("%q is not a strategy", s)
	if hint := suggest.DidYouMean(s, Strategies); hint != "" {
		return msg + hint
	}
	return msg + ` (want "serial" or "parallel")`
}

// validateToggle checks that a Toggle task names a parameter that exists.
func (b *Bundle) validateToggle(t *Task, field string, p *problems) {
	pfield := field + ".spec.parameter"
	if b.Format == FormatFramework {
		pfield = field + ".parameter"
	}
	switch {
	case t.Parameter == "":
		p.Add(t.Pos.File, t.Pos.Line, pfield, "Toggle task %q needs a parameter", t.Name)
	case b.Param(t.Parameter) == nil && b.Extends == nil: // an extension's may be its base's: checked after the merge
		p.Add(t.Pos.File, t.Pos.Line, pfield, "Toggle task %q uses parameter %q, which params.yaml does not define%s", t.Name, t.Parameter, suggest.DidYouMean(t.Parameter, b.paramNames()))
	}
}

// validatePipe checks a Pipe task: its pod template and its files, whose
// keys are unique among all Pipe tasks (pipeKeys).
func (b *Bundle) validatePipe(t *Task, field string, pipeKeys map[string]string, p *problems) {
	if t.Pod == "" {
		p.Add(t.Pos.File, t.Pos.Line, field+".spec.pod", "Pipe task %q needs a pod template", t.Name)
	} else {
		b.checkTemplateRef(t, field+".spec.pod", t.Pod, p)
	}
	if len(t.Pipe) == 0 {
		p.Add(t.Pos.File, t.Pos.Line, field+".spec.pipe", "Pipe task %q needs at least one file", t.Name)
	}
	for j, pf := range t.Pipe {
		pfield := fmt.Sprintf("%s.spec.pipe[%d]", field, j)
		if !slices.Contains(PipeKinds, pf.Kind) {
			p.Add(t.Pos.File, t.Pos.Line, pfield+".kind", "must be Secret or ConfigMap, got %q%s", pf.Kind, suggest.DidYouMean(pf.Kind, PipeKinds))
		}
		if pf.File == "" {
			p.Add(t.Pos.File, t.Pos.Line, pfield+".file", "is required")
		}
		if pf.Key == "" {
			p.Add(t.Pos.File, t.Pos.Line, pfield+".key", "is required")
		} else if other, dup := pipeKeys[pf.Key]; dup {
			p.Add(t.Pos.File, t.Pos.Line, pfield+".key", "pipe key %q is also used by task %q", pf.Key, other)
		} else {
			pipeKeys[pf.Key] = t.Name
		}
	}
}

// validatePlan checks a plan: its from, that it has phases, and that its
// steps name tasks that exist.
func (b *Bundle) validatePlan(pl *Plan, p *problems) {
	if pl.From != "" && b.Extends == nil {
		p.Add(pl.Pos.File, pl.Pos.Line, "plans."+pl.Name+".from", "%q needs `extends`: this framework has no base", pl.From)
	}
	if len(pl.Phases) == 0 && pl.From == "" {
		p.Add(pl.Pos.File, pl.Pos.Line, "plans."+pl.Name, "plan has no phases")
	}
	if msg := StrategyProblem(pl.Strategy); msg != "" {
		p.Add(pl.Pos.File, cmp.Or(pl.StrategyLine, pl.Pos.Line), "plans."+pl.Name+".strategy", "%s", msg)
	}
	for i, ph := range pl.Phases {
		if msg := StrategyProblem(ph.Strategy); msg != "" {
			p.Add(pl.Pos.File, cmp.Or(ph.StrategyLine, pl.Pos.Line), fmt.Sprintf("plans.%s.phases[%d].strategy", pl.Name, i), "%s", msg)
		}
		for j, st := range ph.Steps {
			for k, tn := range st.Tasks {
				field := fmt.Sprintf("plans.%s.phases[%d].steps[%d].tasks[%d]", pl.Name, i, j, k)
				if b.Format == FormatFramework {
					field = fmt.Sprintf("plans.%s.steps[%d].tasks[%d]", pl.Name, j, k)
				}
				line := pl.Pos.Line
				if k < len(st.TaskLines) && st.TaskLines[k] > 0 {
					line = st.TaskLines[k]
				}
				b.checkPlanTask(pl, field, tn, line, p)
			}
		}
	}
}

// checkPlanTask checks that the task tn, used by plan pl at field, exists.
// line is where the step names it.
func (b *Bundle) checkPlanTask(pl *Plan, field, tn string, line int, p *problems) {
	switch {
	case b.Task(tn) != nil:
	case b.Extends != nil:
		// may be a task of the base: checked after the merge
	case strings.HasPrefix(tn, BasePrefix):
		p.Add(pl.Pos.File, line, field, "plan %q uses %q, which is not a task of the base", pl.Name, tn)
	default:
		p.Add(pl.Pos.File, line, field, "plan %q uses task %q, which is not defined%s", pl.Name, tn, suggest.DidYouMean(tn, b.taskNames()))
	}
}

func (b *Bundle) checkTemplateRef(t *Task, field, ref string, p *problems) {
	if _, ok := b.Templates[ref]; ok {
		return // includes base/ templates of a merged bundle
	}
	if msg, ok := b.Unread[templatesDir+"/"+ref]; ok {
		p.Add(templatesDir+"/"+ref, 0, "", "task %q uses it: %s", t.Name, msg)
		return
	}
	if strings.HasPrefix(ref, BasePrefix) && b.Extends != nil {
		if err := CheckRef(strings.TrimPrefix(ref, BasePrefix)); err != nil {
			p.Add(t.Pos.File, t.Pos.Line, field, "%q: %v", ref, err)
		}
		return // resolved against the base by a later stage
	}
	if err := CheckRef(ref); err != nil {
		p.Add(t.Pos.File, t.Pos.Line, field, "%q: %v", ref, err)
		return
	}
	if strings.HasPrefix(ref, BasePrefix) {
		p.Add(t.Pos.File, t.Pos.Line, field, "task %q uses %q, which is not a template of the base", t.Name, ref)
		return
	}
	p.Add(t.Pos.File, t.Pos.Line, field, "task %q uses template %q, which is not in %s/%s", t.Name, ref, templatesDir, suggest.DidYouMean(ref, slices.Sorted(maps.Keys(b.Templates))))
}

// taskNames are the names of the bundle's tasks, for "did you mean".
func (b *Bundle) taskNames() []string {
	names := make([]string, 0, len(b.Tasks))
	for _, t := range b.Tasks {
		names = append(names, t.Name)
	}
	return names
}

// paramNames are the names of the bundle's parameters, for "did you mean".
func (b *Bundle) paramNames() []string {
	names := make([]string, 0, len(b.Params))
	for _, p := range b.Params {
		names = append(names, p.Name)
	}
	return names
}
