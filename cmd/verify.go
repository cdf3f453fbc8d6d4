package cmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/extend"
	"github.com/kudo-render/kudo-render/location"
	"github.com/kudo-render/kudo-render/output"
	"github.com/kudo-render/kudo-render/verify"
)

func newVerify(w *output.Writer) *cobra.Command {
	var strict bool
	c := &cobra.Command{
		Use:   "verify DIR",
		Short: "Check a package the way `kubectl kudo package verify` does",
		Long: `Check a KUDO package or KEP-0009 framework bundle: parameter names,
semver fields, task and plan references, triggers, a deploy plan, parameters
and implicit variables used in templates, every template rendering with
defaults, and Namespace objects; then every plan is rendered with the
default parameters, as render does, so whatever makes such a render fail
is an error here too. Unknown fields of a KUDO operator.yaml or
params.yaml, which KUDO ignored, are warnings (errors with --strict). An
extension is checked merged with its base (a local extends.path). Every
finding is printed with its file; the exit status is 1 when there is an
error (warnings alone pass).`,
		Example: "  kudo-render verify ../operators/repository/kafka/operator",
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx := context.Background()
			res, err := extend.Load(ctx, location.Local{Dir: args[0]}, extend.Options{})
			if err != nil {
				return err
			}
			findings := verify.Package(res.Bundle, verify.Options{
				Dependencies: extend.Dependencies(ctx, res, extend.Options{}), Strict: strict,
			})
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
	return c
}
