package oci_test

import (
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// TestOneTimeBound: the network operations of a Source share one bound.
// A run opens a pinned artifact twice (prefetch, then the load): once the
// first open ran out of --oci-timeout against a registry that never
// answers, the second gets no fresh bound of its own and fails at once,
// without a new connection, with the same message naming the artifact and
// the limit.
func TestOneTimeBound(t *testing.T) {
	reg := ocitest.Stall(t)
	s, err := oci.New(oci.Options{CacheDir: t.TempDir(), Limits: limits.Limits{OCITimeout: 300 * time.Millisecond}})
	assert.NilError(t, err)
	src := bundle.OCISource{URL: reg.URL + "/kudo/stalled", Digest: "sha256:" + strings.Repeat("0", 64)}
	want := reg.URL + "/kudo/stalled@sha256:" + strings.Repeat("0", 64) + ": the registry did not answer within 300ms (--oci-timeout, one bound for every OCI fetch of the run, retries included): raise it with --oci-timeout or KUDO_RENDER_OCI_TIMEOUT"
	_, err = open(t, s, src)
	assert.Error(t, err, want)
	accepted := reg.Accepted()
	assert.Assert(t, accepted > 0)
	_, err = open(t, s, src)
	assert.Error(t, err, want, "the second open")
	assert.Equal(t, reg.Accepted(), accepted, "the second open connected again")
}

// TestRunDeadline: Options.Deadline (the run's watchdog, less a margin)
// ends an operation that --oci-timeout would let run on, naming the run's
// limit instead.
func TestRunDeadline(t *testing.T) {
	reg := ocitest.Stall(t)
	s, err := oci.New(oci.Options{CacheDir: t.TempDir(), Limits: limits.Limits{OCITimeout: time.Hour}, Deadline: time.Now().Add(300 * time.Millisecond)})
	assert.NilError(t, err)
	_, err = open(t, s, bundle.OCISource{URL: reg.URL + "/kudo/stalled", Tag: "v1"})
	assert.Error(t, err, reg.URL+"/kudo/stalled:v1: the registry did not answer before the run's time limit (--timeout; OCI fetches end before it so that this error names them): raise it with --timeout or KUDO_RENDER_TIMEOUT")
}
