package gitsource

import (
	"context"
	"errors"
	"fmt"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// The network operations of a Fetcher (every ls-remote and fetch, and
// the wait for another process's fetch of the same commit) share one time
// bound: Options.Timeout (--git-timeout) from the first of them, and
// never past Options.Deadline (the run's watchdog, less a margin). A run
// that opens a source twice (prefetch, then the load), resolves a branch
// then fetches it, retries, or fetches several sources gets no fresh
// bound for each: a stalled server ends the run with an error that names
// the repository, the operation and the limit, before the watchdog
// would.

// within runs op, one network operation named what ("git fetch (depth
// 1)"), within the Fetcher's time bound. An operation that ran out of it,
// or was left none, fails naming what and the limit; its own error is
// dropped (a canceled request says nothing more).
func (f *gitFetcher) within(ctx context.Context, what string, op func(context.Context) error) error {
	return f.runWithin(ctx, what, false, op)
}

// waitWithin is within for a wait that tries at once before it waits
// (the fetch lock of a commit): op runs even when the bound is spent, so
// that a lock free at once is taken and the error, if any, names the
// fetch that follows it rather than a wait that never was.
func (f *gitFetcher) waitWithin(ctx context.Context, what string, op func(context.Context) error) error {
	return f.runWithin(ctx, what, true, op)
}

func (f *gitFetcher) runWithin(ctx context.Context, what string, always bool, op func(context.Context) error) error {
	bctx, cancel := f.bound.Within(ctx, f.opts.Timeout, f.opts.Deadline)
	defer cancel()
	err := bctx.Err()
	if err == nil || always {
		err = op(bctx)
	}
	if err == nil || ctx.Err() != nil || !errors.Is(bctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return f.timedOut(what)
}

// timedOut is the error of the operation what that ran out of the bound:
// which limit, and how to raise it.
func (f *gitFetcher) timedOut(what string) error {
	if !f.bound.ByRun() {
		return errorf(context.DeadlineExceeded, "%s stopped: the run's git operations used up the %s they share (--git-timeout, one bound for all of them, counted from the first): raise it with --git-timeout or KUDO_RENDER_GIT_TIMEOUT", what, f.opts.Timeout)
	}
	limit := ""
	if t := limits.Current().Timeout; t > 0 {
		limit = " of " + t.String()
	}
	return errorf(context.DeadlineExceeded, "%s stopped before the run's time limit%s (--timeout; git operations end a little before it so that this error names them): raise it with --timeout or KUDO_RENDER_TIMEOUT", what, limit)
}

// opName is what a fetch of depth is called in messages.
func opName(depth int) string {
	if depth == 0 {
		return "git fetch (whole history)"
	}
	return fmt.Sprintf("git fetch (depth %d)", depth)
}
