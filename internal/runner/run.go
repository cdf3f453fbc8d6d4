package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// Run is the render of one FunctionConfig: the config, how its remote
// sources are opened, and what its loads share. Make one with [New] per
// config (a KRM function's ResourceList, a command) and use it for every
// request of that config.
type Run struct {
	cfg *config.Config
	src Sources
	// loaded memoises InstanceRequest's package loads by operator
	// version: a ResourceList of 1,000 Instance items of one package loads
	// it once (packages are read-only once loaded).
	loaded   map[string]*extend.Result
	loadedMu sync.Mutex
	// deps memoises the dependency resolver of each loaded package, so
	// that the requests of one package share its graph's loads: each
	// dependency is loaded, and charged to the budget, once per run.
	deps map[*extend.Result]extend.DependencyResolver
	// prefetchOnce runs prefetch once per run.
	prefetchOnce sync.Once
	// budget is the render's: the packages the run loads are charged to
	// it (package-bytes), and its render spends it.
	budget *limits.Budget
}

// New returns the run of cfg, whose remote sources src opens, with a
// render budget of the current limits.
func New(cfg *config.Config, src Sources) *Run {
	return &Run{cfg: cfg, src: src, budget: limits.NewBudget(limits.Current())}
}

// SetBudget makes the run load its packages within b, a budget its
// render shares with others (diff's two sides, a ResourceList's
// instances); nil keeps the run's own. Call it before loading.
func (r *Run) SetBudget(b *limits.Budget) *Run {
	if b != nil {
		r.budget = b
	}
	return r
}

// Budget is the render budget the run loads its packages within: give it
// to the engine (engine.Options.Budget) so that the render spends the
// same one.
func (r *Run) Budget() *limits.Budget { return r.budget }

// Config is the config the run renders.
func (r *Run) Config() *config.Config { return r.cfg }

// Sources injects how remote sources are opened, by kind; the zero value
// allows local paths only.
type Sources struct {
	Kinds location.Kinds
}

// sources is the source seam of the config: its kinds of remote source,
// its pins, its repositories and the folder local paths may not leave.
func (r *Run) sources() *location.Sources {
	c := r.cfg
	s := &location.Sources{Kinds: r.src.Kinds, Pin: c.PinFor, Confine: c.ConfineDir()}
	for _, repo := range c.Spec.Repositories {
		rep := location.Repository{Name: repo.Name}
		if rs := repo.Source(); rs != nil {
			rep.Location = s.Remote(rs)
		} else {
			rep.Location = s.Local(c.LocalPath(repo.Path))
		}
		s.Repositories = append(s.Repositories, rep)
	}
	return s
}

// location is where a framework reference of the config points.
func (r *Run) location(s *location.Sources, ref config.FrameworkRef) location.Location {
	if rs := ref.Source(); rs != nil {
		return s.Remote(rs)
	}
	return s.Local(r.cfg.LocalPath(ref.Path))
}

// Request loads the framework (with its extends chain) and builds the
// engine request.
func (r *Run) Request(ctx context.Context) (engine.Request, error) {
	res, err := r.Load(ctx)
	if err != nil {
		return engine.Request{}, err
	}
	return r.RequestFor(ctx, res)
}

// kubeVersion is spec.kubeVersion as "1.34", "" when unset or the
// default.
func kubeVersion(c *config.Config) string {
	if v, err := kubeversion.Parse(c.Spec.KubeVersion); err == nil && c.Spec.KubeVersion != "" && v != kubeversion.Default {
		return v.String()
	}
	return ""
}

// Load loads the framework of the config with its extends chain.
func (r *Run) Load(ctx context.Context) (*extend.Result, error) {
	opts, err := r.extendOptions(ctx)
	if err != nil {
		return nil, err
	}
	return extend.Load(ctx, r.location(opts.Sources, r.cfg.Spec.Framework), opts)
}

// RequestFor builds the engine request for a framework loaded by Load.
func (r *Run) RequestFor(ctx context.Context, res *extend.Result) (engine.Request, error) {
	return r.request(ctx, res, r.cfg.Metadata.Name, r.cfg.Metadata.Namespace, nil)
}

