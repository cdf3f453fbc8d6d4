package gittest

import (
	"crypto/subtle"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options configure a [Server].
type Options struct {
	// Username and Password, when set, make the server require HTTP basic
	// auth from the start (see [Server.RequireAuth]).
	Username, Password string
	// AllowSHA1InWant sets uploadpack.allowReachableSHA1InWant (and
	// allowTipSHA1InWant) for every repository, so clients may fetch any
	// reachable commit by its SHA, as GitHub and GitLab allow. Off, the server
	// behaves like a plain git installation: only branch and tag tips can be
	// asked for by protocol v0/v1 clients such as go-git.
	AllowSHA1InWant bool
	// Latency delays every request, as a remote host's round trip would
	// (benchmarks of concurrent fetches).
	Latency time.Duration
	// Trickle, when set, makes a hung request (see [Server.Stall]) look
	// alive: it is answered 200 and sent one byte every Trickle of a
	// pkt-line that never ends, as a busy server sends progress and never
	// the refs or the pack. A client's idle timeout (--git-idle-timeout)
	// never fires on it: only a bound on the whole operation ends it.
	Trickle time.Duration
}

// Request is one HTTP request the server received.
type Request struct {
	Method string
	// Path is the URL path, e.g. /org/repo/info/refs.
	Path string
	// Service is git-upload-pack for fetches and ls-remote.
	Service string
	// Authorization is the request's Authorization header as received
	// ("Basic ...", "Bearer ..."), empty when it had none: which
	// credentials reached this server.
	Authorization string
}

// IsFetch tells whether the request is the POST that transfers a pack (a
// fetch or clone, as opposed to the ref advertisement that ls-remote reads).
func (r Request) IsFetch() bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/git-upload-pack")
}

// Server is a loopback smart-HTTP git server. It is closed by t.Cleanup.
type Server struct {
	t    testing.TB
	root string
	git  string
	home string
	http *httptest.Server

	mu      sync.Mutex
	user    string
	pass    string
	stalled bool
	// stalledFetches hangs pack transfers only (StallFetches).
	stalledFetches bool
	stop           chan struct{}
	requests       []Request
}

// GitBinary returns the path of the git binary, or skips the test when git is
// not installed.
func GitBinary(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: skipping a test that needs a git server")
	}
	return p
}

// NewServer starts a server on 127.0.0.1 serving the repositories created with
// [Server.NewRepo]. It skips the test when git is not installed.
func NewServer(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{t: t, git: GitBinary(t), root: t.TempDir(), home: t.TempDir(),
		user: opts.Username, pass: opts.Password, stop: make(chan struct{})}
	env := []string{
		"GIT_PROJECT_ROOT=" + s.root,
		"GIT_HTTP_EXPORT_ALL=1",
		"PATH=" + os.Getenv("PATH"),
	}
	env = append(env, gitEnv(s.home)...)
	cfg := [][2]string{{"safe.directory", "*"}}
	if opts.AllowSHA1InWant {
		cfg = append(cfg, [2]string{"uploadpack.allowReachableSHA1InWant", "true"},
			[2]string{"uploadpack.allowTipSHA1InWant", "true"})
	}
	env = append(env, configEnv(cfg)...)
	// http-backend's complaints (unknown refs, missing repositories) are
	// expected in tests: keep them out of the test output.
	backend := &cgi.Handler{Path: s.git, Args: []string{"http-backend"}, Root: "/", Env: env, Stderr: io.Discard}
	s.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Service: r.URL.Query().Get("service"),
			Authorization: r.Header.Get("Authorization")})
		user, pass, stalled := s.user, s.pass, s.stalled || s.stalledFetches && s.requests[len(s.requests)-1].IsFetch()
		s.mu.Unlock()
		if stalled {
			s.hang(w, r, opts.Trickle)
			return
		}
		if user != "" || pass != "" {
			u, p, ok := r.BasicAuth()
			if !ok || subtle.ConstantTimeCompare([]byte(u), []byte(user)) != 1 || subtle.ConstantTimeCompare([]byte(p), []byte(pass)) != 1 {
				w.Header().Set("WWW-Authenticate", `Basic realm="gittest"`)
				http.Error(w, "authentication required", http.StatusUnauthorized)
				return
			}
		}
		if opts.Latency > 0 {
			time.Sleep(opts.Latency)
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(s.http.Close)
	t.Cleanup(func() { close(s.stop) }) // runs first: stalled requests end
	return s
}

