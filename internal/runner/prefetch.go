package runner

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// prefetchParallel is how many remote sources prefetch fetches at once.
const prefetchParallel = 4

// prefetchMax is how many git sources prefetch fetches at most: twice
// the deepest chain of extends (extend.DefaultMaxDepth). A lock pin is a
// guess that the load will need it, which only the load can tell (a
// config can list thousands of pins, of commits of one repository, that
// its render never reads); beyond prefetchMax the load fetches what it
// needs, when it needs it.
const prefetchMax = 16

// prefetch fetches, concurrently, every remote source whose pin (a git
// commit) the config knows before loading starts: its own sources that are pinned
// (commit: or a lock pin) and the pins of spec.lock, which `kudo-render
// lock` records for the sources reached through others (a base's own
// extends, a repository of dependencies). The load that follows must walk
// the chain one folder after another, but finds every pinned commit in the
// cache, so a cold render costs about its slowest fetch instead of the sum.
//
// It runs once per run and returns when every fetch has ended. Errors
// are left to the load, which opens the same sources again and reports
// them with their place in the chain. Unpinned refs are not prefetched:
// their commit is only known after an ls-remote that the load makes
// itself.
func (r *Run) prefetch(ctx context.Context, s *location.Sources) {
	if len(s.Kinds) == 0 {
		return
	}
	r.prefetchOnce.Do(func() {
		srcs := pinnedSources(r.cfg)
		sem := make(chan struct{}, prefetchParallel)
		var wg sync.WaitGroup
		for _, rs := range srcs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if op, err := s.Remote(rs).Open(ctx); err == nil {
					op.Close()
				}
			}()
		}
		wg.Wait()
	})
}

// pinnedSources lists the remote sources prefetch fetches, pinned, one
// per URL and pin, at most prefetchMax, in a fixed order: the config's own
// by field path, then the lock's pins (those the load can use: the first
// of a URL and ref, as PinFor reads them).
func pinnedSources(c *config.Config) []bundle.Source {
	seen := map[[2]string]bool{}
	var out []bundle.Source
	add := func(s bundle.Source) {
		k := [2]string{s.SourceURL(), s.SourcePin()}
		if s.SourcePin() == "" || seen[k] || len(out) == prefetchMax {
			return
		}
		seen[k] = true
		out = append(out, s)
	}
	fields := c.SourceFields()
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		add(fields[f].WithPin(c.PinFor(fields[f])))
	}
	if c.Spec.Lock != nil {
		refs := map[[2]string]bool{}
		for _, p := range c.Spec.Lock.Pins {
			if k := [2]string{p.URL, p.Ref}; !refs[k] {
				refs[k] = true
				add(p.Source())
			}
		}
	}
	return out
}
