package oci

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/opencontainers/go-digest"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// Options configure [New]. The zero value reads nothing but loopback
// registries without credentials, into the default cache.
type Options struct {
	// CacheDir is the cache folder; "" is [DefaultCacheDir]("").
	CacheDir string
	// Offline uses the cache only: a digest that is not cached is an error
	// ([ErrNotCached]); a tag resolves to the digest it had when last
	// resolved online, with a warning.
	Offline bool
	// Credentials returns the credentials of one registry (host:port);
	// nil sends none. See [Credentials].
	Credentials auth.CredentialFunc
	// Warn receives warnings (an unpinned tag, a possibly stale offline
	// resolution); nil discards them.
	Warn func(string)
	// BaseDir is the folder verify.certificate files are relative to
	// (the FunctionConfig's).
	BaseDir string
	// Confine, when set, is a folder certificate files may not leave
	// (the Argo CD application's repository, the KRM package).
	Confine string
	// Limits bound every artifact; the zero value is limits.Current().
	Limits limits.Limits
	// HTTPClient carries the requests; nil is http.DefaultClient.
	HTTPClient *http.Client
	// Deadline, when set, is a time no network operation runs past (the
	// run's watchdog, less a margin), however much of Limits.OCITimeout
	// is left: the error then comes before the watchdog's message.
	Deadline time.Time
}

// Sentinel errors, for errors.Is.
var (
	// ErrNotCached: offline, and the artifact is not in the cache.
	ErrNotCached = errors.New("not in the cache")
	// ErrRefused: the artifact is not what kudo-render reads (media types,
	// layers, names), does not match its digest, or its signature does not
	// verify.
	ErrRefused = errors.New("refused")
)

// Source fetches OCI artifacts through the content-addressed cache. It is
// the "oci" [location.Kind] and is safe for concurrent use by several
// processes sharing one cache.
type Source struct {
	opts  Options
	cache *cache
	// bound is the one time bound of every network operation
	// (deadline.go), set by the first.
	bound limits.Bound
}

