package extend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
)

// DefaultMaxDepth caps extension chains.
const DefaultMaxDepth = 8

// Location is where a bundle is: a local folder or a folder of a git
// repository at a reference.
type Location struct {
	Dir string
	Git *bundle.GitSource
}

// Opened is a bundle folder ready to read.
type Opened struct {
	FS fs.FS
	// ID identifies the exact content, for cycle detection and
	// provenance: an absolute folder, or url@commit:path (credentials
	// scrubbed).
	ID string
	// Commit is the resolved commit of a git location.
	Commit string
	// Close releases the folder (optional).
	Close func()
}

func (o Opened) close() {
	if o.Close != nil {
		o.Close()
	}
}

// OpenGit opens a folder of a git repository (package source provides
// it). The returned ID must be url@commit:path with credentials scrubbed.
type OpenGit func(ctx context.Context, g bundle.GitSource) (Opened, error)

// Repository is a named place where frameworks are looked up by name and
// version, laid out as <framework>/<version>/ or as <framework>/ whose
// framework.yaml (or operator.yaml) has the version.
type Repository struct {
	Name string
	Git  *bundle.GitSource
	Path string // a local folder instead of git
}

// Options of Load.
type Options struct {
	OpenGit      OpenGit
	Repositories []Repository
	// Base replaces the `extends` of the top bundle (FunctionConfig
	// spec.base), e.g. to try a fork or a newer base.
	Base     *bundle.Extends
	MaxDepth int
	// Confine, when set, is a folder that every local location must stay
	// inside (symbolic links resolved): KRM functions may not read
	// outside the package they run on.
	Confine string
}

// Layer describes one bundle of a chain.
type Layer struct {
	ID       string // name@version
	Location string // Opened.ID
}

// Result is a loaded bundle with its extension chain merged.
type Result struct {
	Bundle *bundle.Bundle
	// Location is where the bundle asked for is.
	Location Location
	// Locations are where each bundle of the chain is, the one asked
	// for first (Task.Depth indexes it).
	Locations []Location
	// Chain lists the bundles, the one asked for first, then its base,
	// its base's base...
	Chain []Layer
}

// Error is a problem while resolving extends.
type Error struct {
	Chain []string // IDs from the top bundle down to where it failed
	Err   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot resolve extends (%s): %v", strings.Join(e.Chain, " -> "), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Load loads the bundle at loc and, when it extends a base, the chain of
// bases, merged into one bundle.
func Load(ctx context.Context, loc Location, opts Options) (*Result, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	return load(ctx, loc, opts, nil, true)
}

func load(ctx context.Context, loc Location, opts Options, chain []string, top bool) (*Result, error) {
	op, err := open(ctx, loc, opts)
	if err != nil {
		if len(chain) == 0 {
			return nil, err
		}
		return nil, &Error{Chain: chain, Err: err}
	}
	for _, c := range chain {
		if c == op.ID {
			return nil, &Error{Chain: append(chain, op.ID), Err: errors.New("extends cycle")}
		}
	}
	if len(chain) > opts.MaxDepth {
		return nil, &Error{Chain: chain, Err: fmt.Errorf("extends chain deeper than %d", opts.MaxDepth)}
	}
	b, err := bundle.Load(op.FS, displayName(loc))
	op.close()
	if err != nil {
		return nil, err
	}
	layer := Layer{ID: b.ID(), Location: op.ID}
	if b.Name == "" {
		layer.ID = displayName(loc) + "@" + b.Version
	}
	ext := b.Extends
	if top && opts.Base != nil {
		ext = opts.Base
	}
	if ext == nil {
		return &Result{Bundle: b, Location: loc, Locations: []Location{loc}, Chain: []Layer{layer}}, nil
	}
	chain = append(chain, op.ID)
	baseLoc, err := locate(ctx, loc, ext, opts)
	if err != nil {
		return nil, &Error{Chain: chain, Err: err}
	}
	baseRes, err := load(ctx, baseLoc, opts, chain, false)
	if err != nil {
		return nil, err
	}
	merged, err := Merge(baseRes.Bundle, b)
	if err != nil {
		return nil, err
	}
	return &Result{Bundle: merged, Location: loc, Locations: append([]Location{loc}, baseRes.Locations...),
		Chain: append([]Layer{layer}, baseRes.Chain...)}, nil
}

func displayName(loc Location) string {
	if loc.Git != nil {
		if loc.Git.Path != "" {
			return path.Base(loc.Git.Path)
		}
		return path.Base(strings.TrimSuffix(loc.Git.URL, ".git"))
	}
	return filepath.Base(filepath.Clean(loc.Dir))
}

// open reads a location. Local folders go through os.Root so nothing
// outside them can be read; the bundle is loaded before the root closes,
// because bundle.Load reads every file.
func open(ctx context.Context, loc Location, opts Options) (Opened, error) {
	if loc.Git != nil {
		if opts.OpenGit == nil {
			return Opened{}, errors.New("git sources are not available here")
		}
		return opts.OpenGit(ctx, *loc.Git)
	}
	if opts.Confine != "" {
		if err := confined(opts.Confine, loc.Dir); err != nil {
			return Opened{}, err
		}
	}
	return openDir(loc.Dir)
}

// confined checks that dir is inside root once symbolic links are
// resolved.
func confined(root, dir string) error {
	r, err := filepath.Abs(root)
	if err == nil {
		r, err = filepath.EvalSymlinks(r)
	}
	if err != nil {
		return err
	}
	d, err := filepath.Abs(dir)
	if err == nil {
		d, err = filepath.EvalSymlinks(d)
	}
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", dir, err)
	}
	rel, err := filepath.Rel(r, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is outside %s: local paths may not leave it", dir, root)
	}
	return nil
}

