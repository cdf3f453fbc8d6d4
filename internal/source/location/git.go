package location

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/gitsource"
)

// GitOpener opens a folder of a git repository. The Opened ID must be
// url@commit:path with credentials scrubbed ([GitID]).
type GitOpener func(ctx context.Context, g bundle.GitSource) (*Opened, error)

// Git is a folder of a git repository at a ref.
type Git struct {
	Source bundle.GitSource
	opener GitOpener
}

// Open fetches (or reads from the cache) the folder.
func (g Git) Open(ctx context.Context) (*Opened, error) {
	if g.opener == nil {
		return nil, errors.New("git sources are not available here")
	}
	return g.opener(ctx, g.Source)
}

// Join returns a folder of the same repository at the same ref; it may not
// leave the repository.
func (g Git) Join(rel string) (Location, error) {
	p := path.Join(g.Source.Path, rel)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(rel) {
		return nil, fmt.Errorf("path %q leaves the repository %s", rel, gitsource.Scrub(g.Source.URL))
	}
	s := g.Source
	if p == "." {
		p = ""
	}
	s.Path = p
	return Git{Source: s, opener: g.opener}, nil
}

// Name is the base name of the folder, or of the repository at its root.
func (g Git) Name() string {
	if g.Source.Path != "" {
		return path.Base(g.Source.Path)
	}
	return path.Base(strings.TrimSuffix(g.Source.URL, ".git"))
}

func (g Git) String() string {
	s := gitsource.Scrub(g.Source.URL)
	if g.Source.Ref != "" {
		s += "@" + g.Source.Ref
	}
	if g.Source.Path != "" {
		s += ":" + g.Source.Path
	}
	return s
}

// GitID is the identity of a fetched git folder: url@commit:path.
func GitID(res gitsource.Resolved) string {
	return res.URL + "@" + res.Commit + ":" + res.Path
}

// GitOptions tune [FetcherOpener].
type GitOptions struct {
	// Pin returns the pinned commit of a source (its own commit: or a
	// lock pin); nil pins nothing beyond the source's own commit.
	Pin func(bundle.GitSource) string
	// VerifyPins checks that a pinned commit is still contained in its
	// ref before using it.
	VerifyPins bool
	// LocalBase, when set, is the folder that relative repository URLs
	// (local repositories, with AllowLocal) are relative to.
	LocalBase string
}

// FetcherOpener opens git sources with a Fetcher made on first use (so
// renders without git need no cache folder).
func FetcherOpener(fetcher func() (gitsource.Fetcher, error), opts GitOptions) GitOpener {
	return func(ctx context.Context, gs bundle.GitSource) (*Opened, error) {
		f, err := fetcher()
		if err != nil {
			return nil, err
		}
		ref := gitsource.Ref{URL: gs.URL, Ref: gs.Ref, Commit: gs.Commit, Path: gs.Path}
		if opts.Pin != nil {
			ref.Commit = opts.Pin(gs)
		}
		if opts.VerifyPins && ref.Commit != "" && ref.Ref != "" {
			if err := verifyPin(ctx, f, ref); err != nil {
				return nil, err
			}
		}
		if opts.LocalBase != "" {
			ref.URL = localURL(opts.LocalBase, ref.URL)
		}
		fsys, res, err := f.Open(ctx, ref)
		if err != nil {
			return nil, err
		}
		return NewOpened(fsys, GitID(res), res.Commit, true, nil), nil
	}
}

func verifyPin(ctx context.Context, f gitsource.Fetcher, ref gitsource.Ref) error {
	ok, err := f.Contains(ctx, gitsource.Ref{URL: ref.URL, Ref: ref.Ref}, ref.Commit)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s: %s no longer contains the pinned commit %s", gitsource.Scrub(ref.URL), ref.Ref, ref.Commit)
	}
	return nil
}
