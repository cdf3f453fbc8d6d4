package verify

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/schema"
)

// role says how tasks use a template.
type role struct {
	object     bool // Apply, Delete or Toggle resource, or a Pipe pod
	patch      bool // KEP-0009 patch
	paramFile  bool // a KudoOperator task's parameter file
	referenced bool
}

func (v *verifier) roles() map[string]*role {
	out := map[string]*role{}
	mark := func(ref string, set func(*role)) {
		if v.isBaseRef(ref) {
			return
		}
		r := out[ref]
		if r == nil {
			r = &role{}
			out[ref] = r
		}
		r.referenced = true
		set(r)
	}
	object := func(r *role) { r.object = true }
	patch := func(r *role) { r.patch = true }
	for _, t := range v.b.Tasks {
		for _, ref := range t.Resources {
			mark(ref, object)
		}
		if t.Kind == bundle.KindPipe && t.Pod != "" {
			mark(t.Pod, object)
		}
		for _, ref := range t.Patches {
			mark(ref.Path, patch)
		}
		for _, ref := range t.PatchesStrategicMerge {
			mark(ref, patch)
		}
		if t.Operator != nil && t.Operator.ParameterFile != "" {
			mark(t.Operator.ParameterFile, func(r *role) { r.paramFile = true })
		}
	}
	return out
}

// templates is KUDO's template.ParametersVerifier, ReferenceVerifier,
// RenderVerifier and NamespaceVerifier.
func (v *verifier) templates() {
	b := v.b
	roles := v.roles()
	pipeKeys := map[string]bool{}
	toggles := map[string]bool{}
	for _, t := range b.Tasks {
		for _, pf := range t.Pipe {
			pipeKeys[pf.Key] = true
		}
		if t.Kind == bundle.KindToggle && t.Parameter != "" {
			toggles[t.Parameter] = true
		}
	}

	parsed := map[string]*tmpl.Template{}
	usedParams := map[string]bool{}
	dynamic := false
	for _, name := range slices.Sorted(maps.Keys(b.Templates)) {
		file := templatePath(name)
		if roles[name] == nil && !v.partial {
			v.warnf(file, 0, "template %q is not referenced from any task", name)
		}
		if roles[name] == nil && !isYAMLName(name) {
			continue // not a template KUDO would read; nothing uses it
		}
		src := b.Templates[name]
		t, err := tmpl.Parse(file, src)
		if err != nil {
			line, msg := tmplError(err)
			v.errorf(file, line, "cannot parse template: %s", msg)
			dynamic = true // its uses are unknown
			continue
		}
		parsed[name] = t
		a := analyse(t, src)
		dynamic = dynamic || a.dynamic
		for _, u := range a.uses {
			switch u.kind {
			case useImplicit:
				v.errorf(file, u.line, "template uses the undefined implicit variable %q%s; templates can use %s",
					u.name, didYouMean(u.name, implicits), strings.Join(implicits, ", "))
			case useParam:
				usedParams[u.name] = true
				if b.Param(u.name) == nil && !v.partial {
					v.errorf(file, u.line, "parameter %q is used but not defined in params.yaml%s", u.name, didYouMean(u.name, paramNames(b)))
				}
			case useParamSoft:
				usedParams[u.name] = true
			case usePipe:
				if !pipeKeys[u.name] && !v.partial {
					v.errorf(file, u.line, "pipe %q is not defined: no Pipe task has a pipe file with key %q%s",
						u.name, u.name, didYouMean(u.name, slices.Sorted(maps.Keys(pipeKeys))))
				}
			}
		}
	}

	if !dynamic && !v.partial {
		for _, p := range b.Params {
			if !usedParams[p.Name] && !toggles[p.Name] && p.Trigger == "" {
				file, line := paramPos(p)
				v.warnf(file, line, "parameter %q defined but not used", p.Name)
			}
		}
	}

	if !v.partial {
		v.render(parsed, roles, toggles)
	}
}

