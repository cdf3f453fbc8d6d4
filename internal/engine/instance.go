package engine

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/kube/kinds"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/plan"
	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/schema"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// instance is the render of one request: its units (the instance and the
// dependencies its KudoOperator tasks install) and the items so far.
type instance struct {
	req    Request
	budget *limits.Budget
	// secrets collects the values of the secret parameters of its units.
	secrets    *paramSecrets
	top        *plan.Unit
	units      map[*plan.Unit]*unit
	source     string
	commonSeen map[string]bool
	commonList []common
	items      []Item
	// warnings of the bundles rendered (the instance's, its dependencies')
	warnings []*diag.Diagnostic
	// off are the Toggle tasks that leave their objects out.
	off []OffToggle
}

// unit is how one instance is rendered.
type unit struct {
	r        *render.Renderer
	resolver DependencyResolver
	// dir is the folder of the unit's package relative to the rendered
	// bundle's ("" for that bundle), when located: the files of its
	// problems are given relative to it (see located).
	dir     string
	located bool
}

// in gives the files of err's problems, found relative to the unit's
// package, relative to the rendered bundle, when the unit is located.
func (u *unit) in(err error) error {
	if !u.located {
		return err
	}
	return diag.InDir(u.dir, err)
}

// file is the path of a file of u's package relative to the rendered
// bundle, when u is located.
func (u *unit) file(name string) string {
	if !u.located {
		return name
	}
	return path.Join(u.dir, name)
}

// childDir is the folder of the package the KudoOperator task t of u
// installs, relative to the rendered bundle, when t names it by a path
// in u's own files ("./zookeeper"); a package found in a repository, or
// named by a base's task, is not located (its problems keep the files of
// their own package, their message naming the task).
func (u *unit) childDir(t *bundle.Task) (string, bool) {
	p := t.Operator.Package
	if !u.located || t.Depth > 0 || !(strings.HasPrefix(p, ".") || strings.Contains(p, "/")) {
		return "", false
	}
	if path.IsAbs(p) {
		return path.Clean(p), true
	}
	return path.Join(u.dir, p), true
}

func renderOne(req Request, budget *limits.Budget, secrets *paramSecrets) (*instance, error) {
	if err := object.CheckInstanceName(req.Instance.Name); err != nil {
		return nil, fmt.Errorf("instance name %v (set metadata.name)", err)
	}
	if err := object.CheckLabel(req.Instance.Namespace); err != nil {
		return nil, fmt.Errorf("namespace %v (set metadata.namespace)", err)
	}
	in, err := newInstance(req, budget, secrets)
	if err != nil {
		return nil, err
	}
	invs, err := in.schedule()
	if err != nil {
		return nil, err
	}
	if err := in.commons(invs); err != nil {
		return nil, err
	}
	state, err := in.fold(invs)
	if err != nil {
		return nil, err
	}
	entries := state.Entries()
	in.items = make([]Item, 0, len(entries))
	for _, e := range entries {
		in.items = append(in.items, in.item(e))
	}
	return in, nil
}

// newInstance resolves the parameters and resources of req, adding the
// values of its secret parameters to secrets.
func newInstance(req Request, budget *limits.Budget, secrets *paramSecrets) (*instance, error) {
	b := req.Bundle
	values, err := resolveParams(b, req.Params, budget, req.Instance.Name)
	secrets.add(secretValues(b, req.Params, values))
	if err != nil {
		return nil, err
	}
	resources, err := definedResources(b, req.Resources, req.ResourceSource, budget)
	if err != nil {
		return nil, err
	}
	top := &plan.Unit{Bundle: b, Instance: req.Instance.Name, Values: values}
	r := render.New(b, values, req.Instance, render.Options{PublisherImage: req.PublisherImage, Resources: resources, Budget: budget})
	source := req.Source
	if source == "" {
		source = b.ID()
	}
	return &instance{
		req: req, budget: budget, secrets: secrets, top: top, source: source, commonSeen: map[string]bool{},
		units:    map[*plan.Unit]*unit{top: {r: r, resolver: extend.Prefetch(req.Dependencies, req.Bundle), located: true}},
		warnings: b.Warnings,
	}, nil
}

// resolveParams is the one parameter stage (schema.ResolveParams), within
// the render's budget: the values resolution copies for the instance
// (each value given, else its default) are charged before it makes them,
// and validation charges its schema steps. inst names the instance.
func resolveParams(b *bundle.Bundle, values map[string]any, budget *limits.Budget, inst string) (params.Values, error) {
	used := make(map[string]any, len(b.Params))
	for _, p := range b.Params {
		switch {
		case p == nil:
		case values[p.Name] != nil:
			used[p.Name] = values[p.Name]
		case p.Default != nil:
			used[p.Name] = p.Default
		}
	}
	if err := budget.ChargeValue(used, fmt.Sprintf("the parameters of instance %q", inst)); err != nil {
		return nil, err
	}
	return schema.ResolveParamsWithin(b, values, budget)
}

