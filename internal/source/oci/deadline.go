package oci

import (
	"context"
	"errors"
	"fmt"
)

// The network operations of a Source (resolving a tag, verifying a
// signature, pulling, checking a pin, pushing) share one time bound:
// --oci-timeout from the first of them, and never past Options.Deadline
// (the run's watchdog, less a margin). A run that opens an artifact twice
// (prefetch, then the load) or several artifacts gets no fresh bound for
// each: a stalled registry ends the run with an error that names the
// artifact and the limit, before the watchdog would.

// bounded is ctx within the Source's time bound.
func (s *Source) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return s.bound.Within(ctx, s.opts.Limits.OCITimeout, s.opts.Deadline)
}

// timedOut words an error of an operation that ran out of the bound (ctx
// is its bounded context): where, what was waited for, and the limit.
func (s *Source) timedOut(ctx context.Context, where string, err error) error {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	if s.bound.ByRun() {
		return fmt.Errorf("%s: the registry did not answer before the run's time limit (--timeout; OCI fetches end before it so that this error names them): raise it with --timeout or KUDO_RENDER_TIMEOUT", where)
	}
	return fmt.Errorf("%s: the registry did not answer within %s (--oci-timeout, one bound for every OCI fetch of the run, retries included): raise it with --oci-timeout or KUDO_RENDER_OCI_TIMEOUT", where, s.opts.Limits.OCITimeout)
}