// isYAMLName reports whether KUDO would read a file of templates/ as a
// template: its reader takes names matching `.*\.yaml`.
func isYAMLName(name string) bool {
	return strings.Contains(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// tmplError splits an error of package tmpl into line and message.
func tmplError(err error) (int, string) {
	var te *tmpl.Error
	if errors.As(err, &te) {
		return te.Line, te.Msg
	}
	return 0, err.Error()
}

func paramNames(b *bundle.Bundle) []string {
	out := make([]string, 0, len(b.Params))
	for _, p := range b.Params {
		out = append(out, p.Name)
	}
	return out
}

// didYouMean suggests a name that differs from name only in case.
func didYouMean(name string, names []string) string {
	for _, n := range names {
		if n != name && strings.EqualFold(n, name) {
			return fmt.Sprintf(" (did you mean %q?)", n)
		}
	}
	return ""
}

// Sample values of the implicit variables for rendering.
const (
	sampleInstance  = "inst"
	sampleNamespace = "ns"
	samplePlan      = "deploy"
	samplePhase     = "main"
	sampleStep      = "main"
)

// render renders every template with the parameter defaults and decodes
// the output.
func (v *verifier) render(parsed map[string]*tmpl.Template, roles map[string]*role, toggles map[string]bool) {
	b := v.b
	values, placeholder := v.sampleValues(toggles)
	if values == nil {
		return
	}
	for _, t := range b.Tasks {
		if t.Kind != bundle.KindToggle || placeholder[t.Parameter] {
			continue
		}
		val, ok := values[t.Parameter]
		if !ok {
			continue
		}
		if _, err := params.ParseBool(val); err != nil {
			file := t.Pos.File
			if file == "" {
				file = b.File
			}
			v.warnf(file, t.Pos.Line, "Toggle task %q cannot use the default of parameter %q: %v; the task fails unless a boolean value is given",
				t.Name, t.Parameter, err)
		}
	}
	data := map[string]any{
		"OperatorName":    b.Name,
		"Name":            sampleInstance,
		"Namespace":       sampleNamespace,
		"AppVersion":      b.AppVersion,
		"OperatorVersion": b.Version,
		"PlanName":        samplePlan,
		"PhaseName":       samplePhase,
		"StepName":        sampleStep,
		"Params":          map[string]any(values),
		"Pipes":           v.samplePipes(),
		"Resources":       v.sampleResources(),
	}
	for _, name := range slices.Sorted(maps.Keys(parsed)) {
		file := templatePath(name)
		out, err := parsed[name].Execute(data)
		if err != nil {
			line, msg := tmplError(err)
			v.errorf(file, line, "rendering with the default parameter values: %s", msg)
			continue
		}
		r := roles[name]
		if r != nil && !r.object {
			// Patches and parameter files are not objects: valid YAML is
			// all that is asked.
			if line, msg := checkYAML(out); msg != "" {
				v.errorf(file, line, "rendering with the default parameter values: %s", msg)
			}
			continue
		}
		docs, err := tmpl.Decode(out)
		if err != nil {
			line, msg := tmplError(err)
			v.errorf(file, line, "rendering with the default parameter values: %s", msg)
			continue
		}
		for _, d := range docs {
			if d.Map["kind"] == "Namespace" {
				v.errorf(file, d.Line, "template contains 'kind: Namespace', which is not allowed: "+
					"the GitOps tool creates the namespace (for example Argo CD's CreateNamespace=true)")
			}
		}
	}
}

// sampleValues resolves the parameter defaults. Parameters without a
// usable default (required without one, or with an invalid one, which
// paramDefs reports) get a placeholder of their type, named in the second
// result. It returns nil if the values cannot be resolved.
func (v *verifier) sampleValues(toggles map[string]bool) (params.Values, map[string]bool) {
	b := v.b
	given := map[string]any{}
	placeholder := map[string]bool{}
	for _, p := range b.Params {
		if (!p.HasDefault() && p.Required) || len(defaultProblems(p)) > 0 {
			given[p.Name] = placeholderValue(p, toggles[p.Name])
			placeholder[p.Name] = true
		}
	}
	values, err := params.Resolve(b.Params, given)
	if err != nil {
		v.errorf(paramsFile, 0, "cannot resolve parameter values for rendering: %v", err)
		return nil, nil
	}
	return values, placeholder
}

// placeholderValue is a value of p's type: its first enum value if it has
// one, "true" for the parameter of a Toggle task.
func placeholderValue(p *bundle.Param, toggle bool) any {
	if len(p.Enum) > 0 && p.Enum[0] != nil {
		return p.Enum[0]
	}
	if toggle {
		return "true"
	}
	switch p.Type {
	case bundle.TypeInteger, bundle.TypeNumber:
		return "1"
	case bundle.TypeBoolean:
		return "true"
	case bundle.TypeArray:
		return "[]"
	case bundle.TypeMap:
		return "{}"
	}
	return "placeholder"
}

// samplePipes maps every pipe key to the name KUDO would give its artifact
// for the instance sampleInstance, taking the plan, phase and step of the
// first step that runs the Pipe task.
func (v *verifier) samplePipes() map[string]any {
	out := map[string]any{}
	for _, t := range v.b.Tasks {
		if t.Kind != bundle.KindPipe {
			continue
		}
		plan, phase, step := samplePlan, samplePhase, sampleStep
	find:
		for _, pl := range v.b.Plans {
			for _, ph := range pl.Phases {
				for _, st := range ph.Steps {
					if slices.Contains(st.Tasks, t.Name) {
						plan, phase, step = pl.Name, ph.Name, st.Name
						break find
					}
				}
			}
		}
		for _, pf := range t.Pipe {
			out[pf.Key] = artifactName(sampleInstance, plan, phase, step, t.Name, pf.Key)
		}
	}
	return out
}

var nonAlnum = lazy.Regexp(`[^a-z0-9]+`)

// artifactName is KUDO's PipeArtifactName.
func artifactName(parts ...string) string {
	for i, p := range parts {
		parts[i] = nonAlnum().ReplaceAllString(strings.ToLower(p), "")
	}
	return strings.Join(parts, ".")
}

// sampleResources gives templates an empty list for every slugPlural of
// the bundle's resource definitions, so that `range .Resources.topics`
// renders.
func (v *verifier) sampleResources() map[string]any {
	out := map[string]any{}
	if len(v.b.Definitions) == 0 {
		return out
	}
	defs, err := schema.LoadDefinitions(v.b)
	if err != nil {
		v.errorf("definitions", 0, "%v", err)
		return out
	}
	for _, d := range defs {
		out[d.SlugPlural] = []any{}
	}
	return out
}