// URL returns the clone URL of the repository named repo (a path below the
// server's root, e.g. "org/repo").
func (s *Server) URL(repo string) string {
	return s.http.URL + "/" + strings.Trim(repo, "/")
}

// Addr returns the server's host:port.
func (s *Server) Addr() string { return strings.TrimPrefix(s.http.URL, "http://") }

// Root returns the folder that holds the repositories.
func (s *Server) Root() string { return s.root }

// RequireAuth makes the server answer 401 to every request without these
// basic auth credentials. Empty user and pass turn auth off again.
func (s *Server) RequireAuth(user, pass string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user, s.pass = user, pass
}

// Stall makes the server hang: it accepts every request and sends
// nothing until the client gives up (or the test ends), as a hung git
// server does; with Options.Trickle, it sends a byte now and then and
// never the answer. Stall(false) serves again.
func (s *Server) Stall(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stalled = on
}

// StallFetches makes the server hang on pack transfers only (as
// [Server.Stall] does): the ref advertisement that ls-remote reads is
// served, the fetch that follows it never ends. StallFetches(false)
// serves them again.
func (s *Server) StallFetches(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stalledFetches = on
}

// hang answers nothing until the client gives up (or the test ends);
// with trickle, a 200 and one byte of a pkt-line that never ends every
// trickle.
func (s *Server) hang(w http.ResponseWriter, r *http.Request, trickle time.Duration) {
	var tick <-chan time.Time
	if trickle > 0 {
		t := time.NewTicker(trickle)
		defer t.Stop()
		tick = t.C
		kind := "result"
		if r.Method == http.MethodGet {
			kind = "advertisement"
		}
		w.Header().Set("Content-Type", "application/x-git-upload-pack-"+kind)
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "fff0") // a pkt-line of 65,516 bytes, one sent every trickle
		w.(http.Flusher).Flush()
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		case <-tick:
			if _, err := io.WriteString(w, "x"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
}

// Requests returns the number of requests received since the start or the
// last [Server.Reset], whatever their outcome (401s included).
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// RequestsFor returns the number of requests for the repository repo.
func (s *Server) RequestsFor(repo string) int {
	prefix := "/" + strings.Trim(repo, "/") + "/"
	n := 0
	for _, r := range s.Log() {
		if strings.HasPrefix(r.Path, prefix) {
			n++
		}
	}
	return n
}

// Fetches returns the number of pack transfers (upload-pack POSTs) received.
func (s *Server) Fetches() int {
	n := 0
	for _, r := range s.Log() {
		if r.IsFetch() {
			n++
		}
	}
	return n
}

// Log returns a copy of the requests received.
func (s *Server) Log() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Reset forgets the requests received so far.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// Close stops the server (t.Cleanup does it too).
func (s *Server) Close() { s.http.Close() }

// NewRepo creates an empty repository named name (e.g. "org/repo") whose
// default branch is main. It has no commit until [Repo.Commit].
func (s *Server) NewRepo(name string) *Repo {
	s.t.Helper()
	name = strings.Trim(name, "/")
	dir := filepath.Join(s.root, filepath.FromSlash(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	r := &Repo{t: s.t, srv: s, Name: name, Dir: dir}
	r.Git("init", "-q", "-b", "main")
	return r
}

// gitEnv isolates git from the user's and the system's configuration.
func gitEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=gittest",
		"GIT_AUTHOR_EMAIL=gittest@example.com",
		"GIT_COMMITTER_NAME=gittest",
		"GIT_COMMITTER_EMAIL=gittest@example.com",
	}
}

// configEnv passes configuration the way `git -c` does, so that settings that
// are only read from protected configuration (safe.directory) apply.
func configEnv(kv [][2]string) []string {
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(kv))}
	for i, p := range kv {
		env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(i)+"="+p[0], "GIT_CONFIG_VALUE_"+strconv.Itoa(i)+"="+p[1])
	}
	return env
}
