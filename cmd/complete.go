package cmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
)

// registerCompletions offers values for the flags that take a fixed set
// (--target, --output where it is a format) and, from the package the
// first argument names (a folder, or a FunctionConfig with a local
// framework path), plan names for --plan and parameter names for -p.
func registerCompletions(c *cobra.Command, formats ...string) {
	fixed := func(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		}
	}
	if c.Flags().Lookup("target") != nil {
		_ = c.RegisterFlagCompletionFunc("target", fixed("argocd", "plain", "flux"))
	}
	if len(formats) > 0 {
		_ = c.RegisterFlagCompletionFunc("output", fixed(formats...))
	}
	if c.Flags().Lookup("plan") != nil {
		_ = c.RegisterFlagCompletionFunc("plan", func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			var out []string
			if b := completionBundle(args); b != nil {
				for _, p := range b.Plans {
					out = append(out, p.Name)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		})
	}
	if c.Flags().Lookup("param") != nil {
		_ = c.RegisterFlagCompletionFunc("param", func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if strings.Contains(toComplete, "=") {
				return nil, cobra.ShellCompDirectiveNoFileComp // a value: nothing to offer
			}
			var out []string
			if b := completionBundle(args); b != nil {
				for _, p := range b.Params {
					out = append(out, p.Name+"=")
				}
			}
			return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// completionBundle loads the package of the command line's first
// argument for completion; nil when there is none or it is not local.
func completionBundle(args []string) *bundle.Bundle {
	if len(args) == 0 {
		return nil
	}
	dir := args[0]
	if info, err := os.Stat(dir); err != nil {
		return nil
	} else if !info.IsDir() {
		cfg, err := config.LoadFile(dir)
		if cfg == nil || err != nil || cfg.Spec.Framework.Path == "" {
			return nil
		}
		dir = filepath.Join(filepath.Dir(dir), filepath.FromSlash(cfg.Spec.Framework.Path))
	}
	b, err := bundle.LoadDir(dir)
	if err != nil {
		return nil
	}
	return b
}
