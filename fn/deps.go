package fn

import (
	"context"
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/engine"
	"github.com/kudo-render/kudo-render/extend"
)

// dependencies resolves the packages of KudoOperator tasks of the bundle
// at loc: a package that is a path ("./zk", "../operators/zookeeper") is
// relative to that bundle; a name is looked up in spec.repositories
// (<package>/<operatorVersion>/, or <package>/ with that version). The
// operatorVersion and appVersion a task asks for must match the package.
func (c *Config) dependencies(ctx context.Context, src Sources, locs []extend.Location, chain []string) engine.DependencyResolver {
	return func(t *bundle.Task) (*bundle.Bundle, engine.DependencyResolver, error) {
		op := t.Operator
		// relative to the bundle of the chain that defines the task
		loc := locs[min(t.Depth, len(locs)-1)]
		opts := c.extendOptions(src)
		opts.Base = nil
		var childLoc extend.Location
		var err error
		if strings.HasPrefix(op.Package, ".") || strings.Contains(op.Package, "/") {
			childLoc, err = extend.Locate(ctx, loc, &bundle.Extends{Path: op.Package}, opts)
		} else {
			childLoc, err = extend.Find(ctx, op.Package, op.OperatorVersion, opts)
		}
		if err != nil {
			return nil, nil, err
		}
		res, err := extend.Load(ctx, childLoc, opts)
		if err != nil {
			return nil, nil, err
		}
		id := res.Chain[0].Location
		for _, c := range chain {
			if c == id {
				return nil, nil, fmt.Errorf("dependency cycle: %s -> %s", strings.Join(chain, " -> "), id)
			}
		}
		b := res.Bundle
		if op.OperatorVersion != "" && b.Version != op.OperatorVersion {
			return nil, nil, fmt.Errorf("package %q has operatorVersion %s, the task asks for %s", op.Package, b.Version, op.OperatorVersion)
		}
		if op.AppVersion != "" && b.AppVersion != op.AppVersion {
			return nil, nil, fmt.Errorf("package %q has appVersion %s, the task asks for %s", op.Package, b.AppVersion, op.AppVersion)
		}
		return b, c.dependencies(ctx, src, res.Locations, append(chain, id)), nil
	}
}
