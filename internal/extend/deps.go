package extend

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// DependencyResolver loads the package a KudoOperator task names, and
// returns the resolver for that package's own dependencies. It reads only
// the task's Depth and its Operator's Package, OperatorVersion and
// AppVersion (see Prefetch), and the bundle it returns is only read.
type DependencyResolver func(t *bundle.Task) (*bundle.Bundle, DependencyResolver, error)

// Dependencies resolves the packages of the KudoOperator tasks of res: a
// package that is a path ("./zk", "../operators/zookeeper") is relative to
// the bundle of the chain that defines the task; a name is looked up in
// the repositories (<package>/<operatorVersion>/, or <package>/ with that
// version). The operatorVersion and appVersion a task asks for must match
// the package; a package that depends on itself, directly or not, is an
// error.
//
// Each package is loaded once, however many tasks of however many
// packages name it: a graph whose packages share dependencies costs one
// load per package, not one per path through the graph (the instances
// those paths install are bounded by the render's budget), and every
// instance of a package gets the same *bundle.Bundle.
func Dependencies(ctx context.Context, res *Result, opts Options) DependencyResolver {
	opts.Base = nil
	loads := &loadCache{m: map[location.Location]*loaded{}}
	return dependencies(ctx, res.Locations, []string{res.Chain[0].Location}, opts, loads)
}

func dependencies(ctx context.Context, locs []location.Location, chain []string, opts Options, loads *loadCache) DependencyResolver {
	return func(t *bundle.Task) (*bundle.Bundle, DependencyResolver, error) {
		op := t.Operator
		loc := locs[min(t.Depth, len(locs)-1)]
		var childLoc location.Location
		var err error
		if strings.HasPrefix(op.Package, ".") || strings.Contains(op.Package, "/") {
			childLoc, err = loc.Join(op.Package)
		} else {
			childLoc, err = opts.sources().Find(ctx, op.Package, op.OperatorVersion)
		}
		if err != nil {
			return nil, nil, err
		}
		res, err := loads.load(ctx, childLoc, opts)
		if err != nil {
			return nil, nil, err
		}
		id := res.Chain[0].Location
		for _, c := range chain {
			if c == id {
				return nil, nil, fmt.Errorf("dependency cycle: %s -> %s", strings.Join(chain, " -> "), id)
			}
		}
		if err := matchVersions(op, res.Bundle); err != nil {
			return nil, nil, err
		}
		return res.Bundle, dependencies(ctx, res.Locations, append(slices.Clip(chain), id), opts, loads), nil
	}
}

// loadCache loads each package of a dependency graph once.
type loadCache struct {
	mu sync.Mutex
	m  map[location.Location]*loaded
}

// loaded is one package's load, shared by every task that names it.
type loaded struct {
	once sync.Once
	res  *Result
	err  error
}

// load is Load of loc, once per location (a location that cannot be a
// map key is loaded each time).
func (c *loadCache) load(ctx context.Context, loc location.Location, opts Options) (*Result, error) {
	if !reflect.TypeOf(loc).Comparable() {
		return Load(ctx, loc, opts)
	}
	c.mu.Lock()
	l := c.m[loc]
	if l == nil {
		l = &loaded{}
		c.m[loc] = l
	}
	c.mu.Unlock()
	l.once.Do(func() { l.res, l.err = Load(ctx, loc, opts) })
	return l.res, l.err
}

func matchVersions(op *bundle.KudoOperatorSpec, b *bundle.Bundle) error {
	if op.OperatorVersion != "" && b.Version != op.OperatorVersion {
		return fmt.Errorf("package %q has operatorVersion %s, the task asks for %s", op.Package, b.Version, op.OperatorVersion)
	}
	if op.AppVersion != "" && b.AppVersion != op.AppVersion {
		return fmt.Errorf("package %q has appVersion %s, the task asks for %s", op.Package, b.AppVersion, op.AppVersion)
	}
	return nil
}

// Prefetch starts loading the package of every KudoOperator task of b
// at once, on goroutines, and returns a resolver that waits for a task's
// load when the plans reach it. Packages from several git repositories
// are thus fetched concurrently, and the result is the same as with r
// alone: each task gets what r gives for it, an error only when the task
// is resolved (a task no rendered plan reaches never fails the render).
//
// Tasks of b that name the same package (the same package, versions and
// depth in the extends chain: all a resolver reads) share one load, and
// its result. The dependencies of a loaded package are prefetched the same
// way once one of its tasks is resolved, not before: loading runs one
// level ahead of the instances the render has counted, never through the
// whole graph.
func Prefetch(r DependencyResolver, b *bundle.Bundle) DependencyResolver {
	if r == nil || b == nil {
		return r
	}
	type load struct {
		b    *bundle.Bundle
		next DependencyResolver
		err  error
		done chan struct{}
		// prefetched is next, prefetching, made on first use.
		prefetched func() DependencyResolver
	}
	loads := map[*bundle.Task]*load{}
	byKey := map[depKey]*load{}
	for _, t := range b.Tasks {
		if t.Kind != bundle.KindKudoOperator || t.Operator == nil {
			continue
		}
		key := keyOf(t)
		if l, ok := byKey[key]; ok {
			loads[t] = l
			continue
		}
		l := &load{done: make(chan struct{})}
		l.prefetched = sync.OnceValue(func() DependencyResolver { return Prefetch(l.next, l.b) })
		loads[t], byKey[key] = l, l
		go func() {
			defer close(l.done)
			l.b, l.next, l.err = r(t)
		}()
	}
	return func(t *bundle.Task) (*bundle.Bundle, DependencyResolver, error) {
		if l, ok := loads[t]; ok {
			<-l.done
			if l.err != nil {
				return nil, nil, l.err
			}
			return l.b, l.prefetched(), nil
		}
		return r(t)
	}
}

// depKey is what a DependencyResolver reads of a task: tasks with the same
// key load the same package.
type depKey struct {
	depth                            int
	pkg, operatorVersion, appVersion string
}

func keyOf(t *bundle.Task) depKey {
	return depKey{t.Depth, t.Operator.Package, t.Operator.OperatorVersion, t.Operator.AppVersion}
}
