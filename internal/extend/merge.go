package extend

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
)

const base = bundle.BasePrefix

// MergeError is a reference from an extension to its base that does not
// resolve, each at the task or plan that makes it.
type MergeError struct {
	Framework string
	Problems  []*diag.Diagnostic
}

func (e *MergeError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.Error()
	}
	if len(lines) == 1 {
		return fmt.Sprintf("cannot extend base of %q: %s", e.Framework, lines[0])
	}
	return fmt.Sprintf("cannot extend base of %q:\n  %s", e.Framework, strings.Join(lines, "\n  "))
}

// Diagnostics implements diag.Carrier.
func (e *MergeError) Diagnostics() []*diag.Diagnostic { return e.Problems }

// Merge builds the framework that ext describes on top of b, following
// KEP-0012 and KEP-0009:
//
//   - everything of the base is inherited: its templates are available as
//     base/<file>, its tasks under their own name (unless the extension
//     defines a task of that name) and always as base/<task>, its plans,
//     its parameters, its common/ files;
//   - a task defined in the extension replaces the base task of that name;
//     `from: base/<task>` first copies that base task's resources and
//     patches, then the extension's entries replace those with the same
//     file name and the others are appended;
//   - a plan defined in the extension replaces the base plan; `from:
//     base/<plan>` copies the base plan's steps and appends the extension's;
//   - inherited plans run the final tasks: a base plan whose step names
//     `backup` runs the extension's `backup` when the extension redefines
//     it;
//   - parameters merge field by field: the fields the extension writes
//     override the base's, the others are kept;
//   - the result has the extension's name and version (the base's when the
//     extension has none), so templates see .OperatorName and
//     .OperatorVersion of the extension.
//
// base/ always means the immediate base: the base's own base/ references
// become base/base/.
func Merge(b, ext *bundle.Bundle) (*bundle.Bundle, error) {
	out := mergeMeta(b, ext)
	mergeFiles(out, b, ext)
	var problems []*diag.Diagnostic
	fail := func(at bundle.Pos, format string, args ...any) {
		problems = append(problems, diag.Newf(at.File, at.Line, "", format, args...))
	}
	out.Tasks = mergeTasks(b, ext, fail)
	out.Plans = mergePlans(b, ext, fail)
	out.Params = mergeParams(b.Params, ext.Params)
	out.Warnings = append(append([]*diag.Diagnostic{}, b.Warnings...), ext.Warnings...)
	if len(problems) > 0 {
		return nil, &MergeError{Framework: out.Name, Problems: problems}
	}
	if err := bundle.Validate(out); err != nil {
		return nil, err
	}
	return out, nil
}

// mergeMeta takes the extension's metadata, the base's where the
// extension says nothing.
func mergeMeta(b, ext *bundle.Bundle) *bundle.Bundle {
	out := &bundle.Bundle{
		Format:            ext.Format,
		File:              ext.File,
		Name:              first(ext.Name, b.Name),
		Version:           first(ext.Version, b.Version),
		AppVersion:        first(ext.AppVersion, b.AppVersion),
		KudoVersion:       first(ext.KudoVersion, b.KudoVersion),
		KubernetesVersion: first(ext.KubernetesVersion, b.KubernetesVersion),
		Description:       first(ext.Description, b.Description),
		URL:               first(ext.URL, b.URL),
		Maintainers:       ext.Maintainers,
		Groups:            append(slices.Clone(b.Groups), ext.Groups...),
	}
	if len(out.Maintainers) == 0 {
		out.Maintainers = b.Maintainers
	}
	return out
}

// mergeFiles merges common/ and definitions/ (the extension's files win),
// keeps the parameter schemas apart for package schema to combine (base
// first), and keeps the base's templates under base/.
func mergeFiles(out, b, ext *bundle.Bundle) {
	out.Common = overlay(b.Common, ext.Common)
	out.Definitions = overlay(b.Definitions, ext.Definitions)
	out.ParamsSchema = ext.ParamsSchema
	if out.ParamsSchema == nil {
		out.ParamsSchema = b.ParamsSchema
	}
	out.BaseParamsSchemas = append(append([][]byte{}, b.BaseParamsSchemas...), b.ParamsSchema)
	out.Templates = map[string][]byte{}
	for k, v := range b.Templates {
		out.Templates[base+k] = v
	}
	maps.Copy(out.Templates, ext.Templates)
	out.Unread = map[string]string{}
	for k, v := range b.Unread {
		if rest, ok := strings.CutPrefix(k, "templates/"); ok {
			out.Unread["templates/"+base+rest] = v
		}
	}
	maps.Copy(out.Unread, ext.Unread)
}