// InstanceRequest builds the request of a kudo.dev/v1beta1 Instance object
// (KRM input): its operator version (spec.operatorVersion.name, e.g.
// "zookeeper-0.3.3") is mapped to a package through spec.operators, or
// looked up in spec.repositories as <operator>/<version>/.
func (r *Run) InstanceRequest(ctx context.Context, operatorVersion, name, namespace string, values map[string]any) (engine.Request, error) {
	c := r.cfg
	opts, err := r.extendOptions(ctx)
	if err != nil {
		return engine.Request{}, err
	}
	opts.Base = nil
	var loc location.Location
	if ref, ok := c.Spec.Operators[operatorVersion]; ok {
		loc = r.location(opts.Sources, ref)
	} else {
		op, version, ok := splitOperatorVersion(operatorVersion)
		if !ok || len(c.Spec.Repositories) == 0 {
			return engine.Request{}, fmt.Errorf("operator version %q is not in the functionConfig's spec.operators and cannot be looked up in spec.repositories", operatorVersion)
		}
		if loc, err = opts.Sources.Find(ctx, op, version); err != nil {
			return engine.Request{}, err
		}
	}
	res, err := r.loadOnce(ctx, operatorVersion, loc, opts)
	if err != nil {
		return engine.Request{}, err
	}
	if values == nil {
		values = map[string]any{}
	}
	return r.request(ctx, res, name, namespace, values)
}

// loadOnce loads the package of an operator version, once per run.
func (r *Run) loadOnce(ctx context.Context, operatorVersion string, loc location.Location, opts extend.Options) (*extend.Result, error) {
	r.loadedMu.Lock()
	defer r.loadedMu.Unlock()
	if res, ok := r.loaded[operatorVersion]; ok {
		return res, nil
	}
	res, err := extend.Load(ctx, loc, opts)
	if err != nil {
		return nil, err
	}
	if r.loaded == nil {
		r.loaded = map[string]*extend.Result{}
	}
	r.loaded[operatorVersion] = res
	return res, nil
}

// dependencies is the resolver of res's KudoOperator tasks, one per
// loaded package and run.
func (r *Run) dependencies(ctx context.Context, res *extend.Result, opts extend.Options) extend.DependencyResolver {
	r.loadedMu.Lock()
	defer r.loadedMu.Unlock()
	if d, ok := r.deps[res]; ok {
		return d
	}
	d := extend.Dependencies(ctx, res, opts)
	if r.deps == nil {
		r.deps = map[*extend.Result]extend.DependencyResolver{}
	}
	r.deps[res] = d
	return d
}

var versionSuffix = lazy.Regexp(`^(.+)-(v?\d[0-9A-Za-z.+-]*)$`)

// splitOperatorVersion splits KUDO's "<operator>-<version>".
func splitOperatorVersion(s string) (string, string, bool) {
	m := versionSuffix().FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// extendOptions are the options of loading the config's framework: its
// sources and spec.base, which is relative to the config, not to the
// framework.
func (r *Run) extendOptions(ctx context.Context) (extend.Options, error) {
	opts := extend.Options{Sources: r.sources(), Budget: r.budget}
	r.prefetch(ctx, opts.Sources)
	if b := r.cfg.Spec.Base; b != nil {
		from := opts.Sources.Local(r.cfg.Dir)
		base, err := opts.Sources.Extends(ctx, from, b)
		if err != nil {
			return extend.Options{}, fmt.Errorf("spec.base: %w", err)
		}
		opts.Base = base
	}
	return opts, nil
}

// request builds the engine request for a loaded bundle. Parameter values
// of the config are used unless values is given (Instance objects).
func (r *Run) request(ctx context.Context, res *extend.Result, name, ns string, values map[string]any) (engine.Request, error) {
	c := r.cfg
	if err := CheckSchemaLock(res.Bundle, c.Spec.Lock); err != nil {
		return engine.Request{}, err
	}
	if values == nil {
		var err error
		if values, err = c.Values(); err != nil {
			return engine.Request{}, err
		}
	}
	target, _ := config.ParseTarget(c.Spec.Target)
	if ns == "" {
		ns = "default"
	}
	var ids, origins []string
	for _, l := range res.Chain {
		ids = append(ids, l.ID)
		if l.Remote { // git: url@commit:path; local folders stay out of the output
			origins = append(origins, l.Location)
		}
	}
	opts, err := r.extendOptions(ctx)
	if err != nil {
		return engine.Request{}, err
	}
	return engine.Request{
		Bundle:                   res.Bundle,
		Instance:                 render.Instance{Name: name, Namespace: ns},
		Plans:                    c.Spec.Plans,
		Params:                   values,
		Target:                   string(target),
		PipeNames:                c.Spec.Pipes,
		ServerSideApply:          c.Spec.ServerSideApply,
		PublisherImage:           c.Spec.PublisherImage,
		KubeVersion:              kubeVersion(c),
		ExpectedResourceVersions: c.Spec.ExpectedResourceVersions,
		Resources:                c.Spec.Resources,
		Source:                   strings.Join(ids, " <- "),
		Origin:                   strings.Join(origins, " <- "),
		Dependencies:             r.dependencies(ctx, res, opts),
	}, nil
}