func openDir(dir string) (Opened, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Opened{}, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return Opened{}, fmt.Errorf("cannot open %s: %w", dir, err)
	}
	return Opened{FS: root.FS(), ID: abs, Close: func() { root.Close() }}, nil
}

// Locate finds the bundle that ext names, relative to the bundle at loc.
func Locate(ctx context.Context, loc Location, ext *bundle.Extends, opts Options) (Location, error) {
	return locate(ctx, loc, ext, opts)
}

// locate finds the base a bundle at loc extends.
func locate(ctx context.Context, loc Location, ext *bundle.Extends, opts Options) (Location, error) {
	set := 0
	for _, b := range []bool{ext.Kudo != nil, ext.Git != nil, ext.Path != ""} {
		if b {
			set++
		}
	}
	if set != 1 {
		return Location{}, errors.New("extends needs exactly one of kudo, git or path")
	}
	switch {
	case ext.Git != nil:
		g := *ext.Git
		if g.URL == "" {
			return Location{}, errors.New("extends.git.url is empty")
		}
		return Location{Git: &g}, nil
	case ext.Path != "":
		if loc.Git != nil {
			p := path.Join(loc.Git.Path, ext.Path)
			if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(ext.Path) {
				return Location{}, fmt.Errorf("extends.path %q leaves the repository", ext.Path)
			}
			g := *loc.Git
			g.Path = p
			return Location{Git: &g}, nil
		}
		if filepath.IsAbs(ext.Path) {
			return Location{Dir: ext.Path}, nil
		}
		return Location{Dir: filepath.Join(loc.Dir, filepath.FromSlash(ext.Path))}, nil
	default:
		return findInRepositories(ctx, ext.Kudo, opts)
	}
}

// findInRepositories looks a framework up by name and version.
// Find looks a framework up by name and version in opts.Repositories.
func Find(ctx context.Context, framework, version string, opts Options) (Location, error) {
	return findInRepositories(ctx, &bundle.ExtendsKudo{Framework: framework, Version: version}, opts)
}

func findInRepositories(ctx context.Context, k *bundle.ExtendsKudo, opts Options) (Location, error) {
	if k.Framework == "" {
		return Location{}, errors.New("extends.kudo needs a framework name")
	}
	if len(opts.Repositories) == 0 {
		return Location{}, fmt.Errorf("framework %s version %s: the FunctionConfig names no spec.repositories to look it up in", k.Framework, k.Version)
	}
	if bundle.CheckRef(k.Framework) != nil || (k.Version != "" && bundle.CheckRef(k.Version) != nil) || strings.Contains(k.Framework+k.Version, "/") {
		return Location{}, fmt.Errorf("extends.kudo: invalid framework %q or version %q", k.Framework, k.Version)
	}
	var looked []string
	for _, r := range opts.Repositories {
		var root Opened
		var rootLoc Location
		switch {
		case r.Git != nil:
			if opts.OpenGit == nil {
				return Location{}, errors.New("git sources are not available here")
			}
			g := *r.Git
			op, err := opts.OpenGit(ctx, g)
			if err != nil {
				return Location{}, fmt.Errorf("repository %q: %w", r.Name, err)
			}
			root, rootLoc = op, Location{Git: &g}
		case r.Path != "":
			if opts.Confine != "" {
				if err := confined(opts.Confine, r.Path); err != nil {
					return Location{}, fmt.Errorf("repository %q: %w", r.Name, err)
				}
			}
			op, err := openDir(r.Path)
			if err != nil {
				return Location{}, fmt.Errorf("repository %q: %w", r.Name, err)
			}
			root, rootLoc = op, Location{Dir: r.Path}
		default:
			return Location{}, fmt.Errorf("repository %q has neither git nor path", r.Name)
		}
		looked = append(looked, r.Name)
		dirs := []string{k.Framework}
		if k.Version != "" {
			dirs = []string{k.Framework + "/" + k.Version, k.Framework}
		}
		for _, dir := range dirs {
			// <framework>/<version>/, or <framework>/ with that version
			// (any version when none is asked for)
			if v, ok := versionAt(root.FS, dir); ok && (dir != k.Framework || k.Version == "" || v == k.Version) {
				root.close()
				return sub(rootLoc, dir), nil
			}
		}
		root.close()
	}
	return Location{}, fmt.Errorf("framework %s version %s not found in repositories %s (layout <framework>/<version>/ or <framework>/ with that version)",
		k.Framework, k.Version, strings.Join(looked, ", "))
}

func sub(loc Location, dir string) Location {
	if loc.Git != nil {
		g := *loc.Git
		g.Path = path.Join(g.Path, dir)
		return Location{Git: &g}
	}
	return Location{Dir: filepath.Join(loc.Dir, filepath.FromSlash(dir))}
}

// versionAt reads the version of the bundle in dir, if there is one.
func versionAt(root fs.FS, dir string) (string, bool) {
	for _, f := range []string{"framework.yaml", "operator.yaml"} {
		data, err := fs.ReadFile(root, dir+"/"+f)
		if err != nil {
			continue
		}
		var meta struct {
			Version         string `yaml:"version"`
			OperatorVersion string `yaml:"operatorVersion"`
		}
		if yaml.Unmarshal(data, &meta) != nil {
			return "", false
		}
		return first(meta.Version, meta.OperatorVersion), true
	}
	return "", false
}