func (in *instance) schedule() ([]*plan.Invocation, error) {
	opts := plan.Options{Instance: in.req.Instance.Name, PipeNames: in.req.PipeNames}
	if in.req.Dependencies != nil {
		opts.Dependency = in.dependency
	}
	return plan.ScheduleUnit(in.top, in.req.plans(), opts)
}

// commons renders the common/ manifests, once per framework: the
// rendered one's, then those of its dependencies in the order they run
// (renderAll keeps the first of each framework over all requests).
func (in *instance) commons(invs []*plan.Invocation) error {
	if err := in.common(in.top); err != nil {
		return err
	}
	for _, inv := range invs {
		if u := inv.Unit; u != nil && u != in.top {
			if err := in.common(u); err != nil {
				return err
			}
		}
	}
	return nil
}

func (in *instance) common(u *plan.Unit) error {
	b := u.Bundle
	if in.commonSeen[b.ID()] {
		return nil
	}
	in.commonSeen[b.ID()] = true
	objs, err := in.units[u].r.Common()
	if err != nil {
		return u.Wrap(in.units[u].in(err))
	}
	source, origin := in.source, in.req.Origin
	if u != in.top {
		source, origin = b.ID(), ""
	}
	c := common{id: b.ID()}
	for _, rd := range objs {
		c.items = append(c.items, Item{
			Obj: rd.Obj, Wave: -1, ServerSideApply: ServerSideApply(b, in.req.ServerSideApply),
			Meta: enhance.Meta{OperatorName: b.Name, OperatorVersion: b.Version, Source: source, Origin: origin, Template: rd.Template},
			dir:  in.units[u].dir,
		})
	}
	in.commonList = append(in.commonList, c)
	return nil
}

// fold renders every invocation and folds applies and deletes into the
// desired state.
func (in *instance) fold(invs []*plan.Invocation) (*plan.State, error) {
	state := plan.NewState()
	for _, inv := range invs {
		objs, err := in.run(inv)
		if err != nil {
			return nil, err
		}
		if inv.Action == plan.Delete && inv.Task.Kind == bundle.KindToggle {
			in.recordOff(inv, objs)
		}
		for _, rd := range objs {
			key := in.key(rd.Obj)
			switch {
			case inv.Action == plan.Delete:
				state.Delete(key)
			case inv.Toggled && state.Has(key):
				// already part of the rendered plans
			default:
				state.Apply(key, rd.Obj, inv, rd.Template)
				if rd.Hook {
					state.Delete(key)
				}
			}
		}
	}
	return state, nil
}

// recordOff records a Toggle task whose parameter is false.
func (in *instance) recordOff(inv *plan.Invocation, objs []render.Rendered) {
	t := OffToggle{Step: StepRef{Namespace: in.req.Instance.Namespace, Instance: in.req.Instance.Name, Plan: inv.Plan, Phase: inv.Phase, Step: inv.Step},
		Task: inv.Task.Name, Parameter: inv.Task.Parameter, Wave: inv.Wave}
	if u := inv.Unit; u != nil && u != in.top {
		t.Step.Instance = u.Instance
	}
	for _, rd := range objs {
		t.Objects = append(t.Objects, rd.Obj.Kind()+"/"+rd.Obj.Name())
	}
	in.off = append(in.off, t)
}

// run renders the task of one invocation with its unit's renderer; a
// problem of a dependency's task says which KudoOperator tasks install
// it.
func (in *instance) run(inv *plan.Invocation) ([]render.Rendered, error) {
	step := render.Step{Plan: inv.Plan, Phase: inv.Phase, Step: inv.Step, Task: inv.Task.Name, Pipes: inv.Pipes}
	u := in.units[in.top]
	if cu := in.units[inv.Unit]; cu != nil {
		u = cu
	}
	var objs []render.Rendered
	var err error
	if inv.Action == plan.Pipe {
		objs, err = u.r.Pipe(step, inv.Task)
	} else {
		objs, err = u.r.Task(step, inv.Task)
	}
	if err != nil {
		return nil, inv.Unit.Wrap(u.in(err))
	}
	return objs, nil
}

// key identifies an object of the desired state.
func (in *instance) key(o *object.Object) string {
	ns := in.req.Instance.Namespace
	if kinds.ClusterScoped(o.Group(), o.Kind()) {
		ns = ""
	}
	return o.Group() + "/" + o.Kind() + "/" + ns + "/" + o.Name()
}

