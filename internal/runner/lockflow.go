package runner

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
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// LockOptions say how `kudo-render lock` reaches remote sources.
type LockOptions struct {
	// Sources resolve refs to pins and open the chain of the config.
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

// LockFile resolves every reference of a remote source the render of the
// config in file reads to a pin (a git commit) and writes it back into
// the file (keeping its comments): commit: beside ref: for the config's
// own sources, spec.lock.pins for sources named inside the frameworks,
// schema digests of new versions, and with PinOutput the output's
// resource versions. The file is replaced atomically.
func LockFile(ctx context.Context, file string, cfg *config.Config, opts LockOptions) (LockResult, error) {
	edit, own, err := lockOwn(ctx, cfg, opts.Sources)
	if err != nil {
		return LockResult{}, err
	}
	src, pins := recordPins(opts.Sources, own)
	r := New(cfg, src)
	req, err := r.Request(ctx)
	if err != nil {
		return LockResult{}, err
	}
	edit.Lock.Pins = pins()
	if edit.Lock.Schemas, err = lockedSchemas(cfg, req.Bundle); err != nil {
		return LockResult{}, err
	}
	if opts.PinOutput {
		req.ExpectedResourceVersions = nil
		eopts := EngineOptions(cfg, opts.Warn)
		eopts.Budget = r.Budget()
		items, err := engine.RenderWith(eopts, req)
		if err != nil {
			return LockResult{}, err
		}
		edit.ResourceVersions = digest.Versions(engine.Objects(items))
	}
	if err := writeLock(file, edit); err != nil {
		return LockResult{}, err
	}
	return LockResult{Sources: len(edit.Pinned), Pins: len(edit.Lock.Pins)}, nil
}

// lockOwn resolves the config's own remote sources and pins them in cfg
// (so the render that follows uses them); own keys them by URL and ref.
func lockOwn(ctx context.Context, cfg *config.Config, src Sources) (LockEdit, map[string]bool, error) {
	edit := LockEdit{Pinned: map[string]bundle.Source{}, Lock: &config.Lock{}}
	own := map[string]bool{}
	remotes := cfg.Remotes()
	for _, field := range slices.Sorted(maps.Keys(remotes)) {
		r := remotes[field]
		for _, s := range r.Sources() {
			k := src.Kinds[s.SourceKind()]
			if k == nil {
				return edit, nil, fmt.Errorf("%s.%s: %s sources are not available here", field, s.SourceKind(), s.SourceKind())
			}
			pin, err := k.Resolve(ctx, s)
			if err != nil {
				return edit, nil, fmt.Errorf("%s.%s: %w", field, s.SourceKind(), err)
			}
			s = s.WithPin(pin)
			edit.Pinned[field+"."+s.SourceKind()] = s
			if err := r.Set(s); err != nil {
				return edit, nil, err
			}
			own[pinKey(s)] = true
		}
	}
	return edit, own, nil
}

// recordPins wraps the kinds of src to record the pin of every nested
// remote source that is not the config's own and has no pin.
func recordPins(src Sources, own map[string]bool) (Sources, func() []config.Pin) {
	var mu sync.Mutex
	pins := map[string]config.Pin{}
	kinds := location.Kinds{}
	for name, k := range src.Kinds {
		kinds[name] = recordingKind{Kind: k, record: func(s bundle.Source, op *location.Opened) {
			if s.SourcePin() != "" || own[pinKey(s)] {
				return
			}
			mu.Lock()
			pins[pinKey(s)] = newPin(s, op.Pin)
			mu.Unlock()
		}}
	}
	src.Kinds = kinds
	return src, func() []config.Pin {
		mu.Lock()
		defer mu.Unlock()
		var out []config.Pin
		for _, k := range slices.Sorted(maps.Keys(pins)) {
			out = append(out, pins[k])
		}
		return out
	}
}

// recordingKind tells record what each successful Open resolved to.
type recordingKind struct {
	location.Kind
	record func(bundle.Source, *location.Opened)
}

func (k recordingKind) Open(ctx context.Context, s bundle.Source) (*location.Opened, error) {
	op, err := k.Kind.Open(ctx, s)
	if err == nil {
		k.record(s, op)
	}
	return op, err
}

// lockedSchemas keeps the digests of versions already locked (a changed
// schema fails in Request) and records those of new versions.
func lockedSchemas(cfg *config.Config, b *bundle.Bundle) (map[string]string, error) {
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

// VerifyPins checks that every pin of cfg (a commit) is still contained in
// its ref; it returns how many pins it checked.
func VerifyPins(ctx context.Context, src Sources, cfg *config.Config) (int, error) {
	type pin struct {
		what string
		s    bundle.Source
	}
	var pins []pin
	for field, s := range cfg.SourceFields() {
		if s.SourcePin() != "" && s.SourceRef() != "" {
			pins = append(pins, pin{field, s})
		}
	}
	if cfg.Spec.Lock != nil {
		for _, p := range cfg.Spec.Lock.Pins {
			if p.Ref != "" {
				pins = append(pins, pin{"spec.lock.pins", p.Source()})
			}
		}
	}
	sort.SliceStable(pins, func(i, j int) bool { return pins[i].what < pins[j].what })
	var bad []string
	for _, p := range pins {
		k := src.Kinds[p.s.SourceKind()]
		if k == nil {
			return 0, fmt.Errorf("%s: %s sources are not available here", p.what, p.s.SourceKind())
		}
		ok, err := k.Contains(ctx, p.s, p.s.SourcePin())
		if err != nil {
			return 0, fmt.Errorf("%s: %w", p.what, err)
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %s no longer contains %s", p.what, p.s.SourceRef(), p.s.SourcePin()))
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
