package gitsource

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/cachedir"
)

// Ref names a folder of a git repository at a branch, tag or commit.
type Ref struct {
	// URL of the repository: https://host/org/repo, ssh://[user@]host/org/repo
	// or git@host:org/repo (see [ValidateURL]).
	URL string
	// Ref is a branch, a tag or a full 40-hex commit SHA; empty means the
	// remote's default branch (its HEAD). A name is tried as a branch first,
	// then as a tag (as `git clone --branch` does); refs/heads/x and
	// refs/tags/x name one kind only.
	Ref string
	// Commit is a pinned full commit SHA (what `kudo-render lock` writes).
	// When set it wins over Ref: nothing is resolved, and Ref only tells
	// where to look for the commit if the server refuses to serve it by SHA.
	Commit string
	// Path is the package folder inside the repository, a clean relative
	// slash-separated path ("" or "." for the root).
	Path string
}

// Resolved is the exact source a [Ref] stands for.
type Resolved struct {
	// URL is the repository URL without credentials (see [Scrub]).
	URL string
	// Ref is the full name the ref resolved to (refs/heads/main,
	// refs/tags/v1.0); empty when a commit SHA was given.
	Ref string
	// Commit is the full commit SHA.
	Commit string
	// Path is the cleaned package folder ("" for the repository root).
	Path string
}

// Fetcher reads git sources through a local cache. It is safe for concurrent
// use, and several processes may share one cache directory.
type Fetcher interface {
	// Resolve turns r into a commit. A pinned Commit or a full SHA costs
	// nothing; a branch or tag costs one ls-remote (online) or reads the
	// last resolution remembered in the cache (offline, with a warning that
	// it may be stale).
	Resolve(ctx context.Context, r Ref) (Resolved, error)
	// Open returns the files of r.Path at the resolved commit, rooted at
	// r.Path: names are relative to it and cannot leave it. A commit in the
	// cache is read from disk without any network access; a missing one is
	// fetched once (shallow, into memory) and written to the cache. Opening a
	// branch that is not pinned by Commit calls Options.Warn.
	Open(ctx context.Context, r Ref) (fs.FS, Resolved, error)
	// Contains tells whether the branch or tag r.Ref (the default branch
	// when empty) still contains commit: its tip is commit, or commit is one
	// of the last Options.MaxDepth commits of its history. r.Commit is
	// ignored. It is meant for `kudo-render lock --verify` and always uses
	// the network.
	Contains(ctx context.Context, r Ref, commit string) (bool, error)
}

// Options configure [New]. The zero value is a valid configuration: cache in
// the default place, online, https and ssh only, credentials from the
// environment.
type Options struct {
	// CacheDir is the cache directory. Empty: $KUDO_RENDER_CACHE, else
	// $XDG_CACHE_HOME/kudo-render/git (~/.cache/kudo-render/git on Linux;
	// see [os.UserCacheDir]).
	CacheDir string
	// Offline uses the cache only. A source that is not cached is an error
	// naming the URL and ref; a branch or tag resolves to the commit it had
	// when it was last resolved online, with a warning.
	Offline bool
	// AllowInsecureHTTP accepts http:// URLs (tests, local work).
	AllowInsecureHTTP bool
	// AllowLocal accepts file:// URLs and absolute paths of local
	// repositories (read directly with go-git, no git binary needed).
	AllowLocal bool
	// Auth holds the credentials. nil reads them from the environment with
	// [AuthFromEnv]; use &Auth{} for none.
	Auth *Auth
	// Warn receives warnings (an unpinned branch, a possibly stale offline
	// resolution, a submodule that is not fetched). nil discards them.
	Warn func(string)
	// Progress receives "fetching <url> (<what>)" once a fetch has taken
	// ProgressAfter (a second), so that a person at a terminal knows what
	// the wait is; nil: nothing (pipes, CI logs, the KRM function).
	Progress func(string)
	// MaxDepth bounds the history fetched when a commit must be searched
	// for: by Contains, and by Open for a commit that is neither a branch or
	// tag tip nor fetchable by SHA. Default 1000.
	MaxDepth int
	// Timeout bounds all the network operations of the Fetcher together
	// (every ls-remote and fetch, and the wait for another process's
	// fetch of the same commit): one bound, counted from the first of
	// them, not a fresh one each. Default limits.Current().GitTimeout
	// (--git-timeout).
	Timeout time.Duration
	// Deadline is the run's deadline less a margin (its watchdog,
	// --timeout, fires a little after it): no network operation runs past
	// it, however much of Timeout is left, so that a stalled server ends
	// the run with an error naming the repository, the operation and the
	// limit rather than with the watchdog's. Zero: none.
	Deadline time.Time
}

// Environment variables read by [DefaultCacheDir].
const EnvCache = cachedir.Env

const (
	defaultMaxDepth = 1000
)

// DefaultCacheDir returns the cache directory used when Options.CacheDir is
// empty: $KUDO_RENDER_CACHE, else <user cache dir>/kudo-render/git.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	return cachedir.UserDir("git")
}

// New returns the go-git implementation of [Fetcher]. It fails when the cache
// directory cannot be determined or the credentials in the environment are
// unusable (a *_FILE that cannot be read, an ssh key that cannot be parsed).
func New(opts Options) (Fetcher, error) {
	dir := opts.CacheDir
	if dir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	auth := opts.Auth
	if auth == nil {
		if auth, err = AuthFromEnv(os.Getenv); err != nil {
			return nil, err
		}
	}
	if err := auth.check(); err != nil {
		return nil, err
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = defaultMaxDepth
	}
	if opts.Timeout <= 0 {
		opts.Timeout = limits.Current().GitTimeout
	}
	installTransport()
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	return &gitFetcher{opts: opts, auth: auth, cache: &cache{dir: dir}}, nil
}

// Sentinel errors, for errors.Is on the errors of a [Fetcher].
var (
	// ErrInvalid: the Ref is malformed (URL, ref, commit or path).
	ErrInvalid = errors.New("invalid git source")
	// ErrNotCached: offline, and the source is not in the cache.
	ErrNotCached = errors.New("not in the cache")
	// ErrNotFound: the repository, ref, commit or path does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAuth: authentication is required or was rejected.
	ErrAuth = errors.New("authentication failed")
	// ErrUnsafe: the tree holds a symbolic link or path that leaves the
	// package folder, or an invalid file name.
	ErrUnsafe = errors.New("unsafe tree")
)
