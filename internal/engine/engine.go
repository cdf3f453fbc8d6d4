package engine

import (
	"fmt"
	"maps"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/kube"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/postprocess/refs"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// DefaultPlan is rendered when a request names no plan.
const DefaultPlan = "deploy"

// Request is one instance of one bundle to render.
type Request struct {
	Bundle   *bundle.Bundle
	Instance render.Instance
	Plans    []string       // default: deploy
	Params   map[string]any // values from the FunctionConfig
	// Target names the output's target (argocd, plain, flux). The core
	// does not interpret it: the adapter's Options.Decorate writes the
	// target's annotations.
	Target    string
	PipeNames map[string]string
	// ServerSideApply overrides the default (on for KEP-0009 bundles,
	// off for KUDO packages); see [ServerSideApply].
	ServerSideApply *bool
	PublisherImage  string
	// KubeVersion is the Kubernetes version the config asks for ("1.34"),
	// "" for the default (Options.KubeVersion is what the render uses).
	KubeVersion string
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
	// ResourceSource, when set, says where a resource of Resources came
	// from (a file, an input item) for messages; the adapter that
	// collected the resources knows where they were recorded.
	ResourceSource func(obj map[string]any) string
}

// plans returns the plans to render.
func (r Request) plans() []string {
	if len(r.Plans) == 0 {
		return []string{DefaultPlan}
	}
	return r.Plans
}

// ServerSideApply tells whether objects of b are applied server-side:
// the request's override when set, else on for KEP-0009 framework
// bundles and off for KUDO packages. It is the one place that decides.
func ServerSideApply(b *bundle.Bundle, override *bool) bool {
	if override != nil {
		return *override
	}
	return b.Format == bundle.FormatFramework
}

// DependencyResolver loads the package a KudoOperator task names, and
// returns the resolver for that package's own dependencies.
type DependencyResolver = extend.DependencyResolver

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

// Item is one object of the output with what adapters need to place it:
// its wave, whether it runs once, how it is applied and where in the
// plans it comes from. Items are neutral: no GitOps tool's annotations
// are implied; adapters write them (Options.Decorate).
type Item struct {
	Obj *object.Object
	// Wave orders the output: objects of a wave are applied after those of
	// every earlier wave. common/ objects are in wave -1.
	Wave int
	// Hook marks an object that runs once (a later step deletes it, or a
	// pipe Job).
	Hook bool
	// ServerSideApply asks for server-side apply.
	ServerSideApply bool
	// Meta says which operator, instance, plan, phase, step and template the
	// object belongs to (Plan is empty for common/ objects).
	Meta enhance.Meta
	// Task is the task that rendered the object ("" for common/).
	Task string
	// First is the step that applies the object first, which decides its
	// wave (Meta names the step that applies it last). Empty for common/.
	First StepRef
	// Toggle is set when a Toggle task put the object in the output.
	Toggle *Toggle
	// Parent is the instance whose KudoOperator task installs the object's
	// instance; empty for objects of the instance rendered.
	Parent string
	// bundle is the framework@version of the object's request, which its
	// processed-by marker names.
	bundle string
	// dir is the folder of a dependency's package relative to the
	// rendered bundle, when known: problems of the object are in
	// dir/Meta.Template.
	dir string
}

// StepRef names a step of a plan of an instance. Namespace is the
// instance's (a dependency's instance is in its parent's); it tells apart
// two instances of the same name.
type StepRef struct {
	Namespace, Instance, Plan, Phase, Step string
}

// Toggle names the Toggle task that controls an object.
type Toggle struct {
	Task      string
	Parameter string
}

// Options of a render as a whole.
type Options struct {
	// Lookup are objects that references (getValueFrom) may read but that
	// are not part of the output: the items of a KRM ResourceList.
	Lookup []*object.Object
	// LookupFunc, when set, gives more lookup objects; it is called only
	// when an object of the render holds a reference, so an adapter with
	// many input items decodes them only then.
	LookupFunc func() ([]*object.Object, error)
	// FailOnSecretCopy makes copying a value out of a Secret into another
	// kind of object an error instead of a warning.
	FailOnSecretCopy bool
	// Warn receives the text of warnings and notes, each problem once
	// (a problem of many objects names the first and counts the others),
	// when the render ends; nil discards them. Each object also carries
	// its own (AnnWarnings).
	Warn func(string)
	// Strict makes the warnings of the bundles (unknown fields KUDO
	// ignored) errors.
	Strict bool
	// Reference, when set, is told of every resolved getValueFrom
	// reference: the object that reads, the object read, the field.
	Reference func(from, to *object.Object, field string)
	// SecretCopy, when set, is told of every field of a non-Secret object
	// that a reference filled with a value out of a Secret (directly or
	// through other references and transformers), with that value.
	SecretCopy func(obj *object.Object, field string, value any)
	// ToggledOff, when set, is told of every Toggle task that leaves its
	// objects out (its parameter is false), with the objects it would
	// render, in output order of the requests.
	ToggledOff func(OffToggle)
	// KubeVersion is the Kubernetes version the render targets; zero is
	// kubeversion.Default. Objects of API versions it no longer serves are
	// converted to their successors, and every object is validated
	// against its API (see docs/kubernetes-versions.md).
	KubeVersion kubeversion.Version
	// CRDs are CustomResourceDefinitions that are not objects of the
	// render: custom resources of their kinds are validated against their
	// schemas.
	CRDs []*object.Object
	// LoadCRDs, when set, gives more such definitions; it is called only
	// when the render is validated.
	LoadCRDs func() ([]*object.Object, error)
	// NoValidate skips the validation against the Kubernetes API.
	NoValidate bool
	// Note, when set, receives the warnings and notes (a conversion to
	// another API version) as diagnostics instead of Warn, each problem
	// once.
	Note func(*diag.Diagnostic)
	// Decorate, when set, writes an adapter's annotations (Argo CD waves
	// and hooks, Flux's force) once objects are final but before their
	// resource versions are digested, so the digests cover them.
	Decorate func([]Item)
	// Budget is what the render may spend in total (bytes, values,
	// objects, instances, schema validation steps); nil makes a new one
	// from limits.Current(). An adapter that decodes input for the render
	// (the KRM function's items) makes it first and charges it too.
	Budget *limits.Budget
}

// Render renders every request and returns the objects of all of them in
// output order. Manifests of common/ appear once per framework.
func Render(reqs ...Request) ([]*object.Object, error) {
	items, err := RenderWith(Options{}, reqs...)
	if err != nil {
		return nil, err
	}
	return Objects(items), nil
}

// Objects returns the objects of items, in order.
func Objects(items []Item) []*object.Object {
	out := make([]*object.Object, len(items))
	for i, it := range items {
		out[i] = it.Obj
	}
	return out
}

// RenderWith renders every request: objects are enhanced, their
// cross-resource references resolved, their dependencies hashed, decorated
// by the adapter, digested and sorted. It is all or nothing. Once the
// templates are rendered, errors, warnings and notes hide the values of
// the render's Secrets (package internal/redact).
func RenderWith(opts Options, reqs ...Request) ([]Item, error) {
	if opts.Budget == nil {
		opts.Budget = limits.NewBudget(limits.Current())
	}
	if err := opts.Budget.Charge(limits.RenderInstances, int64(len(reqs)), fmt.Sprintf("%d instances requested", len(reqs))); err != nil {
		return nil, err
	}
	items, tolerated, off, secretParams, err := renderAll(reqs, opts.Budget)
	if err != nil {
		return nil, err
	}
	if opts.ToggledOff != nil {
		for _, t := range off {
			opts.ToggledOff(t)
		}
	}
	objs := Objects(items)
	sec := &secrets{objs: objs, lookup: opts.Lookup, copied: secretParams}
	opts = sec.options(opts)
	found, err := bundleWarnings(tolerated, opts)
	if err != nil {
		return nil, sec.err(err)
	}
	err = process(items, objs, reqs, opts, sec, found)
	found.report(opts) // what was found, also when a later stage failed
	if err != nil {
		return nil, sec.err(err)
	}
	Sort(items)
	return items, nil
}

// process runs the stages after rendering: typing, KUDO's labels,
// conversions, references, dependency hashes, the adapter's annotations,
// each object's warnings, digests and validation. Warnings and notes go
// to found.
func process(items []Item, objs []*object.Object, reqs []Request, opts Options, sec *secrets, found *findings) error {
	if err := chargeDefinitions(items, opts); err != nil {
		return err
	}
	done := activity.Doing(fmt.Sprintf("typing and enhancing %d objects", len(objs)))
	defer func() { done() }()
	if err := normalize(objs, items, opts, found); err != nil {
		return err
	}
	scopes := enhance.ScopesOf(objs)
	// An object listed twice is enhanced twice, in item order.
	par.DoIf(par.Distinct(objs), len(items), func(i int) { enhance.Object(items[i].Obj, items[i].Meta, scopes) })
	// After KUDO's labels: a removed version's defaults that the successor
	// changed are written out, and some come from the labels (the selector
	// extensions/v1beta1 took from the pod template's labels).
	if err := convert(items, opts, found); err != nil {
		return err
	}
	lookup := opts.Lookup
	if opts.LookupFunc != nil && refs.AnyReference(objs) {
		more, err := opts.LookupFunc()
		if err != nil {
			return err
		}
		lookup = append(append([]*object.Object{}, lookup...), more...)
		sec.addLookup(more)
	}
	done()
	done = activity.Doing("resolving getValueFrom references")
	ro := refs.Options{FailOnSecretCopy: opts.FailOnSecretCopy, Edge: opts.Reference, SecretCopy: opts.SecretCopy, Budget: opts.Budget,
		Warning: func(obj *object.Object, d *diag.Diagnostic) {
			if it := itemOf(items, d.Resource); it != nil {
				place(d, *it)
			}
			found.add(d, obj)
		}}
	if err := refs.Resolve(objs, lookup, ro); err != nil {
		return placeProblems("cannot resolve references", err, items)
	}
	if err := enhance.DependenciesHash(objs); err != nil {
		return err
	}
	if opts.Decorate != nil {
		opts.Decorate(items)
	}
	found.annotate(items, sec)
	done()
	done = activity.Doing(fmt.Sprintf("digesting %d objects", len(items)))
	if err := finish(items, reqs); err != nil {
		return err
	}
	done()
	done = activity.Doing(fmt.Sprintf("validating %d objects against the Kubernetes API", len(items)))
	if !opts.NoValidate {
		return validateItems(items, opts)
	}
	return nil
}

// renderAll renders the requests on all cores and returns their items in
// request order: for each request, the common/ manifests of frameworks no
// earlier request brought, then its own objects, and the values of the
// secret parameters of all of them. The result is the same whatever the
// scheduling. An error is a request's, its secret parameters hidden.
func renderAll(reqs []Request, budget *limits.Budget) ([]Item, []*finding, []OffToggle, []any, error) {
	results := make([]rendered, len(reqs))
	par.Do(len(reqs), func(i int) {
		defer activity.Doing(fmt.Sprintf("rendering instance %q of %s", reqs[i].Instance.Name, reqs[i].Bundle.ID()))()
		results[i] = renderRequest(reqs[i], budget)
	})
	var items []Item
	if len(results) > 1 {
		n := 0
		for _, r := range results {
			n += len(r.items)
		}
		items = make([]Item, 0, n)
	}
	var warnings []*finding
	var off []OffToggle
	var secretParams []any
	seen := map[string]bool{}
	warned := map[*diag.Diagnostic]*finding{}
	for i, r := range results {
		if r.err != nil {
			return nil, nil, nil, nil, &Error{Instance: reqs[i].Instance.Name, Framework: reqs[i].Bundle.ID(), Err: r.err}
		}
		secretParams = append(secretParams, r.secretParams...)
		start := len(items)
		for _, c := range r.commons {
			if !seen[c.id] {
				seen[c.id] = true
				items = append(items, c.items...)
			}
		}
		if len(items) == 0 && len(results) == 1 {
			items = r.items // the only list: no copy (100,000 items are 40 MB)
		} else {
			items = append(items, r.items...)
		}
		off = append(off, r.off...)
		// A package's warning is about every object of its instances.
		for _, w := range r.warnings {
			fd := warned[w]
			if fd == nil {
				fd = &finding{d: w}
				warned[w] = fd
				warnings = append(warnings, fd)
			}
			fd.objs = append(fd.objs, Objects(items[start:])...)
		}
	}
	return items, warnings, off, secretParams, nil
}

// normalize types the scalars of the objects the way Kubernetes reads
// them and removes the fields their API type does not have (package kube),
// each removal a warning about its object.
func normalize(objs []*object.Object, items []Item, opts Options, found *findings) error {
	each, err := kube.NormalizeEach(objs, kube.Options{Strict: opts.Strict, Where: func(i int) string { return items[i].Meta.Template }})
	if err != nil {
		return err
	}
	for i, ds := range each {
		for _, d := range ds {
			place(d, items[i])
			found.add(d, objs[i])
		}
	}
	return nil
}

// bundleWarnings are the findings of the render so far: the bundles'
// warnings (what KUDO ignored), each about the objects of the instances
// of its package; with opts.Strict they are an error.
func bundleWarnings(tolerated []*finding, opts Options) (*findings, error) {
	if opts.Strict && len(tolerated) > 0 {
		errs := make([]*diag.Diagnostic, len(tolerated))
		for i, fd := range tolerated {
			c := *fd.d
			c.Severity = diag.SeverityError
			errs[i] = &c
		}
		return nil, &diag.Error{Head: "strict: the packages have problems KUDO ignored", List: errs}
	}
	found := &findings{}
	for _, fd := range tolerated {
		c := *fd.d
		c.Msg += diag.Tolerated
		found.add(&c, fd.objs...)
	}
	return found, nil
}

// rendered is the result of one request.
type rendered struct {
	commons  []common
	items    []Item
	warnings []*diag.Diagnostic
	off      []OffToggle
	// secretParams are the values of the secret parameters of the
	// request and its dependencies (secretparams.go).
	secretParams []any
	err          error
}

// OffToggle is a Toggle task whose parameter is false: the objects it
// would render are not in the output.
type OffToggle struct {
	Step StepRef
	// Wave is the wave the step would have applied them in.
	Wave      int
	Task      string
	Parameter string
	// Objects are the objects left out, as Kind/name.
	Objects []string
}

// common is the common/ manifests of one framework.
type common struct {
	id    string
	items []Item
}

func renderRequest(req Request, budget *limits.Budget) rendered {
	ps := &paramSecrets{}
	in, err := renderOne(req, budget, ps)
	if err != nil {
		return rendered{err: ps.mask(err)}
	}
	id := req.Bundle.ID()
	for i := range in.items {
		in.items[i].bundle = id
	}
	for _, c := range in.commonList {
		for i := range c.items {
			c.items[i].bundle = id
		}
	}
	return rendered{commons: in.commonList, items: in.items, warnings: in.warnings, off: in.off, secretParams: ps.values}
}

// finish writes resource versions and processed-markers, which digest
// each object's content, and checks the pinned resource versions.
func finish(items []Item, reqs []Request) error {
	// After Decorate, which may have changed the items: an object listed
	// twice is annotated twice, in item order.
	errs := make([]error, len(items))
	par.DoIf(par.Distinct(Objects(items)), len(items), func(i int) {
		errs[i] = digest.Annotate([]*object.Object{items[i].Obj}, items[i].bundle)
	})
	if err := par.FirstError(errs); err != nil {
		return err
	}
	expected := map[string]string{}
	for _, r := range reqs {
		maps.Copy(expected, r.ExpectedResourceVersions)
	}
	return digest.Check(Objects(items), expected)
}
