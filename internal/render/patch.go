package render

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// PatchError is a kustomize patch of a task that could not be applied.
type PatchError struct {
	Patch string // bundle path of the patch file
	Err   error
}

func (e *PatchError) Error() string { return fmt.Sprintf("patch %s: %v", e.Patch, e.Err) }

func (e *PatchError) Unwrap() error { return e.Err }

// Diagnostics implements diag.Carrier: the problems of the patch, in the
// patch file unless they name another.
func (e *PatchError) Diagnostics() []*diag.Diagnostic {
	inner := diag.From(e.Err)
	out := make([]*diag.Diagnostic, len(inner))
	for i, d := range inner {
		c := *d
		if c.File == "" {
			c.File = e.Patch
		}
		out[i] = &c
	}
	return out
}

// Task renders a task's resources and applies its patches: first
// `patches`, then `patchesStrategicMerge`, each file in order. Patch files
// are templates too. Patches are applied by kustomize (krusty on an
// in-memory filesystem), one file at a time so that an error names the
// file.
func (r *Renderer) Task(s Step, t *bundle.Task) ([]Rendered, error) {
	objs, err := r.Resources(s, t.Resources)
	if err != nil || (len(t.Patches) == 0 && len(t.PatchesStrategicMerge) == 0) {
		return objs, err
	}
	vars, err := r.vars(s)
	if err != nil {
		return nil, r.fail(s, err)
	}
	patches := slices.Clone(t.Patches)
	for _, name := range t.PatchesStrategicMerge {
		patches = append(patches, bundle.Patch{Path: name})
	}
	for _, pt := range patches {
		name := pt.Path
		src, ok := r.b.Templates[name]
		if !ok {
			return nil, r.fail(s, fmt.Errorf("patch %q is not in templates/", name))
		}
		out, err := r.run(bundle.TemplatePath(name), src, vars)
		if err != nil {
			return nil, r.fail(s, err)
		}
		target, err := r.patchTarget(pt.Target, vars)
		if err != nil {
			return nil, r.fail(s, &PatchError{Patch: bundle.TemplatePath(name), Err: err})
		}
		done := activity.DoingFunc(func() string { return r.doing("applying the patch " + bundle.TemplatePath(name)) })
		objs, err = applyPatch(objs, bundle.TemplatePath(name), out.Text, target, r.opts.Budget)
		done()
		if err != nil {
			return nil, r.fail(s, err)
		}
	}
	return objs, nil
}

// applyPatch applies one patch file to objs with kustomize. Objects keep
// the template they came from. What it produces is charged to budget:
// the text of the objects given to kustomize before it runs, the values
// of the objects it returns after; the copies of a JSON 6902 patch are
// bounded by --max-template-bytes while it runs.
func applyPatch(objs []Rendered, name string, patch []byte, target *types.Selector, budget *limits.Budget) ([]Rendered, error) {
	fs := filesys.MakeFsInMemory()
	var resources []string
	origin := map[string]string{}
	bool11 := map[string][]string{}
	for i, o := range objs {
		data, err := o.Obj.Marshal()
		if err != nil {
			return nil, &PatchError{Patch: name, Err: err}
		}
		if err := budget.Charge(limits.RenderBytes, int64(len(data)), name+" (the objects it patches)"); err != nil {
			return nil, err
		}
		file := fmt.Sprintf("r%04d.yaml", i)
		if err := fs.WriteFile(path.Join("/task", file), data); err != nil {
			return nil, &PatchError{Patch: name, Err: err}
		}
		resources = append(resources, file)
		origin[o.Obj.Key()] = o.Template
		bool11[o.Obj.Key()] = o.Obj.Bool11
	}
	k := types.Kustomization{
		TypeMeta:  types.TypeMeta{APIVersion: types.KustomizationVersion, Kind: types.KustomizationKind},
		Resources: resources,
		Patches:   []types.Patch{{Path: "patch.yaml", Target: target}},
	}
	kdata, err := yaml.Marshal(k)
	if err != nil {
		return nil, &PatchError{Patch: name, Err: err}
	}
	if err := fs.WriteFile("/task/kustomization.yaml", kdata); err != nil {
		return nil, &PatchError{Patch: name, Err: err}
	}
	if err := fs.WriteFile("/task/patch.yaml", patch); err != nil {
		return nil, &PatchError{Patch: name, Err: err}
	}
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionNone
	boundCopies()
	rm, err := krusty.MakeKustomizer(opts).Run(fs, "/task")
	if err != nil {
		return nil, &PatchError{Patch: name, Err: copiesError(err)}
	}
	out := make([]Rendered, 0, rm.Size())
	for _, res := range rm.Resources() {
		m, err := res.Map()
		if err != nil {
			return nil, &PatchError{Patch: name, Err: err}
		}
		if err := budget.ChargeValue(m, name+" (the objects it patched)"); err != nil {
			return nil, err
		}
		o := object.New(m)
		o.Bool11 = bool11[o.Key()] // kube checks that each still holds a string
		out = append(out, Rendered{Template: origin[o.Key()], Obj: o})
	}
	return out, nil
}

// copyBound guards jsonpatch.AccumulatedCopySizeLimit, the library's one
// bound on what the copy operations of a JSON 6902 patch add: without
// it, a patch of a few lines that copies a field into itself doubles the
// object at every operation.
var copyBound sync.Mutex

// boundCopies sets the bound of the copies of one JSON 6902 patch to
// --max-template-bytes (a variable of the library: set only when it
// changes, under copyBound, before kustomize reads it).
func boundCopies() {
	max := limits.Current().TemplateBytes
	copyBound.Lock()
	if jsonpatch.AccumulatedCopySizeLimit != max {
		jsonpatch.AccumulatedCopySizeLimit = max
	}
	copyBound.Unlock()
}

// copiesError is err of kustomize, tidied, or the limit's error when the
// copies of a JSON 6902 patch passed their bound.
func copiesError(err error) error {
	var ce *jsonpatch.AccumulatedCopySizeError
	if errors.As(err, &ce) || strings.Contains(err.Error(), "accumulated size increase of copy") {
		return limits.Err("template-bytes", limits.Current().TemplateBytes, "the values its copy operations add")
	}
	return tidyKustomizeError(err)
}

// tidyKustomizeError drops the in-memory paths from kustomize's messages.
func tidyKustomizeError(err error) error {
	msg := strings.ReplaceAll(err.Error(), "/task/", "")
	return fmt.Errorf("%s", msg)
}

// patchTarget renders the fields of a patch target (they may use the
// template variables, e.g. the instance name) into a kustomize selector.
func (r *Renderer) patchTarget(t *bundle.PatchTarget, vars map[string]any) (*types.Selector, error) {
	if t == nil {
		return nil, nil
	}
	fields := []*string{&t.Group, &t.Version, &t.Kind, &t.Name, &t.Namespace, &t.LabelSelector, &t.AnnotationSelector}
	vals := make([]string, len(fields))
	for i, f := range fields {
		if !strings.Contains(*f, "{{") {
			vals[i] = *f
			continue
		}
		out, err := tmpl.Render("patch target", []byte(*f), vars)
		if err != nil {
			return nil, fmt.Errorf("target: %w", err)
		}
		vals[i] = string(out.Text)
	}
	sel := &types.Selector{LabelSelector: vals[5], AnnotationSelector: vals[6]}
	sel.Group, sel.Version, sel.Kind, sel.Name, sel.Namespace = vals[0], vals[1], vals[2], vals[3], vals[4]
	return sel, nil
}
