package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
)

func newLock(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var pinOutput, verify bool
	var name, namespace string
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
		Example: `  kudo-render lock examples/mysql-extension/render-git.yaml   # needs network: resolves the base's ref
  kudo-render lock examples/toggle/render.yaml --pin-output   # pins the output's resource versions`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx := context.Background()
			file := args[0]
			cfg, err := config.LoadFile(file)
			if err != nil {
				return err
			}
			if name != "" {
				cfg.Metadata.Name = name
			}
			if namespace != "" {
				cfg.Metadata.Namespace = namespace
			}
			if pinOutput { // rendering needs the instance
				if err := cfg.Check(); err != nil {
					return err
				}
			}
			if _, err := g.fetcher(stderr); err != nil { // credentials and cache, checked up front
				return err
			}
			src := g.sources(stderr, cfg)
			if verify {
				n, err := runner.VerifyPins(ctx, src, cfg)
				if err != nil {
					return err
				}
				return out.Write(fmt.Appendf(nil, "%d pin(s) verified\n", n))
			}
			res, err := runner.LockFile(ctx, file, cfg, runner.LockOptions{
				Sources: src, PinOutput: pinOutput, Warn: warner(stderr),
			})
			if err != nil {
				return err
			}
			return out.Write(fmt.Appendf(nil, "locked %d source(s), %d nested pin(s) in %s\n", res.Sources, res.Pins, file))
		},
	}
	c.Flags().BoolVar(&pinOutput, "pin-output", false, "also write spec.expectedResourceVersions from a render")
	c.Flags().BoolVar(&verify, "verify", false, "check that each pinned commit is still in its ref; change nothing")
	c.Flags().StringVar(&name, "name", "", "instance name, for --pin-output of a config that leaves it to Argo CD")
	c.Flags().StringVarP(&namespace, "namespace", "n", "", "instance namespace, for --pin-output")
	return c
}
