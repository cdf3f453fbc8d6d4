package engine

import (
	"cmp"
	"fmt"
	"path"
	"slices"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/par"
)

// kubeVersion is the target of opts, kubeversion.Default when unset.
func kubeVersion(opts Options) kubeversion.Version {
	if opts.KubeVersion == (kubeversion.Version{}) {
		return kubeversion.Default
	}
	return opts.KubeVersion
}

// place fills the template file and line of a diagnostic about the i-th
// item's object.
func place(d *diag.Diagnostic, it Item) {
	if d.File == "" && it.Meta.Template != "" {
		d.File = path.Join(it.dir, it.Meta.Template)
	}
	if d.Line == 0 && it.Obj.Line != nil {
		d.Line = it.Obj.Line(d.Field)
	}
}

// convert converts the objects whose API version the target Kubernetes
// version no longer serves (package kube/versions), each conversion a
// note about its object; all refusals are returned at once.
func convert(items []Item, opts Options, found *findings) error {
	v := kubeVersion(opts)
	notes := make([]*diag.Diagnostic, len(items))
	errs := make([]error, len(items))
	par.DoIf(par.Distinct(Objects(items)), len(items), func(i int) {
		notes[i], errs[i] = versions.Convert(items[i].Obj, v)
	})
	var refused []*diag.Diagnostic
	for i, err := range errs {
		if err == nil {
			continue
		}
		for _, d := range diag.From(err) {
			place(d, items[i])
			refused = append(refused, d)
		}
	}
	if len(refused) > 0 {
		return &diag.Error{Head: fmt.Sprintf("objects of API versions Kubernetes %s no longer serves", v), List: refused}
	}
	for i, n := range notes {
		if n != nil {
			place(n, items[i])
			found.add(n, items[i].Obj)
		}
	}
	return nil
}

// chargeDefinitions charges the render's budget with what the
// CustomResourceDefinitions among items cost (typing them, compiling the
// rules their validation compiles) before anything types them (package
// kube/validate).
func chargeDefinitions(items []Item, opts Options) error {
	for _, it := range items {
		where := path.Join(it.dir, it.Meta.Template)
		if err := validate.ChargeDefinition(it.Obj, opts.Budget, where); err != nil {
			return err
		}
		if opts.NoValidate {
			continue
		}
		if err := validate.ChargeDefinitionRules(it.Obj, opts.Budget, where); err != nil {
			return err
		}
	}
	return nil
}

// validateItems validates the final objects against the target
// Kubernetes version (package kube/validate); every problem of every
// object is returned at once.
func validateItems(items []Item, opts Options) error {
	v := kubeVersion(opts)
	objs := Objects(items)
	crds := opts.CRDs
	if opts.LoadCRDs != nil {
		more, err := opts.LoadCRDs()
		if err != nil {
			return err
		}
		crds = append(slices.Clip(crds), more...)
	}
	val := validate.New(objs, validate.Options{CRDs: crds, Version: v.String(), Older: olderThan(v), Budget: opts.Budget})
	if err := val.Err(); err != nil {
		return err
	}
	found := make([][]*diag.Diagnostic, len(items))
	par.Do(len(items), func(i int) { found[i] = val.Object(objs[i]) })
	if err := val.Err(); err != nil {
		return err
	}
	var list []*diag.Diagnostic
	for i, ds := range found {
		for _, d := range ds {
			place(d, items[i])
		}
		// an object's problems in the order of its template's lines
		slices.SortStableFunc(ds, func(a, b *diag.Diagnostic) int { return cmp.Compare(a.Line, b.Line) })
		for _, d := range ds {
			if d.IsWarning() { // a value the server accepts but stores otherwise
				opts.note(d)
			} else {
				list = append(list, d)
			}
		}
	}
	if len(list) == 0 {
		return nil
	}
	return &diag.Error{Head: fmt.Sprintf("the Kubernetes %s API server would refuse these objects", v), List: list}
}

// olderThan reports, for target v, whether an API version removed from
// Kubernetes before today's is still served by v.
func olderThan(v kubeversion.Version) func(apiVersion, kind string) bool {
	if v == kubeversion.Default {
		return nil
	}
	return func(apiVersion, kind string) bool { return versions.StillServed(apiVersion, kind, v) }
}

// note reports a diagnostic that is not an error: to opts.Note, or as
// text to opts.Warn.
func (opts Options) note(d *diag.Diagnostic) {
	switch {
	case opts.Note != nil:
		opts.Note(d)
	case opts.Warn != nil:
		opts.Warn(d.Error())
	}
}
