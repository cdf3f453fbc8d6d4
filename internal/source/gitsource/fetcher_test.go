package gitsource

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

func TestOpen(t *testing.T) {
	// Both servers hold the same commits (fixed dates give fixed SHAs).
	plain := newFixture(t, gittest.Options{})
	bySHA := newFixture(t, gittest.Options{AllowSHA1InWant: true})
	fx := plain
	unknown := strings.Repeat("d", 40)

	type want struct {
		files   map[string]string
		res     Resolved
		warn    string
		kind    error
		msg     []string
		fetches int
	}
	cases := map[string]struct {
		reason string
		server *fixture
		ref    Ref
		want   want
	}{
		"Branch": {
			reason: "A branch resolves to its tip, is fetched once and warns that it is not pinned.",
			ref:    Ref{Ref: "main", Path: "mysql"},
			want: want{files: files2, res: Resolved{Ref: "refs/heads/main", Commit: fx.c2, Path: "mysql"},
				warn: "rendering from unpinned branch main of " + fx.repo.URL() + " (commit " + fx.c2[:12] + "): pin it with kudo-render lock", fetches: 1},
		},
		"DefaultBranch": {
			reason: "An empty ref is the remote's HEAD.",
			ref:    Ref{Path: "mysql"},
			want:   want{files: files2, res: Resolved{Ref: "refs/heads/main", Commit: fx.c2, Path: "mysql"}, warn: "rendering from the unpinned default branch (main) of ", fetches: 1},
		},
		"OtherBranch": {
			reason: "Any branch can be named.",
			ref:    Ref{Ref: "dev", Path: "mysql"},
			want: want{files: map[string]string{"framework.yaml": fw1, "templates/deploy.yaml": deploy, "dev.yaml": devOnly},
				res: Resolved{Ref: "refs/heads/dev", Commit: fx.dv, Path: "mysql"}, warn: "unpinned branch dev", fetches: 1},
		},
		"LightweightTag": {
			reason: "A tag resolves to its commit and does not warn.",
			ref:    Ref{Ref: "v1", Path: "mysql"},
			want:   want{files: files1, res: Resolved{Ref: "refs/tags/v1", Commit: fx.c1, Path: "mysql"}, fetches: 1},
		},
		"AnnotatedTag": {
			reason: "An annotated tag resolves to the commit it points at.",
			ref:    Ref{Ref: "v1.0.0", Path: "mysql"},
			want:   want{files: files1, res: Resolved{Ref: "refs/tags/v1.0.0", Commit: fx.c1, Path: "mysql"}, fetches: 1},
		},
		"FullRefName": {
			reason: "refs/tags/... names a tag only.",
			ref:    Ref{Ref: "refs/tags/v1.0.0", Path: "mysql/"},
			want:   want{files: files1, res: Resolved{Ref: "refs/tags/v1.0.0", Commit: fx.c1, Path: "mysql"}, fetches: 1},
		},
		"RepositoryRoot": {
			reason: "An empty path is the whole tree.",
			ref:    Ref{Ref: "v1"},
			want: want{files: map[string]string{"README.md": readme, "mysql/framework.yaml": fw1, "mysql/templates/deploy.yaml": deploy},
				res: Resolved{Ref: "refs/tags/v1", Commit: fx.c1}, fetches: 1},
		},
		"TipSHA": {
			reason: "The SHA of a branch tip is fetched through that branch when the server does not serve commits by SHA.",
			ref:    Ref{Ref: fx.c2, Path: "mysql"},
			want:   want{files: files2, res: Resolved{Commit: fx.c2, Path: "mysql"}, fetches: 1},
		},
		"OldSHAFromHistory": {
			reason: "A commit that is no tip is found in the history of the branches when the server does not serve commits by SHA.",
			ref:    Ref{Ref: fx.c0, Path: "mysql"},
			want:   want{files: files0, res: Resolved{Commit: fx.c0, Path: "mysql"}, fetches: 1},
		},
		"OldSHAByWant": {
			reason: "A server with uploadpack.allowReachableSHA1InWant serves any commit by SHA in one shallow fetch.",
			server: bySHA,
			ref:    Ref{Ref: fx.c0, Path: "mysql"},
			want:   want{files: files0, res: Resolved{Commit: fx.c0, Path: "mysql"}, fetches: 1},
		},
		"PinnedCommitWins": {
			reason: "A pinned commit wins over the ref, and nothing warns.",
			ref:    Ref{Ref: "main", Commit: fx.c1, Path: "mysql"},
			want:   want{files: files1, res: Resolved{Commit: fx.c1, Path: "mysql"}, fetches: 1},
		},
		"PinnedCommitOnOtherBranch": {
			reason: "A pinned commit that is not a tip is searched in the ref's history.",
			ref:    Ref{Ref: "main", Commit: fx.c0, Path: "mysql"},
			want:   want{files: files0, res: Resolved{Commit: fx.c0, Path: "mysql"}, fetches: 1},
		},
		"UnknownRef": {
			reason: "An unknown ref is an error that lists the branches.",
			ref:    Ref{Ref: "nope", Path: "mysql"},
			want:   want{kind: ErrNotFound, msg: []string{fx.repo.URL() + "@nope: ", `no branch or tag named "nope" (branches: dev, main)`}},
		},
		"UnknownSHA": {
			reason: "An unknown commit is searched up to MaxDepth, then reported.",
			ref:    Ref{Ref: unknown, Path: "mysql"},
			want:   want{kind: ErrNotFound, msg: []string{"commit dddddddddddd not found in any branch or tag"}, fetches: 1},
		},
		"UnknownSHAByWant": {
			reason: "A server that serves commits by SHA says when it has none.",
			server: bySHA,
			ref:    Ref{Ref: unknown, Path: "mysql"},
			want:   want{kind: ErrNotFound, msg: []string{"commit dddddddddddd not found (the server refused it by SHA"}, fetches: 1},
		},
		"UnknownPinnedCommitByWant": {
			reason: "A commit the server refuses by SHA is searched in the history of the ref given with it.",
			server: bySHA,
			ref:    Ref{Ref: "main", Commit: unknown, Path: "mysql"},
			want:   want{kind: ErrNotFound, msg: []string{`commit dddddddddddd not found in ref "main"`}, fetches: 2},
		},
		"MissingPath": {
			reason: "A path that is not in the tree is an error naming it.",
			ref:    Ref{Ref: "v1", Path: "postgres"},
			want:   want{kind: ErrNotFound, msg: []string{`path "postgres" does not exist at commit ` + fx.c1[:12]}, fetches: 1},
		},
		"PathIsAFile": {
			reason: "A path must be a folder.",
			ref:    Ref{Ref: "v1", Path: "README.md"},
			want:   want{kind: ErrNotFound, msg: []string{`path "README.md" is not a folder`}, fetches: 1},
		},
		"UnknownRepository": {
			reason: "A repository that does not exist is reported as such.",
			ref:    Ref{URL: fx.srv.URL("platform/nothing"), Ref: "main"},
			want:   want{kind: ErrNotFound, msg: []string{"repository not found"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := tc.server
			if srv == nil {
				srv = plain
			}
			if tc.ref.URL == "" {
				tc.ref.URL = srv.repo.URL()
			}
			if tc.want.res.URL == "" && tc.want.files != nil {
				tc.want.res.URL = srv.repo.URL()
			}
			srv.srv.Reset()
			f, w := newFetcher(t, Options{})
			fsys, res, err := f.Open(context.Background(), tc.ref)
			if msg := errCheck(err, tc.want.kind, tc.want.msg...); msg != "" {
				t.Fatalf("%s\nOpen(%+v): %s", tc.reason, tc.ref, msg)
			}
			if err == nil {
				assert.Check(t, is.DeepEqual(tc.want.files, readFiles(t, fsys)), "%s\nOpen(%+v): files", tc.reason, tc.ref)
				assert.Check(t, is.DeepEqual(tc.want.res, res), "%s\nOpen(%+v): Resolved", tc.reason, tc.ref)
			}
			if got := w.all(); tc.want.warn == "" && got != "" || !strings.Contains(got, tc.want.warn) {
				t.Errorf("%s\nOpen(%+v): warnings %q, want %q", tc.reason, tc.ref, got, tc.want.warn)
			}
			if got := srv.srv.Fetches(); tc.want.fetches != got {
				t.Errorf("%s\nOpen(%+v): %d fetches, want %d (%v)", tc.reason, tc.ref, got, tc.want.fetches, srv.srv.Log())
			}
		})
	}
}

func TestResolve(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cases := map[string]struct {
		reason   string
		ref      Ref
		want     Resolved
		requests int
	}{
		"Branch": {
			reason:   "A branch costs one ls-remote and no fetch.",
			ref:      Ref{Ref: "main", Path: "mysql"},
			want:     Resolved{Ref: "refs/heads/main", Commit: fx.c2, Path: "mysql"},
			requests: 1,
		},
		"Tag": {
			reason:   "A tag costs one ls-remote.",
			ref:      Ref{Ref: "v1.0.0"},
			want:     Resolved{Ref: "refs/tags/v1.0.0", Commit: fx.c1},
			requests: 1,
		},
		"SHA": {
			reason: "A full SHA costs nothing.",
			ref:    Ref{Ref: strings.ToUpper(fx.c0)},
			want:   Resolved{Commit: fx.c0},
		},
		"Pinned": {
			reason: "A pinned commit costs nothing.",
			ref:    Ref{Ref: "main", Commit: fx.c1},
			want:   Resolved{Commit: fx.c1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fx.srv.Reset()
			tc.ref.URL = fx.repo.URL()
			tc.want.URL = fx.repo.URL()
			f, w := newFetcher(t, Options{})
			got, err := f.Resolve(context.Background(), tc.ref)
			if err != nil {
				t.Fatalf("%s\nResolve(%+v): %v", tc.reason, tc.ref, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nResolve(%+v)", tc.reason, tc.ref)
			if n := fx.srv.Requests(); n != tc.requests {
				t.Errorf("%s\nResolve(%+v): %d requests, want %d", tc.reason, tc.ref, n, tc.requests)
			}
			if w.all() != "" {
				t.Errorf("%s\nResolve(%+v): warned %q", tc.reason, tc.ref, w.all())
			}
		})
	}
}

func TestMovedBranch(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cache := t.TempDir()
	f, _ := newFetcher(t, Options{CacheDir: cache})
	ctx := context.Background()
	ref := Ref{URL: fx.repo.URL(), Ref: "main", Path: "mysql"}

	fsys, res, err := f.Open(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	assert.Assert(t, is.Equal(res.Commit, fx.c2), "first Open: commit")
	assert.Assert(t, is.DeepEqual(files2, readFiles(t, fsys)), "first Open: files")

	c3 := fx.repo.Commit("v3", map[string]string{"mysql/framework.yaml": "version: 3\n"})
	fx.srv.Reset()
	fsys, res, err = f.Open(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	want3 := map[string]string{"framework.yaml": "version: 3\n", "templates/deploy.yaml": deploy}
	assert.Check(t, is.Equal(res.Commit, c3), "Open after the branch moved: commit")
	assert.Check(t, is.DeepEqual(want3, readFiles(t, fsys)), "Open after the branch moved: files")
	if n := fx.srv.Fetches(); n != 1 {
		t.Errorf("Open after the branch moved: %d fetches, want 1", n)
	}

	// The old commit is still cached: pinning it costs no request.
	fx.srv.Reset()
	fsys, _, err = f.Open(ctx, Ref{URL: fx.repo.URL(), Ref: "main", Commit: fx.c2, Path: "mysql"})
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.DeepEqual(files2, readFiles(t, fsys)), "Open of the old commit")
	if n := fx.srv.Requests(); n != 0 {
		t.Errorf("Open of the cached old commit: %d requests, want 0", n)
	}

	// Force-pushing the branch back is seen too.
	fx.repo.Branch("main", fx.c1)
	if _, res, err = f.Open(ctx, ref); err != nil || res.Commit != fx.c1 {
		t.Errorf("Open after a force push: commit %s, %v; want %s", res.Commit, err, fx.c1)
	}
}

func TestCacheHits(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cache := t.TempDir()
	ctx := context.Background()
	warm, _ := newFetcher(t, Options{CacheDir: cache})
	for _, r := range []Ref{{Ref: "main"}, {Ref: "v1"}, {Ref: fx.c0}} {
		r.URL = fx.repo.URL()
		if _, _, err := warm.Open(ctx, r); err != nil {
			t.Fatal(err)
		}
	}

	cases := map[string]struct {
		reason   string
		ref      Ref
		requests int
		want     map[string]string
	}{
		"SHA": {
			reason: "A cached SHA is read from disk: no request reaches the server.",
			ref:    Ref{Ref: fx.c0, Path: "mysql"},
			want:   files0,
		},
		"PinnedCommit": {
			reason: "A cached pinned commit costs nothing, whatever its ref.",
			ref:    Ref{Ref: "main", Commit: fx.c1, Path: "mysql"},
			want:   files1,
		},
		"Branch": {
			reason:   "A cached branch costs one ls-remote.",
			ref:      Ref{Ref: "main", Path: "mysql"},
			requests: 1,
			want:     files2,
		},
		"Tag": {
			reason:   "A cached tag costs one ls-remote.",
			ref:      Ref{Ref: "v1", Path: "mysql"},
			requests: 1,
			want:     files1,
		},
		"OtherPathSameCommit": {
			reason: "Every path of a cached commit is cached.",
			ref:    Ref{Ref: fx.c0},
			want:   map[string]string{"README.md": readme, "mysql/framework.yaml": fw0},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.ref.URL = fx.repo.URL()
			// A new Fetcher, as a new render process would make.
			f, _ := newFetcher(t, Options{CacheDir: cache})
			fx.srv.Reset()
			fsys, _, err := f.Open(ctx, tc.ref)
			if err != nil {
				t.Fatalf("%s\nOpen(%+v): %v", tc.reason, tc.ref, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, readFiles(t, fsys)), "%s\nOpen(%+v)", tc.reason, tc.ref)
			if n := fx.srv.Requests(); n != tc.requests {
				t.Errorf("%s\nOpen(%+v): %d requests (%v), want %d", tc.reason, tc.ref, n, fx.srv.Log(), tc.requests)
			}
		})
	}
}

func TestOffline(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cache := t.TempDir()
	ctx := context.Background()
	online, _ := newFetcher(t, Options{CacheDir: cache})
	if _, _, err := online.Open(ctx, Ref{URL: fx.repo.URL(), Ref: "main"}); err != nil {
		t.Fatal(err)
	}
	// The branch moves after the last online render.
	fx.repo.Commit("v3", map[string]string{"mysql/framework.yaml": "version: 3\n"})

	cases := map[string]struct {
		reason string
		ref    Ref
		want   map[string]string
		commit string
		warn   string
		kind   error
		msg    []string
	}{
		"CachedSHA": {
			reason: "A cached commit opens offline.",
			ref:    Ref{Ref: fx.c2, Path: "mysql"},
			want:   files2,
			commit: fx.c2,
		},
		"RememberedBranch": {
			reason: "A branch resolves to its last online resolution, with a warning that it may be stale.",
			ref:    Ref{Ref: "main", Path: "mysql"},
			want:   files2,
			commit: fx.c2,
			warn:   "offline: using commit " + fx.c2[:12] + " for ref \"main\" of " + fx.repo.URL() + ", as resolved online at ",
		},
		"MissingSHA": {
			reason: "A commit that is not cached is an error naming the source.",
			ref:    Ref{Ref: fx.c0, Path: "mysql"},
			kind:   ErrNotCached,
			msg:    []string{fx.repo.URL() + "@" + fx.c0 + ": offline, and commit " + fx.c0[:12] + " is not in the cache"},
		},
		"NeverResolvedTag": {
			reason: "A ref never resolved online cannot be resolved offline.",
			ref:    Ref{Ref: "v1"},
			kind:   ErrNotCached,
			msg:    []string{fx.repo.URL() + "@v1: offline, and ref \"v1\" was never resolved online with this cache"},
		},
		"OtherCache": {
			reason: "An empty cache has nothing.",
			ref:    Ref{Ref: "main", Path: "mysql"},
			kind:   ErrNotCached,
			msg:    []string{"offline"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.ref.URL = fx.repo.URL()
			dir := cache
			if name == "OtherCache" {
				dir = t.TempDir()
			}
			f, w := newFetcher(t, Options{CacheDir: dir, Offline: true})
			fx.srv.Reset()
			fsys, res, err := f.Open(ctx, tc.ref)
			if msg := errCheck(err, tc.kind, tc.msg...); msg != "" {
				t.Fatalf("%s\nOpen(%+v): %s", tc.reason, tc.ref, msg)
			}
			if err == nil {
				assert.Check(t, is.Equal(res.Commit, tc.commit), "%s\nOpen(%+v): commit", tc.reason, tc.ref)
				assert.Check(t, is.DeepEqual(tc.want, readFiles(t, fsys)), "%s\nOpen(%+v): files", tc.reason, tc.ref)
			}
			if !strings.Contains(w.all(), tc.warn) {
				t.Errorf("%s\nOpen(%+v): warnings %q, want %q", tc.reason, tc.ref, w.all(), tc.warn)
			}
			if n := fx.srv.Requests(); n != 0 {
				t.Errorf("%s\nOpen(%+v) offline: %d requests, want 0", tc.reason, tc.ref, n)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	const user, pass = "alice", "s3cret-Passw0rd"
	fx := newFixture(t, gittest.Options{})
	fx.srv.RequireAuth(user, pass)
	withCreds := strings.Replace(fx.repo.URL(), "http://", "http://"+user+":"+pass+"@", 1)
	wrongInURL := strings.Replace(fx.repo.URL(), "http://", "http://"+user+":"+pass+"-wrong@", 1)

	cases := map[string]struct {
		reason string
		url    string
		auth   *Auth
		kind   error
		msg    []string
	}{
		"NoCredentials": {
			reason: "Without credentials the error says how to give them.",
			auth:   &Auth{},
			kind:   ErrAuth,
			msg:    []string{"authentication required: set KUDO_RENDER_GIT_TOKEN"},
		},
		"BasicAuth": {
			reason: "Username and password are sent as basic auth.",
			auth:   &Auth{Username: user, Password: pass, Hosts: []string{"127.0.0.1"}},
		},
		"Token": {
			reason: "A token is sent as the basic auth password, with the configured user.",
			auth:   &Auth{Username: user, Token: pass, Hosts: []string{"127.0.0.1"}},
		},
		"HostsMatch": {
			reason: "Credentials restricted to the server's host are sent to it.",
			auth:   &Auth{Username: user, Password: pass, Hosts: []string{"127.0.0.1"}},
		},
		"HostsMismatch": {
			reason: "Credentials restricted to another host are not sent.",
			auth:   &Auth{Username: user, Password: pass, Hosts: []string{"git.example.com"}},
			kind:   ErrAuth,
			msg:    []string{"authentication required, and the configured credentials are only for KUDO_RENDER_GIT_HOSTS (git.example.com), not 127.0.0.1:"},
		},
		"WrongPassword": {
			reason: "A rejected password is reported, and never printed.",
			auth:   &Auth{Username: user, Password: pass + "-wrong", Hosts: []string{"127.0.0.1"}},
			kind:   ErrAuth,
			msg:    []string{"authentication failed: the server rejected the credentials"},
		},
		"CredentialsInURL": {
			reason: "Credentials in the URL are used, and scrubbed from Resolved.",
			url:    withCreds,
			auth:   &Auth{},
		},
		"WrongCredentialsInURL": {
			reason: "Wrong credentials in the URL never appear in the error.",
			url:    wrongInURL,
			auth:   &Auth{},
			kind:   ErrAuth,
			msg:    []string{fx.repo.URL() + "@main: authentication failed"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			url := tc.url
			if url == "" {
				url = fx.repo.URL()
			}
			f, _ := newFetcher(t, Options{Auth: tc.auth})
			fsys, res, err := f.Open(context.Background(), Ref{URL: url, Ref: "main", Path: "mysql"})
			if msg := errCheck(err, tc.kind, tc.msg...); msg != "" {
				t.Fatalf("%s\nOpen: %s", tc.reason, msg)
			}
			if err != nil {
				if strings.Contains(err.Error(), pass) || strings.Contains(err.Error(), user+":") {
					t.Errorf("%s\nOpen: the error shows credentials: %v", tc.reason, err)
				}
				return
			}
			assert.Check(t, is.DeepEqual(files2, readFiles(t, fsys)), "%s\nOpen", tc.reason)
			if res.URL != fx.repo.URL() {
				t.Errorf("%s\nOpen: Resolved.URL = %q, want the scrubbed %q", tc.reason, res.URL, fx.repo.URL())
			}
		})
	}
}

func TestUnreachableHost(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there any more
	f, _ := newFetcher(t, Options{})
	url := "http://bob:hunter2-secret@" + addr + "/org/repo"
	for _, r := range []Ref{{URL: url, Ref: "main"}, {URL: url, Ref: strings.Repeat("a", 40)}} {
		_, _, err = f.Open(context.Background(), r)
		want := []string{"git source http://" + addr + "/org/repo@" + r.Ref + ": cannot connect to " + addr + ": connection refused", offlineHint}
		if msg := errCheck(err, nil, want...); msg != "" {
			t.Errorf("Open of a closed port: %s", msg)
		}
		if err != nil && (strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "bob")) {
			t.Errorf("Open of a closed port: the error shows credentials: %v", err)
		}
	}
}

func TestInvalidRef(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	good := fx.repo.URL()
	cases := map[string]struct {
		reason string
		ref    Ref
		opts   Options
		msg    string
	}{
		"ExtTransport": {
			reason: "Remote helpers run commands: rejected.",
			ref:    Ref{URL: "ext::sh -c touch% /tmp/pwned"},
			msg:    "not allowed",
		},
		"OptionURL": {
			reason: "A URL that looks like an option is rejected.",
			ref:    Ref{URL: "-oProxyCommand=touch /tmp/pwned"},
			msg:    "looks like a command-line option",
		},
		"OptionHost": {
			reason: "An ssh host that looks like an option is rejected.",
			ref:    Ref{URL: "ssh://-oProxyCommand=touch/repo"},
			msg:    "looks like a command-line option",
		},
		"FileWithoutAllowLocal": {
			reason: "file:// needs AllowLocal.",
			ref:    Ref{URL: "file:///srv/git/repo"},
			msg:    "file:// is not allowed here: a repository on this machine is read only with --allow-local",
		},
		"HTTPWithoutAllowInsecure": {
			reason: "http:// needs AllowInsecureHTTP.",
			ref:    Ref{URL: good},
			opts:   Options{AllowInsecureHTTP: false},
			msg:    "http:// is not allowed",
		},
		"PathEscapes": {
			reason: "A path with .. is rejected.",
			ref:    Ref{URL: good, Path: "../etc"},
			msg:    `path "../etc" must be a clean relative path`,
		},
		"PathAbsolute": {
			reason: "An absolute path is rejected.",
			ref:    Ref{URL: good, Path: "/etc"},
			msg:    "must be relative",
		},
		"PathUnclean": {
			reason: "An unclean path is rejected.",
			ref:    Ref{URL: good, Path: "mysql/../mysql"},
			msg:    "must be a clean relative path",
		},
		"PathGitDir": {
			reason: "git metadata is not a package.",
			ref:    Ref{URL: good, Path: ".git"},
			msg:    "names git metadata",
		},
		"OptionRef": {
			reason: "A ref that looks like an option is rejected.",
			ref:    Ref{URL: good, Ref: "--upload-pack=touch /tmp/pwned"},
			msg:    "looks like a command-line option",
		},
		"BadRef": {
			reason: "A ref git would refuse is rejected.",
			ref:    Ref{URL: good, Ref: "main..dev"},
			msg:    `ref "main..dev"`,
		},
		"ShortCommit": {
			reason: "A pinned commit must be a full SHA.",
			ref:    Ref{URL: good, Ref: "main", Commit: "abc123"},
			msg:    `commit "abc123" is not a full 40-hex SHA`,
		},
		"SecretInBadURL": {
			reason: "A rejected URL's credentials are not printed.",
			ref:    Ref{URL: "ftp://user:pa55word@host/repo"},
			msg:    `git source ftp://host/repo: unsupported scheme "ftp"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fx.srv.Reset()
			opts := tc.opts
			opts.CacheDir, opts.Auth = t.TempDir(), &Auth{}
			if name != "HTTPWithoutAllowInsecure" {
				opts.AllowInsecureHTTP = true
			}
			f, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = f.Open(context.Background(), tc.ref)
			if msg := errCheck(err, ErrInvalid, tc.msg); msg != "" {
				t.Errorf("%s\nOpen(%+v): %s", tc.reason, tc.ref, msg)
			}
			if err != nil && strings.Contains(err.Error(), "pa55word") {
				t.Errorf("%s\nOpen(%+v): the error shows the password: %v", tc.reason, tc.ref, err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s\nOpen(%+v): error %T is not an *Error", tc.reason, tc.ref, err)
			}
			if n := fx.srv.Requests(); n != 0 {
				t.Errorf("%s\nOpen(%+v): %d requests, want 0", tc.reason, tc.ref, n)
			}
		})
	}
}

func TestFSCannotEscape(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	f, _ := newFetcher(t, Options{})
	fsys, _, err := f.Open(context.Background(), Ref{URL: fx.repo.URL(), Ref: "v1", Path: "mysql/templates"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../framework.yaml", "../../README.md", "/etc/passwd", "./deploy.yaml"} {
		if _, err := fs.ReadFile(fsys, name); err == nil {
			t.Errorf("ReadFile(%q) succeeded; the fs.FS must stay inside the package path", name)
		}
	}
	if data, err := fs.ReadFile(fsys, "deploy.yaml"); err != nil || string(data) != deploy {
		t.Errorf("ReadFile(deploy.yaml) = %q, %v", data, err)
	}
}

func TestContains(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cases := map[string]struct {
		reason   string
		ref      Ref
		commit   string
		maxDepth int
		want     bool
		requests int
	}{
		"Tip": {
			reason:   "The tip is contained: one ls-remote, no fetch.",
			ref:      Ref{Ref: "main"},
			commit:   fx.c2,
			want:     true,
			requests: 1,
		},
		"Ancestor": {
			reason:   "An ancestor is contained.",
			ref:      Ref{Ref: "main"},
			commit:   fx.c0,
			want:     true,
			requests: 3,
		},
		"DefaultBranch": {
			reason:   "An empty ref is the default branch.",
			ref:      Ref{},
			commit:   fx.c1,
			want:     true,
			requests: 3,
		},
		"AnnotatedTag": {
			reason:   "A tag's history is searched from the commit it points at.",
			ref:      Ref{Ref: "v1.0.0"},
			commit:   fx.c0,
			want:     true,
			requests: 3,
		},
		"OtherBranch": {
			reason:   "A commit only on another branch is not contained.",
			ref:      Ref{Ref: "main"},
			commit:   fx.dv,
			want:     false,
			requests: 3,
		},
		"BeyondMaxDepth": {
			reason:   "A commit deeper than MaxDepth (and not the parent of one within it) counts as not contained.",
			ref:      Ref{Ref: "main"},
			commit:   fx.c0,
			maxDepth: 1,
			want:     false,
			requests: 3,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tc.ref.URL = fx.repo.URL()
			f, _ := newFetcher(t, Options{MaxDepth: tc.maxDepth})
			fx.srv.Reset()
			got, err := f.Contains(context.Background(), tc.ref, tc.commit)
			if err != nil {
				t.Fatalf("%s\nContains(%+v, %s): %v", tc.reason, tc.ref, tc.commit, err)
			}
			if got != tc.want {
				t.Errorf("%s\nContains(%+v, %s) = %v, want %v", tc.reason, tc.ref, tc.commit, got, tc.want)
			}
			if n := fx.srv.Requests(); n != tc.requests {
				t.Errorf("%s\nContains(%+v, %s): %d requests (%v), want %d", tc.reason, tc.ref, tc.commit, n, fx.srv.Log(), tc.requests)
			}
		})
	}

	f, _ := newFetcher(t, Options{})
	if _, err := f.Contains(context.Background(), Ref{URL: fx.repo.URL(), Ref: "nope"}, fx.c0); errCheck(err, ErrNotFound, "nope") != "" {
		t.Errorf("Contains of an unknown ref: %v, want ErrNotFound", err)
	}
	if _, err := f.Contains(context.Background(), Ref{URL: fx.repo.URL()}, "abc"); errCheck(err, ErrInvalid) != "" {
		t.Errorf("Contains of a short SHA: %v, want ErrInvalid", err)
	}
	local, _ := newFetcher(t, Options{AllowLocal: true, Offline: true})
	for _, c := range []struct {
		ref    string
		commit string
		want   bool
	}{{"main", fx.c0, true}, {"v1.0.0", fx.c0, true}, {"main", fx.dv, false}, {"dev", fx.dv, true}} {
		got, err := local.Contains(context.Background(), Ref{URL: fx.repo.Dir, Ref: c.ref}, c.commit)
		if err != nil || got != c.want {
			t.Errorf("Contains(local %s, %s) = %v, %v; want %v", c.ref, c.commit[:12], got, err, c.want)
		}
	}
	off, _ := newFetcher(t, Options{Offline: true})
	if _, err := off.Contains(context.Background(), Ref{URL: fx.repo.URL()}, fx.c0); errCheck(err, ErrNotCached, "offline") != "" {
		t.Errorf("Contains offline: %v, want ErrNotCached", err)
	}
}

func TestLocalRepository(t *testing.T) {
	fx := newFixture(t, gittest.Options{})
	cases := map[string]struct {
		reason string
		ref    Ref
		allow  bool
		want   map[string]string
		kind   error
	}{
		"FileURL": {
			reason: "file:// URLs are read with go-git when allowed.",
			ref:    Ref{URL: "file://" + fx.repo.Dir, Ref: "v1.0.0", Path: "mysql"},
			allow:  true,
			want:   files1,
		},
		"AbsolutePath": {
			reason: "Absolute paths too.",
			ref:    Ref{URL: fx.repo.Dir, Ref: "main", Path: "mysql"},
			allow:  true,
			want:   files2,
		},
		"SHA": {
			reason: "Any commit of a local repository can be read.",
			ref:    Ref{URL: fx.repo.Dir, Ref: fx.c0, Path: "mysql"},
			allow:  true,
			want:   files0,
		},
		"Offline": {
			reason: "Offline does not apply to local repositories: no network is involved.",
			ref:    Ref{URL: fx.repo.Dir, Ref: "v1", Path: "mysql"},
			allow:  true,
			want:   files1,
		},
		"NotAllowed": {
			reason: "Local repositories need AllowLocal.",
			ref:    Ref{URL: fx.repo.Dir, Ref: "main"},
			kind:   ErrInvalid,
		},
		"NotARepository": {
			reason: "A folder that is no repository is reported.",
			ref:    Ref{URL: t.TempDir(), Ref: "main"},
			allow:  true,
			kind:   ErrNotFound,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, _ := newFetcher(t, Options{AllowLocal: tc.allow, Offline: name == "Offline"})
			fsys, _, err := f.Open(context.Background(), tc.ref)
			if msg := errCheck(err, tc.kind); tc.kind == nil && msg != "" || tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Fatalf("%s\nOpen(%+v): %v, want kind %v", tc.reason, tc.ref, err, tc.kind)
			}
			if err == nil {
				assert.Check(t, is.DeepEqual(tc.want, readFiles(t, fsys)), "%s\nOpen(%+v)", tc.reason, tc.ref)
			}
		})
	}
}

// TestFetchProgress: a git server that keeps the client waiting gets a
// progress line (on a terminal, the CLI prints it) once ProgressAfter
// passed, naming the source without its credentials.
func TestFetchProgress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // accepts, then says nothing
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	old := ProgressAfter
	ProgressAfter = 50 * time.Millisecond
	defer func() { ProgressAfter = old }()
	var mu sync.Mutex
	var lines []string
	f, _ := newFetcher(t, Options{Timeout: 400 * time.Millisecond, Progress: func(s string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, s)
	}})
	_, _, err = f.Open(context.Background(), Ref{URL: "http://bob:hunter2@" + l.Addr().String() + "/org/repo", Ref: "main"})
	if err == nil {
		t.Fatal("Open of a server that never answers succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	want := "fetching http://" + l.Addr().String() + "/org/repo (listing refs)..."
	if len(lines) != 1 || lines[0] != want {
		t.Errorf("progress lines %q, want [%q]", lines, want)
	}
}