// item turns an entry of the desired state into an item.
func (in *instance) item(e *plan.Entry) Item {
	b, req := in.req.Bundle, in.req
	it := Item{
		Obj: e.Obj, Wave: e.Wave, Hook: e.Hook, ServerSideApply: ServerSideApply(b, req.ServerSideApply),
		Task: e.Inv.Task.Name,
		Meta: enhance.Meta{
			OperatorName: b.Name, OperatorVersion: b.Version,
			Instance: req.Instance.Name, Namespace: req.Instance.Namespace,
			Plan: e.Inv.Plan, Phase: e.Inv.Phase, Step: e.Inv.Step,
			Source: in.source, Origin: req.Origin, Template: e.Template,
		},
	}
	first := e.First
	if first == nil {
		first = e.Inv
	}
	it.First = StepRef{Namespace: req.Instance.Namespace, Instance: req.Instance.Name, Plan: first.Plan, Phase: first.Phase, Step: first.Step}
	if u := first.Unit; u != nil && u != in.top {
		it.First.Instance = u.Instance
	}
	if t := e.Inv.Task; t.Kind == bundle.KindToggle {
		it.Toggle = &Toggle{Task: t.Name, Parameter: t.Parameter}
	}
	if u := e.Inv.Unit; u != nil && u != in.top {
		// an object of a dependency: its own operator and instance
		ub := u.Bundle
		it.Meta.OperatorName, it.Meta.OperatorVersion = ub.Name, ub.Version
		it.Meta.Instance, it.Meta.Source, it.Meta.Origin = u.Instance, ub.ID(), ""
		it.ServerSideApply = ServerSideApply(ub, req.ServerSideApply)
		if u.Parent != nil {
			it.Parent = u.Parent.Instance
		}
		if cu := in.units[u]; cu != nil {
			it.dir = cu.dir
		}
	}
	return it
}

// dependency resolves a KudoOperator task: the package, the instance name
// (instanceName, or <parent>-<operator> as KUDO names it) and the
// parameters from the parameter file, rendered with the parent's
// variables. Its parameters go through the same stage as the top
// instance's.
func (in *instance) dependency(parent *plan.Unit, t *bundle.Task) (*plan.Unit, error) {
	pu := in.units[parent]
	if pu == nil || pu.resolver == nil {
		return nil, fmt.Errorf("cannot resolve package %q", t.Operator.Package)
	}
	// The instance is counted before its package is loaded: a graph of
	// more instances than the budget stops at the first one too many.
	if err := in.budget.Charge(limits.RenderInstances, 1, fmt.Sprintf("task %q (KudoOperator) of instance %q", t.Name, parent.Instance)); err != nil {
		return nil, err
	}
	dir, located := pu.childDir(t)
	child := &unit{dir: dir, located: located}
	b, resolver, err := pu.resolver(t)
	if err != nil {
		return nil, child.in(err)
	}
	for _, w := range b.Warnings {
		c := *w
		if c.File != "" {
			c.File = child.file(c.File)
		}
		in.warnings = append(in.warnings, &c)
	}
	name := t.Operator.InstanceName
	if name == "" {
		name = parent.Instance + "-" + b.Name
	}
	if err := object.CheckInstanceName(name); err != nil {
		return nil, fmt.Errorf("task %q: instance name of the dependency %v (set instanceName)", t.Name, err)
	}
	raw, err := pu.r.ParameterFile(t.Operator.ParameterFile)
	if err != nil {
		return nil, pu.in(err) // a file of the parent
	}
	values, err := resolveParams(b, raw, in.budget, name)
	in.secrets.add(secretValues(b, raw, values))
	if err != nil {
		placeParams(err, t, pu, child)
		return nil, fmt.Errorf("instance %q of %s: %w", name, b.ID(), err)
	}
	cu := &plan.Unit{Bundle: b, Instance: name, Values: values, Parent: parent}
	inst := render.Instance{Name: name, Namespace: in.req.Instance.Namespace}
	child.r, child.resolver = render.New(b, values, inst, render.Options{PublisherImage: in.req.PublisherImage, Budget: in.budget}), resolver
	in.units[cu] = child
	return cu, nil
}

// placeParams puts the violations of a dependency's parameters where
// they are written: a default in the dependency's params.yaml, a value in
// the parent's parameter file (or, without one, at the KudoOperator task
// that gives none).
func placeParams(err error, t *bundle.Task, parent, child *unit) {
	pe, ok := errors.AsType[*params.Error](err)
	if !ok {
		return
	}
	for i := range pe.Violations {
		v := &pe.Violations[i]
		switch {
		case v.At.File != "":
			v.At.File = child.file(v.At.File)
		case t.Operator.ParameterFile != "":
			v.At = bundle.Pos{File: parent.file(bundle.TemplatePath(t.Operator.ParameterFile)), Field: v.Param}
		case t.Pos.File != "":
			v.At = bundle.Pos{File: parent.file(t.Pos.File), Line: t.Pos.Line}
		}
	}
}

// definedResources validates the resources of the framework's definitions
// and groups them for templates; a framework without definitions accepts
// none. source says where a resource came from (nil: unknown).
func definedResources(b *bundle.Bundle, resources []map[string]any, source func(map[string]any) string, budget *limits.Budget) (map[string][]any, error) {
	if len(b.Definitions) == 0 {
		if len(resources) > 0 {
			return nil, fmt.Errorf("%d resource(s) given, but %s has no resource definitions (definitions/)", len(resources), b.ID())
		}
		return map[string][]any{}, nil
	}
	defs, err := schema.LoadDefinitions(b)
	if err != nil {
		return nil, err
	}
	return schema.ResourcesWithin(b.Name, defs, resources, source, budget)
}
