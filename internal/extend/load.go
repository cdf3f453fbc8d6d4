package extend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// DefaultMaxDepth caps extension chains.
const DefaultMaxDepth = 8

// Options of Load.
type Options struct {
	// Sources resolve extends (git sources, repositories, confinement).
	// nil allows local paths only.
	Sources *location.Sources
	// Base replaces the `extends` of the top bundle (FunctionConfig
	// spec.base), e.g. to try a fork or a newer base.
	Base     location.Location
	MaxDepth int
	// Budget is the render's: every package loaded (each bundle of an
	// extends chain, each package of the KudoOperator graph, once) is
	// charged to its package-bytes before its files are read. nil
	// charges nothing (a load outside a render).
	Budget *limits.Budget
}

func (o Options) sources() *location.Sources {
	if o.Sources == nil {
		return &location.Sources{}
	}
	return o.Sources
}

// Layer describes one bundle of a chain.
type Layer struct {
	ID       string // name@version
	Location string // Opened.ID
	// Remote is true when Location may appear in the output's provenance
	// (git sources).
	Remote bool
}

// Result is a loaded bundle with its extension chain merged.
type Result struct {
	Bundle *bundle.Bundle
	// Location is where the bundle asked for is.
	Location location.Location
	// Locations are where each bundle of the chain is, the one asked
	// for first (Task.Depth indexes it).
	Locations []location.Location
	// Chain lists the bundles, the one asked for first, then its base,
	// its base's base...
	Chain []Layer
}

// Error is a problem while resolving extends.
type Error struct {
	Chain []string // IDs from the top bundle down to where it failed
	Err   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot resolve extends (%s): %v", strings.Join(e.Chain, " -> "), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Load loads the bundle at loc and, when it extends a base, the chain of
// bases, merged into one bundle.
func Load(ctx context.Context, loc location.Location, opts Options) (*Result, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	return load(ctx, loc, opts, nil, true)
}

func load(ctx context.Context, loc location.Location, opts Options, chain []string, top bool) (*Result, error) {
	done := activity.Doing("loading the package at " + loc.String())
	b, layer, err := loadOne(ctx, loc, opts, chain)
	done()
	if err != nil {
		return nil, err
	}
	chain = append(chain, layer.Location)
	var baseLoc location.Location
	switch {
	case top && opts.Base != nil:
		baseLoc = opts.Base
	case b.Extends != nil:
		if baseLoc, err = opts.sources().Extends(ctx, loc, b.Extends); err != nil {
			return nil, &Error{Chain: chain, Err: err}
		}
	default:
		return &Result{Bundle: b, Location: loc, Locations: []location.Location{loc}, Chain: []Layer{layer}}, nil
	}
	baseRes, err := load(ctx, baseLoc, opts, chain, false)
	if err != nil {
		return nil, err
	}
	merged, err := Merge(baseRes.Bundle, b)
	if err != nil {
		return nil, err
	}
	return &Result{Bundle: merged, Location: loc, Locations: append([]location.Location{loc}, baseRes.Locations...),
		Chain: append([]Layer{layer}, baseRes.Chain...)}, nil
}

// loadOne opens and loads one bundle of a chain, refusing cycles and
// chains that are too deep.
func loadOne(ctx context.Context, loc location.Location, opts Options, chain []string) (*bundle.Bundle, Layer, error) {
	op, err := loc.Open(ctx)
	if err != nil {
		if len(chain) == 0 {
			return nil, Layer{}, err
		}
		return nil, Layer{}, &Error{Chain: chain, Err: err}
	}
	defer op.Close()
	for _, c := range chain {
		if c == op.ID {
			return nil, Layer{}, &Error{Chain: append(chain, op.ID), Err: errors.New("extends cycle")}
		}
	}
	if len(chain) > opts.MaxDepth {
		return nil, Layer{}, &Error{Chain: chain, Err: fmt.Errorf("extends chain deeper than %d", opts.MaxDepth)}
	}
	if opts.Budget != nil {
		if err := opts.Budget.Charge(limits.PackageBytes, bundle.Size(op.FS), "the package at "+loc.String()); err != nil {
			return nil, Layer{}, err
		}
	}
	b, err := bundle.Load(op.FS, loc.Name())
	if err != nil {
		return nil, Layer{}, err
	}
	layer := Layer{ID: b.ID(), Location: op.ID, Remote: op.Remote}
	if b.Name == "" {
		layer.ID = loc.Name() + "@" + b.Version
	}
	return b, layer, nil
}
