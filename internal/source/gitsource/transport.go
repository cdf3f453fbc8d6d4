package gitsource

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/kudo-render/kudo-render/internal/limits"
)

var installOnce sync.Once

// installTransport makes go-git's http and https transports use a client
// with timeouts of their own: connecting (--git-connect-timeout), and a
// server that sends nothing for too long (--git-idle-timeout); the whole
// operation is bounded by a context (--git-timeout). Limits are read at
// each request, so flags reach it.
func installTransport() {
	installOnce.Do(func() {
		c := &http.Client{Transport: &idleTransport{base: newBaseTransport()}}
		client.InstallProtocol("https", githttp.NewClient(c))
		client.InstallProtocol("http", githttp.NewClient(c))
	})
}

func newBaseTransport() *http.Transport {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: limits.Current().GitConnectTimeout}
		return d.DialContext(ctx, network, addr)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = dial
	return t
}

// idleTransport ends a response whose body stalls longer than the idle
// timeout.
type idleTransport struct{ base http.RoundTripper }

func (t *idleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	idle := limits.Current().GitIdleTimeout
	ctx, cancel := context.WithCancel(req.Context())
	var mu sync.Mutex
	waited := false
	timer := time.AfterFunc(idle, func() { // no answer at all: TLS or headers
		mu.Lock()
		waited = true
		mu.Unlock()
		cancel()
	})
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		cancel()
		mu.Lock()
		defer mu.Unlock()
		if waited {
			return nil, fmt.Errorf("%s sent nothing for %s (raise it with --git-idle-timeout or KUDO_RENDER_GIT_IDLE_TIMEOUT)", req.URL.Host, idle)
		}
		if ue, ok := err.(interface{ Timeout() bool }); ok && ue.Timeout() {
			return nil, &connectTimeoutError{host: req.URL.Host, timeout: limits.Current().GitConnectTimeout}
		}
		return nil, err
	}
	resp.Body = &idleBody{body: resp.Body, idle: idle, cancel: cancel, host: req.URL.Host}
	return resp, nil
}

// connectTimeoutError is a server that did not accept the connection
// within --git-connect-timeout.
type connectTimeoutError struct {
	host    string
	timeout time.Duration
}

func (e *connectTimeoutError) Error() string {
	return fmt.Sprintf("cannot connect to %s within %s (raise it with --git-connect-timeout or KUDO_RENDER_GIT_CONNECT_TIMEOUT)", e.host, e.timeout)
}

// idleBody cancels its request when no byte arrives for idle.
type idleBody struct {
	body   io.ReadCloser
	idle   time.Duration
	cancel context.CancelFunc
	host   string
	timer  *time.Timer
	mu     sync.Mutex
	fired  bool
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	if b.timer == nil {
		b.timer = time.AfterFunc(b.idle, b.fire)
	} else {
		b.timer.Reset(b.idle)
	}
	b.mu.Unlock()
	n, err := b.body.Read(p)
	b.mu.Lock()
	fired := b.fired
	b.mu.Unlock()
	if err != nil && fired {
		return n, fmt.Errorf("%s sent nothing for %s (raise it with --git-idle-timeout or KUDO_RENDER_GIT_IDLE_TIMEOUT)", b.host, b.idle)
	}
	return n, err
}

func (b *idleBody) fire() {
	b.mu.Lock()
	b.fired = true
	b.mu.Unlock()
	b.cancel()
}

func (b *idleBody) Close() error {
	b.mu.Lock()
	if b.timer != nil {
		b.timer.Stop()
	}
	b.mu.Unlock()
	b.cancel()
	return b.body.Close()
}
