package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kudo-render/kudo-render/internal/activity"
)

// clusterTimeout bounds each request to a cluster when the run has no
// time limit of its own (--timeout 0).
const clusterTimeout = 30 * time.Second

// clusterWork bounds a whole adopt check or apply, or a cluster import,
// when the run has no time limit of its own.
const clusterWork = 10 * clusterTimeout

// clusterBounds are the time bounds of the requests to one cluster: each
// request ends by itself before the watchdog would (deadline, the run's
// time less watchdogMargin), and its error names the cluster, the request
// and the limit; while it waits it is recorded for the watchdog's message
// all the same (activity.WaitingOn).
type clusterBounds struct {
	host     string
	deadline time.Time // zero: the run has no time limit
}

// bound bounds each request of cfg by clusterTimeout, never longer than
// the run has left, through its context (not http.Client's Timeout, which
// gives up on the transport without its error), and wraps its transport.
func (b clusterBounds) bound(cfg *rest.Config) {
	timeout := clusterTimeout
	if !b.deadline.IsZero() {
		timeout = max(min(clusterTimeout, time.Until(b.deadline)), time.Millisecond)
	}
	cfg.Timeout = 0
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return &clusterTransport{rt: rt, b: b, timeout: timeout}
	})
}

// context is ctx bounded by the run's deadline, or by clusterWork.
func (b clusterBounds) context(ctx context.Context) (context.Context, context.CancelFunc) {
	if b.deadline.IsZero() {
		return context.WithTimeout(ctx, clusterWork)
	}
	return context.WithDeadline(ctx, b.deadline)
}

// clusterTransport records each request while it waits and words a
// request that ran out of time.
type clusterTransport struct {
	rt      http.RoundTripper
	b       clusterBounds
	timeout time.Duration
}

func (t *clusterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	what := req.Method + " " + req.URL.Path
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	done := activity.WaitingOn("request " + what + " to the cluster " + t.b.host)
	resp, err := t.rt.RoundTrip(req.WithContext(ctx))
	done()
	if err != nil {
		cancel()
		if timedOut(err) || ctx.Err() != nil {
			limit := "the bound of one request to a cluster"
			if !t.b.deadline.IsZero() && t.timeout < clusterTimeout {
				limit = "what the run's --timeout left it; raise it with --timeout or KUDO_RENDER_TIMEOUT"
			}
			return nil, fmt.Errorf("the cluster %s did not answer %s within %s (%s)", t.b.host, what, t.timeout.Round(time.Millisecond), limit)
		}
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

// cancelOnClose is a response body whose request's context ends with it.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// timedOut reports whether err is a request that ran out of time.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
