package gitsource

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestSharedTimeBound: the network operations of one Fetcher share one
// Options.Timeout, counted from the first of them. A fetch that a caller
// gave up on spends part of it, and the next fetch is left only what
// remains; once it is spent, even an ls-remote the server would answer
// fails at once, naming the operation and the limit. The server trickles
// a byte now and then, so --git-idle-timeout never ends a wait. The only
// timings checked are far from the expected ones: the second fetch ends
// with the bound (3s from the start of the first), well before a fresh
// bound of its own would.
func TestSharedTimeBound(t *testing.T) {
	fx := newFixture(t, gittest.Options{AllowSHA1InWant: true, Trickle: 50 * time.Millisecond})
	fx.srv.StallFetches(true)
	const timeout = 3 * time.Second
	f, _ := newFetcher(t, Options{Timeout: timeout})
	spent := func(op string) string {
		return op + " stopped: the run's git operations used up the 3s they share (--git-timeout, one bound for all of them, counted from the first)"
	}

	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), timeout*2/3)
	_, _, err := f.Open(ctx, Ref{URL: fx.repo.URL(), Commit: fx.c1})
	cancel()
	assert.Assert(t, err != nil, "the first fetch, given up on by its caller after 2s: the pack never comes")
	assert.Check(t, !errors.Is(err, ErrNotFound), "the first fetch: %v", err)

	second := time.Now()
	_, _, err = f.Open(context.Background(), Ref{URL: fx.repo.URL(), Commit: fx.c2})
	took := time.Since(second)
	assert.Check(t, is.ErrorContains(err, fx.repo.URL()+"@"+fx.c2+": "+spent("git fetch (depth 1)")),
		"the second fetch, of another commit, runs out of the bound the first one started")
	assert.Check(t, errors.Is(err, context.DeadlineExceeded), "the second fetch: %v", err)
	assert.Check(t, time.Since(start) >= timeout, "the bound ended %s after the first fetch started, before the %s it is", time.Since(start), timeout)
	assert.Check(t, took < timeout*5/6, "the second fetch was given %s, not what was left of the bound (about %s)", took, timeout/3)

	_, err = f.Resolve(context.Background(), Ref{URL: fx.repo.URL(), Ref: "main"})
	assert.Check(t, is.ErrorContains(err, fx.repo.URL()+"@main: "+spent("git ls-remote")),
		"an ls-remote after the bound is spent is not tried, although the server would answer it")
}

// TestRunDeadline: Options.Deadline, when sooner than the end of
// Options.Timeout, ends the operations: their error names the run's time
// limit (limits.Current().Timeout, --timeout), not --git-timeout.
func TestRunDeadline(t *testing.T) {
	withLimits(t, func(l *limits.Limits) { l.Timeout = 5 * time.Second })
	fx := newFixture(t, gittest.Options{AllowSHA1InWant: true, Trickle: 50 * time.Millisecond})
	fx.srv.StallFetches(true)
	cases := []struct {
		name, reason string
		deadline     time.Time
		want         string
	}{
		{
			name:     "RunEndsFirst",
			reason:   "the run's deadline comes long before --git-timeout's end: the fetch stops at it, naming --timeout",
			deadline: time.Now().Add(time.Second),
			want:     "git fetch (depth 1) stopped before the run's time limit of 5s (--timeout; git operations end a little before it so that this error names them)",
		},
		{
			name:     "Passed",
			reason:   "a deadline already passed: nothing is tried",
			deadline: time.Now().Add(-time.Second),
			want:     "git fetch (depth 1) stopped before the run's time limit",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := newFetcher(t, Options{Timeout: time.Hour, Deadline: tc.deadline})
			// Ignoring Deadline would wait an hour: the test gives up
			// long before, with an error that is not the one wanted.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, _, err := f.Open(ctx, Ref{URL: fx.repo.URL(), Commit: fx.c1})
			assert.Check(t, is.ErrorContains(err, fx.repo.URL()+"@"+fx.c1+": "+tc.want), tc.reason)
		})
	}
}
