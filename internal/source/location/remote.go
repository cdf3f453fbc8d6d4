package location

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
)

// Kind opens the sources of one kind (git, OCI); the source's own package
// implements it. It is safe for concurrent use.
type Kind interface {
	// Open makes the folder s names readable, at s.SourcePin() when set,
	// else at what s.SourceRef() resolves to. The Opened ID identifies the
	// exact content (url@pin:path, credentials scrubbed) and Pin is the
	// resolved pin.
	Open(ctx context.Context, s bundle.Source) (*Opened, error)
	// Resolve turns s's ref into the pin `kudo-render lock` writes.
	Resolve(ctx context.Context, s bundle.Source) (string, error)
	// Contains tells whether pin is still reachable from s's ref
	// (`kudo-render lock --verify`).
	Contains(ctx context.Context, s bundle.Source, pin string) (bool, error)
	// Describe is s for messages: url[@ref][:path], credentials scrubbed.
	Describe(s bundle.Source) string
}

// Kinds are the kinds of source a run can open, by bundle.Source's
// SourceKind.
type Kinds map[string]Kind

// Remote is a folder of a remote source, opened through its Kind.
type Remote struct {
	Source bundle.Source
	src    *Sources
}

func (r Remote) kind() (Kind, error) {
	if r.src != nil {
		if k := r.src.Kinds[r.Source.SourceKind()]; k != nil {
			return k, nil
		}
	}
	return nil, fmt.Errorf("%s sources are not available here", r.Source.SourceKind())
}

// Open opens the folder through its kind, pinned by Sources.Pin.
func (r Remote) Open(ctx context.Context) (*Opened, error) {
	k, err := r.kind()
	if err != nil {
		return nil, err
	}
	s := r.Source
	if r.src.Pin != nil {
		if pin := r.src.Pin(s); pin != "" {
			s = s.WithPin(pin)
		}
	}
	return k.Open(ctx, s)
}

// Join returns a folder of the same source at the same version; it may not
// leave the source.
func (r Remote) Join(rel string) (Location, error) {
	p := path.Join(r.Source.SourcePath(), rel)
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(rel) {
		return nil, fmt.Errorf("path %q leaves the repository %s", rel, r.describe(false))
	}
	if p == "." {
		p = ""
	}
	return Remote{Source: r.Source.WithPath(p), src: r.src}, nil
}

// Name is the base name of the folder, or of the repository at its root.
func (r Remote) Name() string {
	if p := r.Source.SourcePath(); p != "" {
		return path.Base(p)
	}
	return path.Base(strings.TrimSuffix(r.Source.SourceURL(), ".git"))
}

func (r Remote) String() string { return r.describe(true) }

// describe is the source through its kind (which scrubs credentials), or
// only its kind when no kind can describe it.
func (r Remote) describe(full bool) string {
	k, err := r.kind()
	if err != nil {
		return "a " + r.Source.SourceKind() + " source"
	}
	if full {
		return k.Describe(r.Source)
	}
	return k.Describe(r.Source.WithPath("").WithPin(""))
}
