package ocitest

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	ggcr "github.com/google/go-containerregistry/pkg/registry"
)

// Registry is a registry on 127.0.0.1.
type Registry struct {
	// Host is 127.0.0.1:port.
	Host string
	// URL is oci://127.0.0.1:port.
	URL string

	mu sync.Mutex
	// user and pass, when set, are required (basic auth).
	user, pass string
	auths      []string
	requests   int
	tamper     func(path string, body []byte) []byte
	srv        *httptest.Server
}

// Start starts a registry that the test stops.
func Start(t testing.TB) *Registry {
	r := New()
	t.Cleanup(r.Close)
	return r
}

// New starts a registry; Close stops it.
func New() *Registry {
	r := &Registry{}
	h := ggcr.New(ggcr.WithReferrersSupport(true), ggcr.Logger(nopLogger()))
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { r.serve(h, w, req) }))
	r.Host = strings.TrimPrefix(r.srv.URL, "http://")
	r.URL = "oci://" + r.Host
	return r
}

// Close stops the registry.
func (r *Registry) Close() { r.srv.Close() }

// RequireAuth makes every request need basic auth with user and pass.
func (r *Registry) RequireAuth(user, pass string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.user, r.pass = user, pass
}

// Tamper alters the body of every GET whose path contains part (a blob
// digest) with f; nil stops altering.
func (r *Registry) Tamper(part string, f func([]byte) []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f == nil {
		r.tamper = nil
		return
	}
	r.tamper = func(path string, body []byte) []byte {
		if strings.Contains(path, part) {
			return f(body)
		}
		return body
	}
}

// Auths are the Authorization headers requests carried (empty ones left out).
func (r *Registry) Auths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auths...)
}

// Requests counts the requests served.
func (r *Registry) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

func (r *Registry) serve(h http.Handler, w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	if a := req.Header.Get("Authorization"); a != "" {
		r.auths = append(r.auths, a)
	}
	user, pass, tamper := r.user, r.pass, r.tamper
	r.mu.Unlock()
	if user != "" {
		u, p, ok := req.BasicAuth()
		if !ok || u != user || p != pass {
			w.Header().Set("WWW-Authenticate", `Basic realm="ocitest"`)
			http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`, http.StatusUnauthorized)
			return
		}
	}
	if tamper == nil || req.Method != http.MethodGet {
		h.ServeHTTP(w, req)
		return
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body := tamper(req.URL.Path, rec.Body.Bytes())
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = io.Copy(w, bytes.NewReader(body))
}

// Stalled is a registry on 127.0.0.1 that accepts connections and never
// answers (a hung registry, or one behind a black-holing proxy).
type Stalled struct {
	// Host is 127.0.0.1:port and URL oci://127.0.0.1:port.
	Host, URL string

	mu       sync.Mutex
	accepted int
}

// Stall starts a stalled registry that the test stops.
func Stall(t testing.TB) *Stalled {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Stalled{Host: l.Addr().String()}
	s.URL = "oci://" + s.Host
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.accepted++
			conns = append(conns, c) // held open, never read or answered
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return s
}

// Accepted counts the connections accepted.
func (s *Stalled) Accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accepted
}
