package verify

import (
	"cmp"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/suggest"
)

// pipeKeyRE is KUDO's rule for pipe keys.
var pipeKeyRE = lazy.Regexp(`^[a-zA-Z0-9_\-]+$`)

// tasks is KUDO's task.BuildVerifier and task.ReferenceVerifier, for what
// loading has not already checked.
func (v *verifier) tasks() {
	b := v.b
	used := map[string]bool{}
	for _, pl := range b.Plans {
		for _, ph := range pl.Phases {
			for _, st := range ph.Steps {
				for _, tn := range st.Tasks {
					used[tn] = true
				}
			}
		}
	}
	for _, t := range b.Tasks {
		file, line := t.Pos.File, t.Pos.Line
		if file == "" {
			file = b.File
		}
		switch t.Kind {
		case bundle.KindApply, bundle.KindDelete, bundle.KindToggle:
			if len(t.Resources) == 0 && len(t.Patches) == 0 && len(t.PatchesStrategicMerge) == 0 && t.From == "" {
				v.errorf(file, line, "task validation error: %s task '%s' has an empty resource list. "+
					"if that's what you need, use a Dummy task instead", strings.ToLower(t.Kind), t.Name)
			}
		case bundle.KindPipe:
			for _, pf := range t.Pipe {
				if pf.Key != "" && !pipeKeyRE().MatchString(pf.Key) {
					v.errorf(file, line, "task validation error: invalid pipe key (only letters, numbers and _ and - are allowed): %q in task %q", pf.Key, t.Name)
				}
			}
		case bundle.KindKudoOperator:
			if t.Operator == nil || t.Operator.Package == "" {
				v.errorf(file, line, "task validation error: kudo operator task '%s' has an empty package name", t.Name)
			}
			if t.Operator != nil && t.Operator.ParameterFile != "" && !v.isBaseRef(t.Operator.ParameterFile) {
				if _, ok := b.Templates[t.Operator.ParameterFile]; !ok {
					v.errorf(file, line, "template %q required by %s is not defined", t.Operator.ParameterFile, t.Name)
				}
			}
		}
		// base/<task> of a merged extension is there in case a plan
		// wants it; not using it is normal.
		if !used[t.Name] && !v.partial && !strings.HasPrefix(t.Name, bundle.BasePrefix) {
			v.warnf(file, line, "task %q defined but not used", t.Name)
		}
	}
}

// isBaseRef reports whether ref names a file of the base of an extension.
func (v *verifier) isBaseRef(ref string) bool {
	return v.b.Extends != nil && strings.HasPrefix(ref, bundle.BasePrefix)
}

// plans is KUDO's plan.ReferenceVerifier plus a warning for a plan or
// phase without a strategy (KUDO's parallel). A strategy other than
// "serial" and "parallel" is an error of loadChecks, as of loading
// (bundle.StrategyProblem: KUDO ran it in parallel, so a typo silently
// changed the order).
func (v *verifier) plans() {
	b := v.b
	if b.Plan("deploy") == nil && !v.partial {
		v.errorf(b.File, 0, "an operator is required to have 'deploy' plan")
	}
	var planNames []string
	for _, pl := range b.Plans {
		planNames = append(planNames, pl.Name)
	}
	for _, p := range b.Params {
		if p.Trigger != "" && b.Plan(p.Trigger) == nil && !v.partial {
			file, line := paramPos(p)
			v.errorf(file, line, "plan %q used in parameter %q is not defined%s", p.Trigger, p.Name, suggest.DidYouMean(p.Trigger, planNames))
		}
	}
	for _, pl := range b.Plans {
		file := cmp.Or(pl.Pos.File, b.File)
		if pl.Strategy == "" {
			v.warnf(file, pl.Pos.Line, "plan %q %s", pl.Name, noStrategy)
		}
		for _, ph := range pl.Phases {
			if ph.Strategy == "" {
				v.warnf(file, pl.Pos.Line, "phase %q of plan %q %s", ph.Name, pl.Name, noStrategy)
			}
		}
	}
}

const noStrategy = `has no strategy: KUDO runs it in parallel (anything but "serial" is parallel)`
