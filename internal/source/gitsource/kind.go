package gitsource

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// KindOptions tune [NewKind].
type KindOptions struct {
	// VerifyPins checks that a pinned commit is still contained in its
	// ref before using it.
	VerifyPins bool
	// LocalBase, when set, is the folder that relative repository URLs
	// (local repositories, with AllowLocal) are relative to.
	LocalBase string
}

// NewKind makes git sources a [location.Kind], on a Fetcher made on first
// use (so renders without git need no cache folder).
func NewKind(fetcher func() (Fetcher, error), opts KindOptions) location.Kind {
	return &kind{fetcher: fetcher, opts: opts}
}

type kind struct {
	fetcher func() (Fetcher, error)
	opts    KindOptions
}

func (k *kind) ref(s bundle.Source) Ref {
	r := Ref{URL: s.SourceURL(), Ref: s.SourceRef(), Commit: s.SourcePin(), Path: s.SourcePath()}
	if k.opts.LocalBase != "" {
		r.URL = localURL(k.opts.LocalBase, r.URL)
	}
	return r
}

// Open fetches (or reads from the cache) the folder. Its ID is
// url@commit:path ([ID]).
func (k *kind) Open(ctx context.Context, s bundle.Source) (*location.Opened, error) {
	f, err := k.fetcher()
	if err != nil {
		return nil, err
	}
	ref := k.ref(s)
	if k.opts.VerifyPins && ref.Commit != "" && ref.Ref != "" {
		if err := verifyPin(ctx, f, ref); err != nil {
			return nil, err
		}
	}
	fsys, res, err := f.Open(ctx, ref)
	if err != nil {
		return nil, err
	}
	return location.NewOpened(fsys, ID(res), res.Commit, true, nil), nil
}

// Resolve turns the source's ref into a commit.
func (k *kind) Resolve(ctx context.Context, s bundle.Source) (string, error) {
	f, err := k.fetcher()
	if err != nil {
		return "", err
	}
	ref := k.ref(s)
	ref.Commit = ""
	res, err := f.Resolve(ctx, ref)
	return res.Commit, err
}

// Contains tells whether the source's ref still contains pin.
func (k *kind) Contains(ctx context.Context, s bundle.Source, pin string) (bool, error) {
	f, err := k.fetcher()
	if err != nil {
		return false, err
	}
	ref := k.ref(s)
	return f.Contains(ctx, Ref{URL: ref.URL, Ref: ref.Ref}, pin)
}

// Describe is url[@ref][:path], credentials scrubbed.
func (k *kind) Describe(s bundle.Source) string {
	d := Scrub(s.SourceURL())
	if s.SourceRef() != "" {
		d += "@" + s.SourceRef()
	}
	if s.SourcePath() != "" {
		d += ":" + s.SourcePath()
	}
	return d
}

// ID is the identity of a fetched git folder: url@commit:path.
func ID(res Resolved) string {
	return res.URL + "@" + res.Commit + ":" + res.Path
}

func verifyPin(ctx context.Context, f Fetcher, ref Ref) error {
	ok, err := f.Contains(ctx, Ref{URL: ref.URL, Ref: ref.Ref}, ref.Commit)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: %s no longer contains the pinned commit %s", Scrub(ref.URL), ref.Ref, ref.Commit)
	}
	return nil
}

// localURL makes a relative repository URL (a local repository next to
// the config) absolute when it exists below base.
func localURL(base, url string) string {
	if strings.Contains(url, "://") || filepath.IsAbs(url) {
		return url
	}
	p := filepath.Join(base, url)
	if _, err := os.Stat(p); err != nil {
		return url
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return url
}
