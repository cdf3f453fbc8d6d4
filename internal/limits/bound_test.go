package limits_test

import (
	"context"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// TestBound: the first use sets the bound; later uses get what is left of
// it, however long their own timeout; the run's deadline caps it and is
// then what ByRun names.
func TestBound(t *testing.T) {
	cases := []struct {
		reason       string
		first, later time.Duration
		run          time.Duration // from now, 0 for none
		want         time.Duration
		byRun        bool
	}{
		{reason: "the first use's timeout", first: time.Hour, later: 2 * time.Hour, want: time.Hour},
		{reason: "the run's deadline comes first", first: time.Hour, later: time.Hour, run: time.Minute, want: time.Minute, byRun: true},
		{reason: "the timeout comes before the run's deadline", first: time.Minute, later: time.Hour, run: time.Hour, want: time.Minute},
	}
	for _, tc := range cases {
		var b limits.Bound
		var run time.Time
		if tc.run > 0 {
			run = time.Now().Add(tc.run)
		}
		start := time.Now()
		ctx, cancel := b.Within(context.Background(), tc.first, run)
		cancel()
		end := time.Now()
		d1, _ := ctx.Deadline()
		ctx, cancel = b.Within(context.Background(), tc.later, time.Time{})
		cancel()
		d2, _ := ctx.Deadline()
		assert.Equal(t, d1, d2, "%s: a later use got another bound", tc.reason)
		if tc.byRun {
			assert.Equal(t, d1, run, tc.reason)
		} else {
			assert.Assert(t, !d1.Before(start.Add(tc.want)) && !d1.After(end.Add(tc.want)), "%s: bound %s, want %s", tc.reason, d1.Sub(start), tc.want)
		}
		assert.Equal(t, b.ByRun(), tc.byRun, tc.reason)
	}
}
