package config

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/source/gitsource"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// LockOptions say how `kudo-render lock` reaches git.
type LockOptions struct {
	// Fetcher resolves refs to commits and checks pins.
	Fetcher gitsource.Fetcher
	// Sources opens the chain of the config (git through Fetcher).
	Sources Sources
	// PinOutput also renders and records spec.expectedResourceVersions.
	PinOutput bool
	// Warn receives warnings of the render.
	Warn func(string)
}

// LockResult says what Lock wrote.
type LockResult struct {
	Sources, Pins int
}

// LockFile resolves every git reference the render of the config in file
// reads to a commit and writes it back into the file (keeping its
// comments): commit: beside ref: for the config's own sources,
// spec.lock.pins for git sources named inside the frameworks, schema
// digests of new versions, and with PinOutput the output's resource
// versions. The file is replaced atomically.
func LockFile(ctx context.Context, file string, cfg *Config, opts LockOptions) (LockResult, error) {
	edit := LockEdit{Commits: map[string]string{}, Lock: &Lock{}}
	own := map[string]bool{}
	for field, gs := range cfg.GitFields() {
		res, err := opts.Fetcher.Resolve(ctx, gitsource.Ref{URL: gs.URL, Ref: gs.Ref, Path: gs.Path})
		if err != nil {
			return LockResult{}, fmt.Errorf("%s: %w", field, err)
		}
		edit.Commits[field] = res.Commit
		gs.Commit = res.Commit
		own[gs.URL+"\x00"+gs.Ref] = true
	}
	src, pins := recordPins(opts.Sources, own)
	req, err := cfg.Request(ctx, src)
	if err != nil {
		return LockResult{}, err
	}
	edit.Lock.Pins = pins()
	if edit.Lock.Schemas, err = lockedSchemas(cfg, req.Bundle); err != nil {
		return LockResult{}, err
	}
	if opts.PinOutput {
		req.ExpectedResourceVersions = nil
		items, err := engine.RenderWith(cfg.EngineOptions(opts.Warn), req)
		if err != nil {
			return LockResult{}, err
		}
		edit.ResourceVersions = digest.Versions(engine.Objects(items))
	}
	if err := writeLock(file, edit); err != nil {
		return LockResult{}, err
	}
	return LockResult{Sources: len(edit.Commits), Pins: len(edit.Lock.Pins)}, nil
}

// recordPins wraps the git opener of src to record the commit of every
// nested git source that is not the config's own and has no commit.
func recordPins(src Sources, own map[string]bool) (Sources, func() []Pin) {
	var mu sync.Mutex
	pins := map[string]Pin{}
	open := src.Git
	src.Git = func(ctx context.Context, gs bundle.GitSource) (*location.Opened, error) {
		if open == nil {
			return nil, fmt.Errorf("git sources are not available here")
		}
		op, err := open(ctx, gs)
		if err == nil && gs.Commit == "" && !own[gs.URL+"\x00"+gs.Ref] {
			mu.Lock()
			pins[gs.URL+"\x00"+gs.Ref] = Pin{URL: gs.URL, Ref: gs.Ref, Commit: op.Commit}
			mu.Unlock()
		}
		return op, err
	}
	return src, func() []Pin {
		mu.Lock()
		defer mu.Unlock()
		var out []Pin
		for _, k := range slices.Sorted(maps.Keys(pins)) {
			out = append(out, pins[k])
		}
		return out
	}
}

// lockedSchemas keeps the digests of versions already locked (a changed
// schema fails in Request) and records those of new versions.
func lockedSchemas(cfg *Config, b *bundle.Bundle) (map[string]string, error) {
	out := map[string]string{}
	if cfg.Spec.Lock != nil {
		maps.Copy(out, cfg.Spec.Lock.Schemas)
	}
	digests, err := SchemaDigests(b)
	if err != nil {
		return nil, err
	}
	for k, v := range digests {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out, nil
}

func writeLock(file string, edit LockEdit) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	out, err := ApplyLock(data, edit)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", file, err)
	}
	return writeAtomic(file, out)
}

// VerifyPins checks that every pinned commit of cfg is still contained in
// its ref; it returns how many pins it checked.
func VerifyPins(ctx context.Context, f gitsource.Fetcher, cfg *Config) (int, error) {
	type pin struct{ what, url, ref, commit string }
	var pins []pin
	for field, gs := range cfg.GitFields() {
		if gs.Commit != "" && gs.Ref != "" {
			pins = append(pins, pin{field, gs.URL, gs.Ref, gs.Commit})
		}
	}
	if cfg.Spec.Lock != nil {
		for _, p := range cfg.Spec.Lock.Pins {
			if p.Ref != "" {
				pins = append(pins, pin{"spec.lock.pins", p.URL, p.Ref, p.Commit})
			}
		}
	}
	sort.Slice(pins, func(i, j int) bool { return pins[i].what < pins[j].what })
	var bad []string
	for _, p := range pins {
		ok, err := f.Contains(ctx, gitsource.Ref{URL: p.url, Ref: p.ref}, p.commit)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", p.what, err)
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %s no longer contains %s", p.what, p.ref, p.commit))
		}
	}
	if len(bad) > 0 {
		return 0, fmt.Errorf("pinned commits are not in their refs:\n  %s", strings.Join(bad, "\n  "))
	}
	return len(pins), nil
}

// writeAtomic replaces a file through a temporary file in its folder,
// keeping its permissions.
func writeAtomic(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".kudo-render-lock-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
