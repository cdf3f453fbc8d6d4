package cmd

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/digest"
	"github.com/kudo-render/kudo-render/extend"
	"github.com/kudo-render/kudo-render/fn"
	"github.com/kudo-render/kudo-render/source"
)

func newLock(g *gitFlags, stdout, stderr io.Writer) *cobra.Command {
	var pinOutput, verify bool
	c := &cobra.Command{
		Use:   "lock CONFIG.yaml",
		Short: "Pin every git ref of a FunctionConfig to a commit (and, with --pin-output, the output)",
		Long: `Resolve every git reference the render reads to a commit and write it
back into CONFIG.yaml: commit: beside ref: for the config's own sources
(framework, base, repositories), spec.lock.pins for git sources named inside
the frameworks (a base's extends.git). A render then uses exactly those
commits, offline once they are cached, and no longer warns about unpinned
branches.

--pin-output also renders and writes spec.expectedResourceVersions, so a
later render whose output differs fails until the pins are updated.
--verify checks that every pinned commit is still contained in its ref and
changes nothing.`,
		Example: "  kudo-render lock examples/mysql-extension/render-git.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx := context.Background()
			file := args[0]
			cfg, err := fn.LoadFile(file)
			if err != nil {
				return err
			}
			f, err := g.fetcher(stderr, cfg)
			if err != nil {
				return err
			}
			if verify {
				return verifyPins(ctx, f, cfg, stdout)
			}
			edit := fn.LockEdit{Commits: map[string]string{}, Lock: &fn.Lock{}}
			own := map[string]bool{}
			for field, gs := range cfg.GitFields() {
				res, err := f.Resolve(ctx, refOf(*gs))
				if err != nil {
					return fmt.Errorf("%s: %w", field, err)
				}
				edit.Commits[field] = res.Commit
				gs.Commit = res.Commit
				own[gs.URL+"\x00"+gs.Ref] = true
			}
			// Load the whole chain with every nested git source recorded.
			var mu sync.Mutex
			pins := map[string]fn.Pin{}
			src := g.sources(stderr, cfg)
			open := src.OpenGit
			src.OpenGit = func(ctx context.Context, gs bundle.GitSource) (extend.Opened, error) {
				op, err := open(ctx, gs)
				if err == nil && gs.Commit == "" && !own[gs.URL+"\x00"+gs.Ref] {
					mu.Lock()
					pins[gs.URL+"\x00"+gs.Ref] = fn.Pin{URL: gs.URL, Ref: gs.Ref, Commit: op.Commit}
					mu.Unlock()
				}
				return op, err
			}
			req, err := cfg.Request(ctx, src)
			if err != nil {
				return err
			}
			for _, k := range slices.Sorted(maps.Keys(pins)) {
				edit.Lock.Pins = append(edit.Lock.Pins, pins[k])
			}
			// Schema digests: versions already locked keep their digest
			// (a changed schema fails in cfg.Request above); new
			// versions are recorded.
			edit.Lock.Schemas = map[string]string{}
			if cfg.Spec.Lock != nil {
				for k, v := range cfg.Spec.Lock.Schemas {
					edit.Lock.Schemas[k] = v
				}
			}
			digests, err := fn.SchemaDigests(req.Bundle)
			if err != nil {
				return err
			}
			for k, v := range digests {
				if _, ok := edit.Lock.Schemas[k]; !ok {
					edit.Lock.Schemas[k] = v
				}
			}
			if pinOutput {
				req.ExpectedResourceVersions = nil
				items, err := renderItems(cfg, req, stderr)
				if err != nil {
					return err
				}
				edit.ResourceVersions = digest.Versions(objects(items))
			}
			data, err := os.ReadFile(file)
			if err != nil {
				return err
			}
			out, err := fn.ApplyLock(data, edit)
			if err != nil {
				return fmt.Errorf("cannot write %s: %w", file, err)
			}
			if err := writeAtomic(file, out); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "locked %d source(s), %d nested pin(s) in %s\n", len(edit.Commits), len(edit.Lock.Pins), file)
			return nil
		},
	}
	c.Flags().BoolVar(&pinOutput, "pin-output", false, "also write spec.expectedResourceVersions from a render")
	c.Flags().BoolVar(&verify, "verify", false, "check that each pinned commit is still in its ref; change nothing")
	return c
}

func refOf(g bundle.GitSource) source.Ref {
	return source.Ref{URL: g.URL, Ref: g.Ref, Path: g.Path}
}

// verifyPins checks that every pinned commit is still contained in its ref.
func verifyPins(ctx context.Context, f source.Fetcher, cfg *fn.Config, stdout io.Writer) error {
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
		ok, err := f.Contains(ctx, source.Ref{URL: p.url, Ref: p.ref}, p.commit)
		if err != nil {
			return fmt.Errorf("%s: %w", p.what, err)
		}
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %s no longer contains %s", p.what, p.ref, p.commit))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("pinned commits are not in their refs:\n  %s", strings.Join(bad, "\n  "))
	}
	fmt.Fprintf(stdout, "%d pin(s) verified\n", len(pins))
	return nil
}

// writeAtomic replaces a file through a temporary file in its folder.
func writeAtomic(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dirOf(path), ".kudo-render-lock-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
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