// New makes a Source.
func New(opts Options) (*Source, error) {
	dir := opts.CacheDir
	if dir == "" {
		d, err := DefaultCacheDir("")
		if err != nil {
			return nil, err
		}
		dir = d
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if opts.Limits == (limits.Limits{}) {
		opts.Limits = limits.Current()
	}
	opts.Limits = opts.Limits.WithDefaults()
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	return &Source{opts: opts, cache: &cache{dir: dir}}, nil
}

// NewKind makes the "oci" location.Kind on a Source made on first use (so
// renders without OCI sources need no cache folder).
func NewKind(src func() (*Source, error)) location.Kind { return lazyKind(src) }

type lazyKind func() (*Source, error)

func (k lazyKind) Open(ctx context.Context, s bundle.Source) (*location.Opened, error) {
	src, err := k()
	if err != nil {
		return nil, err
	}
	return src.Open(ctx, s)
}

func (k lazyKind) Resolve(ctx context.Context, s bundle.Source) (string, error) {
	src, err := k()
	if err != nil {
		return "", err
	}
	return src.Resolve(ctx, s)
}

func (k lazyKind) Contains(ctx context.Context, s bundle.Source, pin string) (bool, error) {
	src, err := k()
	if err != nil {
		return false, err
	}
	return src.Contains(ctx, s, pin)
}

func (k lazyKind) Describe(s bundle.Source) string { return (*Source)(nil).Describe(s) }

// Describe is oci://registry/repository[:tag][@digest][//path].
func (*Source) Describe(s bundle.Source) string {
	o, _ := s.(bundle.OCISource)
	d := o.URL
	if r, err := ParseURL(o.URL); err == nil {
		d = r.String()
	} else {
		d = "an OCI source"
	}
	if o.Tag != "" {
		d += ":" + o.Tag
	}
	if o.Digest != "" {
		d += "@" + o.Digest
	}
	if o.Path != "" {
		d += "//" + o.Path
	}
	return d
}

// source checks s and parses its URL.
func source(s bundle.Source) (bundle.OCISource, Repo, error) {
	o, ok := s.(bundle.OCISource)
	if !ok {
		return o, Repo{}, fmt.Errorf("not an OCI source: %T", s)
	}
	if err := o.Check(); err != nil {
		return o, Repo{}, fmt.Errorf("oci.%w", err)
	}
	r, err := ParseURL(o.URL)
	if err != nil {
		return o, Repo{}, err
	}
	if o.Digest != "" {
		if err := digest.Digest(o.Digest).Validate(); err != nil || digest.Digest(o.Digest).Algorithm() != digest.SHA256 {
			return o, Repo{}, fmt.Errorf("%s: digest %q: want sha256:<64 hex digits>", r, o.Digest)
		}
	}
	if p := o.Path; p != "" && (path.Clean(p) != p || path.IsAbs(p) || p == ".." || len(p) > 2 && p[:3] == "../") {
		return o, Repo{}, fmt.Errorf("%s: path %q: want a clean relative folder", r, p)
	}
	return o, r, nil
}

// repository is the client of one repository: plain HTTP on the loopback
// address only, the credentials of that registry only.
func (s *Source) repository(r Repo) *remote.Repository {
	base := s.opts.HTTPClient
	if base == nil {
		base = http.DefaultClient
	}
	hc := *base
	hc.CheckRedirect = checkRedirect
	client := &auth.Client{Client: &hc, Cache: auth.NewCache(), Credential: s.opts.Credentials}
	return &remote.Repository{
		Client:               client,
		Reference:            registry.Reference{Registry: r.Registry, Repository: r.Repository},
		PlainHTTP:            Loopback(r.Registry),
		ReferrerListMaxPages: 10,
		TagListMaxPages:      1,
	}
}

// Resolve turns the source's tag into the digest of its manifest (online;
// offline, the last online resolution, with a warning).
func (s *Source) Resolve(ctx context.Context, src bundle.Source) (string, error) {
	o, r, err := source(src)
	if err != nil {
		return "", err
	}
	if o.Tag == "" {
		return o.Digest, nil
	}
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	d, err := s.resolveTag(ctx, r, o.Tag)
	return d.String(), s.timedOut(ctx, r.String()+":"+o.Tag, err)
}

func (s *Source) resolveTag(ctx context.Context, r Repo, tag string) (digest.Digest, error) {
	if s.opts.Offline {
		rec, err := s.cache.loadTag(r.String(), tag)
		if err != nil {
			return "", fmt.Errorf("%s:%s: %w (offline, and this tag was never resolved online; the cache is %s)", r, tag, ErrNotCached, s.cache.dir)
		}
		s.opts.Warn(fmt.Sprintf("offline: tag %s of %s resolved to %s as of %s; it may have moved since (pin it with kudo-render lock)", tag, r, rec.Digest, rec.Resolved.Format("2006-01-02 15:04:05 UTC")))
		return digest.Digest(rec.Digest), nil
	}
	defer activity.WaitingOn("OCI resolution of " + r.String() + ":" + tag)()
	desc, err := s.repository(r).Resolve(ctx, tag)
	if err != nil {
		return "", fmt.Errorf("%s: cannot resolve tag %s: %w", r, tag, err)
	}
	if err := desc.Digest.Validate(); err != nil {
		return "", fmt.Errorf("%s:%s: the registry answered an invalid digest: %w", r, tag, err)
	}
	_ = s.cache.saveTag(r.String(), tag, desc.Digest) // a cache that cannot record only loses offline tags
	return desc.Digest, nil
}

// Contains tells whether the pinned digest is still in the repository
// (tags move; a digest is gone once deleted).
func (s *Source) Contains(ctx context.Context, src bundle.Source, pin string) (bool, error) {
	_, r, err := source(src)
	if err != nil {
		return false, err
	}
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	defer activity.WaitingOn("OCI check of " + r.String() + "@" + pin)()
	_, err = s.repository(r).Resolve(ctx, pin)
	if errors.Is(err, errdef.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, s.timedOut(ctx, r.String()+"@"+pin, fmt.Errorf("%s: cannot check %s: %w", r, pin, err))
	}
	return true, nil
}

// Open returns the folder of the artifact: its signature verified first
// when the source asks for it, then the manifest and the layer, checked and
// extracted into the cache (or read from it).
func (s *Source) Open(ctx context.Context, src bundle.Source) (*location.Opened, error) {
	o, r, err := source(src)
	if err != nil {
		return nil, err
	}
	d := digest.Digest(o.Digest)
	if d != "" && o.Verify == nil {
		if tree, ok := s.cache.tree(d); ok { // no network: the bound does not start
			return open(tree, r, d, o.Path)
		}
	}
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	where := s.Describe(src)
	if d == "" {
		if d, err = s.resolveTag(ctx, r, o.Tag); err != nil {
			return nil, s.timedOut(ctx, where, err)
		}
		if !s.opts.Offline {
			s.opts.Warn(fmt.Sprintf("rendering from unpinned tag %s of %s (digest %s): pin it with kudo-render lock", o.Tag, r, d))
		}
	}
	if o.Verify != nil {
		if err := s.verify(ctx, r, d, o.Verify); err != nil {
			return nil, s.timedOut(ctx, where, err)
		}
	}
	tree, ok := s.cache.tree(d)
	if !ok {
		if s.opts.Offline {
			return nil, fmt.Errorf("%s@%s: %w (offline; the cache is %s)", r, d, ErrNotCached, s.cache.dir)
		}
		pulled := r.String() + "@" + d.String()
		done := activity.WaitingOn("OCI pull of " + pulled)
		tree, err = s.cache.put(ctx, d, pulled, func(dir string) (meta, error) { return s.pull(ctx, r, d, dir) })
		done()
		if err != nil {
			return nil, s.timedOut(ctx, pulled, err)
		}
	}
	return open(tree, r, d, o.Path)
}

// open roots the folder p of an extracted tree.
func open(tree string, r Repo, d digest.Digest, p string) (*location.Opened, error) {
	dir := filepath.Join(tree, filepath.FromSlash(p))
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%s@%s: the artifact has no folder %q", r, d, p)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", r, d, err)
	}
	return location.NewOpened(root.FS(), r.String()+"@"+d.String()+":"+p, d.String(), true, func() { root.Close() }), nil
}

// refuse is an ErrRefused with its reason.
func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// checkRedirect keeps redirects (registries send blobs to storage hosts)
// to HTTPS: plain HTTP only to a loopback host, and never after HTTPS.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("stopped after %d redirects", len(via))
	}
	if req.URL.Scheme == "https" {
		return nil
	}
	for _, v := range via {
		if v.URL.Scheme == "https" {
			return fmt.Errorf("refusing the redirect from %s to plain HTTP (%s)", v.URL.Host, req.URL.Redacted())
		}
	}
	if !Loopback(req.URL.Host) {
		return fmt.Errorf("refusing the redirect to plain HTTP on %s: only a registry on the loopback address is spoken to over HTTP", req.URL.Host)
	}
	return nil
}
