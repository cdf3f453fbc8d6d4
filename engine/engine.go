package engine

import (
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/digest"
	"github.com/kudo-render/kudo-render/enhance"
	"github.com/kudo-render/kudo-render/gitops"
	"github.com/kudo-render/kudo-render/object"
	"github.com/kudo-render/kudo-render/params"
	"github.com/kudo-render/kudo-render/plan"
	"github.com/kudo-render/kudo-render/refs"
	"github.com/kudo-render/kudo-render/render"
	"github.com/kudo-render/kudo-render/schema"
)

// DefaultPlan is rendered when a request names no plan.
const DefaultPlan = "deploy"

// Request is one instance of one bundle to render.
type Request struct {
	Bundle    *bundle.Bundle
	Instance  render.Instance
	Plans     []string       // default: deploy
	Params    map[string]any // values from the FunctionConfig
	Target    gitops.Target
	PipeNames map[string]string
	// ServerSideApply overrides the default (on for KEP-0009 bundles,
	// off for KUDO packages) with the argocd target.
	ServerSideApply *bool
	PublisherImage  string
	// Source is the provenance written on every object; default
	// name@version of the bundle. Extensions list their chain
	// ("ext@1 <- base@2").
	Source string
	// Origin lists the git sources of the chain (url@commit:path).
	Origin string
	// Dependencies resolves the packages of KudoOperator tasks; nil makes
	// them an error.
	Dependencies DependencyResolver
	// ExpectedResourceVersions pins the resource versions of the output
	// (digest.Key -> sha256:...); a render that differs fails.
	ExpectedResourceVersions map[string]string
	// Resources are objects of the framework's resource definitions
	// (definitions/*.yaml), validated against their schemas and given to
	// templates as .Resources.<slugPlural>.
	Resources []map[string]any
}

// Marker is the processed-by marker the objects of req carry:
// <framework>@<version>/<digest of everything the render reads>.
func Marker(req Request) (string, error) {
	plans := req.Plans
	if len(plans) == 0 {
		plans = []string{DefaultPlan}
	}
	extra := map[string]string{"publisherImage": req.PublisherImage, "source": req.Source, "origin": req.Origin}
	for k, v := range req.PipeNames {
		extra["pipe."+k] = v
	}
	if req.ServerSideApply != nil {
		extra["serverSideApply"] = fmt.Sprint(*req.ServerSideApply)
	}
	d, err := digest.InputDigest(digest.Input{
		Bundle: req.Bundle, Instance: req.Instance.Name, Namespace: req.Instance.Namespace,
		Plans: plans, Target: string(req.Target), Params: req.Params, Extra: extra,
	})
	if err != nil {
		return "", err
	}
	return digest.Marker(req.Bundle, d), nil
}

// DependencyResolver loads the package a KudoOperator task names, and
// returns the resolver for that package's own dependencies.
type DependencyResolver func(t *bundle.Task) (*bundle.Bundle, DependencyResolver, error)

