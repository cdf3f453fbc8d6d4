package limits

import (
	"context"
	"sync"
	"time"
)

// Bound is one time bound shared by all the operations of one kind in a
// run (every git operation, every OCI fetch): the first use starts it,
// for the timeout it is given, and it never passes the run's deadline
// (the watchdog's, less a margin). Operations that retry, or a source
// opened twice, get no fresh bound each. The zero Bound is ready to use
// and safe for concurrent use.
type Bound struct {
	mu       sync.Mutex
	deadline time.Time
	byRun    bool
}

// Within is ctx bounded by b. The first call sets the bound: timeout from
// now, or run when that comes first (a zero run: no run deadline).
func (b *Bound) Within(ctx context.Context, timeout time.Duration, run time.Time) (context.Context, context.CancelFunc) {
	b.mu.Lock()
	if b.deadline.IsZero() {
		b.deadline = time.Now().Add(timeout)
		if !run.IsZero() && run.Before(b.deadline) {
			b.deadline, b.byRun = run, true
		}
	}
	d := b.deadline
	b.mu.Unlock()
	return context.WithDeadline(ctx, d)
}

// ByRun reports whether the run's deadline, not the timeout, set the
// bound: which limit an operation that ran out of it names.
func (b *Bound) ByRun() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.byRun
}