// overlay is a copy of files with over's entries written over it.
func overlay(files, over map[string][]byte) map[string][]byte {
	out := maps.Clone(files)
	if out == nil {
		out = map[string][]byte{}
	}
	maps.Copy(out, over)
	return out
}

// mergeTasks: the base's tasks under base/<name>, and under <name> unless
// the extension replaces them; then the extension's, with `from:` copying
// a base task's files.
func mergeTasks(b, ext *bundle.Bundle, fail func(bundle.Pos, string, ...any)) []*bundle.Task {
	var out []*bundle.Task
	defined := map[string]bool{}
	for _, t := range ext.Tasks {
		defined[t.Name] = true
	}
	for _, t := range b.Tasks {
		out = append(out, prefixTask(t, base+t.Name))
	}
	for _, t := range b.Tasks {
		if !defined[t.Name] && !strings.HasPrefix(t.Name, base) {
			out = append(out, prefixTask(t, t.Name))
		}
	}
	for _, t := range ext.Tasks {
		nt := *t
		if t.From != "" {
			bt := b.Task(strings.TrimPrefix(t.From, base))
			if !strings.HasPrefix(t.From, base) || bt == nil {
				fail(t.Pos, "task %q: from: %q names no task of the base (tasks: %s)", t.Name, t.From, taskNames(b))
				continue
			}
			taskFrom(&nt, t, bt)
		}
		out = append(out, &nt)
	}
	slices.SortStableFunc(out, func(x, y *bundle.Task) int { return strings.Compare(x.Name, y.Name) })
	return out
}

// taskFrom fills nt, the extension's task t, from the base task bt: its
// files, replaced by the extension's of the same name, and its kind.
func taskFrom(nt, t, bt *bundle.Task) {
	from := prefixTask(bt, t.Name)
	nt.Resources = replaceByFile(from.Resources, t.Resources)
	nt.Patches = replacePatches(from.Patches, t.Patches)
	nt.PatchesStrategicMerge = replaceByFile(from.PatchesStrategicMerge, t.PatchesStrategicMerge)
	if t.Kind == bundle.KindApply && bt.Kind != bundle.KindApply && t.Parameter == "" {
		nt.Kind, nt.Parameter = bt.Kind, bt.Parameter
	}
	nt.From = ""
}