// Error is a render failure of one instance.
type Error struct {
	Instance  string
	Framework string
	Err       error
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot render instance %q of %s: %v", e.Instance, e.Framework, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// item is an object with what the later stages need to know about it.
type item struct {
	obj    *object.Object
	meta   enhance.Meta
	wave   int
	hook   bool
	ssa    bool
	marker string
}

// Render renders every request and returns the objects of all of them in
// output order. Manifests of common/ appear once per framework.
func Render(reqs ...Request) ([]*object.Object, error) {
	items, err := RenderItems(reqs...)
	if err != nil {
		return nil, err
	}
	out := make([]*object.Object, len(items))
	for i, it := range items {
		out[i] = it.Obj
	}
	return out, nil
}

// RenderItems is Render keeping each object's wave and hook flag, for
// adapters that lay the output out by wave (Flux).
func RenderItems(reqs ...Request) ([]gitops.Item, error) {
	return RenderWith(Options{}, reqs...)
}

// Options of a render as a whole.
type Options struct {
	// Lookup are objects that references (getValueFrom) may read but that
	// are not part of the output: the items of a KRM ResourceList.
	Lookup []*object.Object
	// FailOnSecretCopy makes copying a value out of a Secret into another
	// kind of object an error instead of a warning.
	FailOnSecretCopy bool
	// Warn receives warnings; nil discards them.
	Warn func(string)
}

// RenderWith renders every request: objects are enhanced, their
// cross-resource references resolved, their dependencies hashed, then
// annotated for the target and sorted.
func RenderWith(opts Options, reqs ...Request) ([]gitops.Item, error) {
	var items []item
	commonSeen := map[string]bool{}
	for _, req := range reqs {
		its, err := renderOne(req, commonSeen)
		if err != nil {
			return nil, &Error{Instance: req.Instance.Name, Framework: req.Bundle.ID(), Err: err}
		}
		marker, err := Marker(req)
		if err != nil {
			return nil, err
		}
		for i := range its {
			its[i].marker = marker
		}
		items = append(items, its...)
	}
	objs := make([]*object.Object, len(items))
	for i, it := range items {
		objs[i] = it.obj
	}
	scopes := enhance.ScopesOf(objs)
	for _, it := range items {
		enhance.Object(it.obj, it.meta, scopes)
	}
	if err := refs.Resolve(objs, opts.Lookup, refs.Options{FailOnSecretCopy: opts.FailOnSecretCopy, Warn: opts.Warn}); err != nil {
		return nil, fmt.Errorf("cannot resolve references: %w", err)
	}
	if err := enhance.DependenciesHash(objs); err != nil {
		return nil, err
	}
	gi := make([]gitops.Item, len(items))
	target := gitops.ArgoCD
	for i, it := range items {
		gi[i] = gitops.Item{Obj: it.obj, Wave: it.wave, Hook: it.hook, ServerSideApply: it.ssa}
	}
	if len(reqs) > 0 && reqs[0].Target != "" {
		target = reqs[0].Target
	}
	gitops.Annotate(gi, target)
	// Resource versions and processed-markers come last: they digest
	// everything else.
	for _, it := range items {
		if err := digest.Annotate([]*object.Object{it.obj}, it.marker); err != nil {
			return nil, err
		}
	}
	expected := map[string]string{}
	for _, r := range reqs {
		for k, v := range r.ExpectedResourceVersions {
			expected[k] = v
		}
	}
	if err := digest.Check(objs, expected); err != nil {
		return nil, err
	}
	gitops.Sort(gi)
	return gi, nil
}

func renderOne(req Request, commonSeen map[string]bool) ([]item, error) {
	b := req.Bundle
	if req.Instance.Name == "" {
		return nil, fmt.Errorf("instance name is empty (set metadata.name)")
	}
	if req.Instance.Namespace == "" {
		return nil, fmt.Errorf("namespace is empty (set metadata.namespace)")
	}
	plans := req.Plans
	if len(plans) == 0 {
		plans = []string{DefaultPlan}
	}
	// The parameters' JSON Schema (params.schema.json, or derived from
	// params.yaml) first: every violation with its JSON pointer.
	if err := schema.ValidateParams(b, req.Params); err != nil {
		return nil, err
	}
	values, err := params.Resolve(b.Params, req.Params)
	if err != nil {
		return nil, err
	}
	resources, err := definedResources(b, req.Resources)
	if err != nil {
		return nil, err
	}
	top := &plan.Unit{Bundle: b, Instance: req.Instance.Name, Values: values}
	units := map[*plan.Unit]*unit{top: {r: render.New(b, values, req.Instance, render.Options{PublisherImage: req.PublisherImage, Resources: resources}), resolver: req.Dependencies}}
	opts := plan.Options{Instance: req.Instance.Name, PipeNames: req.PipeNames}
	if req.Dependencies != nil {
		opts.Dependency = func(parent *plan.Unit, t *bundle.Task) (*plan.Unit, error) {
			return dependency(units, parent, t, req)
		}
	}
	invs, err := plan.ScheduleUnit(top, plans, opts)
	if err != nil {
		return nil, err
	}
	r := units[top].r
	source := req.Source
	if source == "" {
		source = b.ID()
	}
	ssa := b.Format == bundle.FormatFramework
	if req.ServerSideApply != nil {
		ssa = *req.ServerSideApply
	}
	keyOf := func(o *object.Object) string {
		ns := req.Instance.Namespace
		if (&enhance.Scopes{}).ClusterScoped(o.Group(), o.Kind()) {
			ns = ""
		}
		return o.Group() + "/" + o.Kind() + "/" + ns + "/" + o.Name()
	}

	var items []item
	// common/ first, once per framework: the rendered one's, then those
	// of its dependencies in the order they run.
	commonOf := func(u *plan.Unit, source, origin string, ssa bool) error {
		ub := u.Bundle
		if commonSeen[ub.ID()] {
			return nil
		}
		commonSeen[ub.ID()] = true
		objs, err := units[u].r.Common()
		if err != nil {
			return err
		}
		for _, rd := range objs {
			items = append(items, item{obj: rd.Obj, wave: -1, ssa: ssa, meta: enhance.Meta{
				OperatorName: ub.Name, OperatorVersion: ub.Version, Source: source, Origin: origin, Template: rd.Template,
			}})
		}
		return nil
	}
	if err := commonOf(top, source, req.Origin, ssa); err != nil {
		return nil, err
	}
	for _, inv := range invs {
		if u := inv.Unit; u != nil && u != top {
			depSSA := u.Bundle.Format == bundle.FormatFramework
			if req.ServerSideApply != nil {
				depSSA = *req.ServerSideApply
			}
			if err := commonOf(u, u.Bundle.ID(), "", depSSA); err != nil {
				return nil, err
			}
		}
	}

	state := plan.NewState()
	for _, inv := range invs {
		step := render.Step{Plan: inv.Plan, Phase: inv.Phase, Step: inv.Step, Task: inv.Task.Name, Pipes: inv.Pipes}
		ur := r
		if u := units[inv.Unit]; u != nil {
			ur = u.r
		}
		var objs []render.Rendered
		switch inv.Action {
		case plan.Pipe:
			objs, err = ur.Pipe(step, inv.Task)
		default:
			objs, err = ur.Task(step, inv.Task)
		}
		if err != nil {
			return nil, err
		}
		for _, rd := range objs {
			key := keyOf(rd.Obj)
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
	for _, e := range state.Entries() {
		it := item{
			obj: e.Obj, wave: e.Wave, hook: e.Hook, ssa: ssa,
			meta: enhance.Meta{
				OperatorName: b.Name, OperatorVersion: b.Version,
				Instance: req.Instance.Name, Namespace: req.Instance.Namespace,
				Plan: e.Inv.Plan, Phase: e.Inv.Phase, Step: e.Inv.Step,
				Source: source, Origin: req.Origin, Template: e.Template,
			},
		}
		if u := e.Inv.Unit; u != nil && u != top {
			// an object of a dependency: its own operator and instance
			it.meta.OperatorName, it.meta.OperatorVersion = u.Bundle.Name, u.Bundle.Version
			it.meta.Instance, it.meta.Source, it.meta.Origin = u.Instance, u.Bundle.ID(), ""
			it.ssa = u.Bundle.Format == bundle.FormatFramework
			if req.ServerSideApply != nil {
				it.ssa = *req.ServerSideApply
			}
		}
		items = append(items, it)
	}
	return items, nil
}

// unit is how one instance is rendered.
type unit struct {
	r        *render.Renderer
	resolver DependencyResolver
}

// dependency resolves a KudoOperator task: the package, the instance name
// (instanceName, or <parent>-<operator> as KUDO names it) and the
// parameters from the parameter file, rendered with the parent's
// variables.
func dependency(units map[*plan.Unit]*unit, parent *plan.Unit, t *bundle.Task, req Request) (*plan.Unit, error) {
	pu := units[parent]
	if pu == nil || pu.resolver == nil {
		return nil, fmt.Errorf("cannot resolve package %q", t.Operator.Package)
	}
	b, resolver, err := pu.resolver(t)
	if err != nil {
		return nil, err
	}
	name := t.Operator.InstanceName
	if name == "" {
		name = parent.Instance + "-" + b.Name
	}
	raw, err := pu.r.ParameterFile(t.Operator.ParameterFile)
	if err != nil {
		return nil, err
	}
	values, err := params.Resolve(b.Params, raw)
	if err != nil {
		return nil, fmt.Errorf("instance %q of %s: %w", name, b.ID(), err)
	}
	child := &plan.Unit{Bundle: b, Instance: name, Values: values, Parent: parent}
	inst := render.Instance{Name: name, Namespace: req.Instance.Namespace}
	units[child] = &unit{r: render.New(b, values, inst, render.Options{PublisherImage: req.PublisherImage}), resolver: resolver}
	return child, nil
}

// definedResources validates the resources of the framework's definitions
// and groups them for templates; a framework without definitions accepts
// none.
func definedResources(b *bundle.Bundle, resources []map[string]any) (map[string][]any, error) {
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
	return schema.Resources(b.Name, defs, resources)
}
