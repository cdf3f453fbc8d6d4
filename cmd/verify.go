package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kudo-render/kudo-render/config"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/source/location"
	"github.com/kudo-render/kudo-render/internal/verify"
)

func newVerify(g *gitFlags, w *output.Writer, stderr io.Writer) *cobra.Command {
	var strict bool
	var kubeVersion string
	c := &cobra.Command{
		Use:   "verify DIR | CONFIG.yaml",
		Short: "Check a package the way `kubectl kudo package verify` does",
		Long: `Check a KUDO package or KEP-0009 framework bundle: parameter names,
semver fields, task and plan references, triggers, a deploy plan, parameters
and implicit variables used in templates, every template rendering with
defaults, and Namespace objects; then every plan is rendered with the
default parameters, as render does, so whatever makes such a render fail
is an error here too. Unknown fields of a KUDO operator.yaml or
params.yaml, which KUDO ignored, are warnings (errors with --strict). An
extension is checked merged with its base. Given a FunctionConfig (an Argo
CD application's kudo-render.yaml too), the framework it names is checked,
with its base and sources. Every finding is printed with its file; the exit
status is 1 when there is an error (warnings alone pass).`,
		Example: `  kudo-render verify examples/toggle
  kudo-render verify --strict examples/argocd/kudo-render.yaml   # the framework a FunctionConfig names`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx := context.Background()
			res, deps, err := loadForVerify(ctx, g, args[0], stderr)
			if err != nil {
				return err
			}
			var kv kubeversion.Version // zero: the default
			if kubeVersion != "" {
				if kv, err = kubeversion.Parse(kubeVersion); err != nil {
					return fmt.Errorf("--kube-version: %w", err)
				}
			}
			findings := verify.Package(res.Bundle, verify.Options{Dependencies: deps, Strict: strict, KubeVersion: kv})
			var out strings.Builder
			errs := 0
			for _, f := range findings {
				out.WriteString(f.String())
				out.WriteByte('\n')
				if f.Severity == verify.Error {
					errs++
				}
			}
			if errs > 0 {
				return fmt.Errorf("%s%d verification error(s) in %s", out.String(), errs, args[0])
			}
			fmt.Fprintf(&out, "%s is valid\n", args[0])
			return w.Write([]byte(out.String()))
		},
	}
	c.Flags().BoolVar(&strict, "strict", false, "refuse what KUDO tolerated: unknown fields of operator.yaml and params.yaml")
	c.Flags().StringVar(&kubeVersion, "kube-version", "", "Kubernetes version to render the plans for, e.g. 1.34 (default: the newest supported)")
	registerCompletions(c)
	return c
}

// loadForVerify loads a package folder, or the framework a FunctionConfig
// names (with its sources), and the resolver of its dependencies.
func loadForVerify(ctx context.Context, g *gitFlags, arg string, stderr io.Writer) (*extend.Result, extend.DependencyResolver, error) {
	if info, err := os.Stat(arg); err == nil && !info.IsDir() {
		cfg, err := config.LoadFile(arg)
		if err != nil {
			return nil, nil, err
		}
		r := runner.New(cfg, g.sources(stderr, cfg))
		res, err := r.Load(ctx)
		if err != nil {
			return nil, nil, err
		}
		req, err := r.RequestFor(ctx, res)
		if err != nil {
			return nil, nil, err
		}
		return res, req.Dependencies, nil
	}
	res, err := extend.Load(ctx, location.Local{Dir: arg}, extend.Options{})
	if err != nil {
		return nil, nil, err
	}
	return res, extend.Dependencies(ctx, res, extend.Options{}), nil
}