// mergePlans: the base's plans the extension does not replace, then the
// extension's, with `from:` appending steps to a base plan's.
func mergePlans(b, ext *bundle.Bundle, fail func(bundle.Pos, string, ...any)) []*bundle.Plan {
	var out []*bundle.Plan
	extPlans := map[string]*bundle.Plan{}
	for _, p := range ext.Plans {
		extPlans[p.Name] = p
	}
	for _, p := range b.Plans {
		if _, replaced := extPlans[p.Name]; !replaced {
			out = append(out, prefixPlan(p))
		}
	}
	for _, p := range ext.Plans {
		np := *p
		if p.From != "" {
			bp := b.Plan(strings.TrimPrefix(p.From, base))
			if !strings.HasPrefix(p.From, base) || bp == nil {
				fail(p.Pos, "plan %q: from: %q names no plan of the base (plans: %s)", p.Name, p.From, planNames(b))
				continue
			}
			np.Phases = appendSteps(prefixPlan(bp).Phases, p.Phases, ext.Format)
			if np.Strategy == "" {
				np.Strategy = bp.Strategy
			}
			np.From = ""
		}
		out = append(out, &np)
	}
	slices.SortFunc(out, func(x, y *bundle.Plan) int { return strings.Compare(x.Name, y.Name) })
	return out
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// prefixTask copies a base task under a new name, its file references
// pointing at the base's templates.
func prefixTask(t *bundle.Task, name string) *bundle.Task {
	nt := *t
	nt.Name = name
	nt.Depth = t.Depth + 1
	nt.Resources = prefixAll(t.Resources)
	nt.PatchesStrategicMerge = prefixAll(t.PatchesStrategicMerge)
	nt.Patches = nil
	for _, p := range t.Patches {
		p.Path = base + p.Path
		nt.Patches = append(nt.Patches, p)
	}
	if t.Pod != "" {
		nt.Pod = base + t.Pod
	}
	if t.Operator != nil && t.Operator.ParameterFile != "" {
		op := *t.Operator
		op.ParameterFile = base + op.ParameterFile
		nt.Operator = &op
	}
	return &nt
}

func prefixAll(refs []string) []string {
	if refs == nil {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = base + r
	}
	return out
}

// prefixPlan copies a base plan; step references to the base's own base
// (base/x) become base/base/x, plain names stay and so run the final
// tasks.
func prefixPlan(p *bundle.Plan) *bundle.Plan {
	np := *p
	np.Phases = nil
	for _, ph := range p.Phases {
		nph := *ph
		nph.Steps = nil
		for _, st := range ph.Steps {
			nst := *st
			nst.Tasks = nil
			for _, tn := range st.Tasks {
				if strings.HasPrefix(tn, base) {
					tn = base + tn
				}
				nst.Tasks = append(nst.Tasks, tn)
			}
			nph.Steps = append(nph.Steps, &nst)
		}
		np.Phases = append(np.Phases, &nph)
	}
	return &np
}

// appendSteps appends an extension plan's steps to its base's: for
// framework bundles (one phase per plan) to the last phase; for KUDO
// packages the extension's phases follow the base's.
func appendSteps(basePhases, extPhases []*bundle.Phase, f bundle.Format) []*bundle.Phase {
	if f == bundle.FormatFramework && len(basePhases) > 0 && len(extPhases) > 0 {
		last := *basePhases[len(basePhases)-1]
		last.Steps = slices.Clone(last.Steps)
		for _, ph := range extPhases {
			last.Steps = append(last.Steps, ph.Steps...)
		}
		return append(slices.Clone(basePhases[:len(basePhases)-1]), &last)
	}
	return append(slices.Clone(basePhases), extPhases...)
}

// replaceByFile returns from with every entry whose file name (without
// base/ prefixes) equals one of ext's replaced by it; the rest of ext is
// appended.
func replaceByFile(from, ext []string) []string {
	out := slices.Clone(from)
	for _, e := range ext {
		if i := slices.IndexFunc(out, func(f string) bool { return fileName(f) == fileName(e) }); i >= 0 {
			out[i] = e
		} else {
			out = append(out, e)
		}
	}
	return out
}

func replacePatches(from, ext []bundle.Patch) []bundle.Patch {
	out := slices.Clone(from)
	for _, e := range ext {
		if i := slices.IndexFunc(out, func(f bundle.Patch) bool { return fileName(f.Path) == fileName(e.Path) }); i >= 0 {
			out[i] = e
		} else {
			out = append(out, e)
		}
	}
	return out
}

func fileName(ref string) string {
	for strings.HasPrefix(ref, base) {
		ref = strings.TrimPrefix(ref, base)
	}
	return path.Clean(ref)
}

// mergeParams merges parameters field by field: a parameter the extension
// also defines takes the fields the extension wrote; new parameters are
// appended in the extension's order.
func mergeParams(baseParams, extParams []*bundle.Param) []*bundle.Param {
	out := make([]*bundle.Param, 0, len(baseParams)+len(extParams))
	index := map[string]int{}
	for _, p := range baseParams {
		cp := *p
		index[p.Name] = len(out)
		out = append(out, &cp)
	}
	for _, e := range extParams {
		i, ok := index[e.Name]
		if !ok {
			cp := *e
			out = append(out, &cp)
			continue
		}
		m := out[i]
		fields := maps.Clone(m.Fields)
		if fields == nil {
			fields = map[string]bool{}
		}
		for f := range e.Fields {
			fields[f] = true
			switch f {
			case "displayName":
				m.DisplayName = e.DisplayName
			case "description":
				m.Description = e.Description
			case "hint":
				m.Hint = e.Hint
			case "group":
				m.Group = e.Group
			case "trigger":
				m.Trigger = e.Trigger
			case "type":
				m.Type = e.Type
			case "immutable":
				m.Immutable = e.Immutable
			case "required":
				m.Required = e.Required
			case "default":
				m.Default, m.DefaultPos = e.Default, e.DefaultPos
			case "enum":
				m.Enum = e.Enum
			}
		}
		if !fields["required"] {
			m.Required = !m.HasDefault()
		}
		m.Fields = fields
		m.Pos = e.Pos
	}
	return out
}

func taskNames(b *bundle.Bundle) string {
	var n []string
	for _, t := range b.Tasks {
		n = append(n, t.Name)
	}
	return strings.Join(n, ", ")
}

func planNames(b *bundle.Bundle) string {
	var n []string
	for _, p := range b.Plans {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}
