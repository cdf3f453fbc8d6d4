package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/schema"
)

func newSchema(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var paramsDir string
	c := &cobra.Command{
		Use:   "schema [--params DIR | --params CONFIG.yaml]",
		Short: "Print the JSON schema of the FunctionConfig, or of a framework's parameters",
		Long: `Without flags, print the JSON schema (2020-12) of the FunctionConfig,
kudorender.dev/v1alpha1 FrameworkRender.

With --params DIR (or a FunctionConfig, which names the framework), print
the effective JSON schema of the parameters of the framework: its params.schema.json combined with its bases' (an
extension's is merged with its base's), or, without one, the schema derived
from params.yaml. FunctionConfig parameters are validated against it before
any template runs.`,
		Example: "  kudo-render schema\n  kudo-render schema --params examples/definitions",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if paramsDir == "" {
				return out.Write(config.Schema())
			}
			res, _, err := loadForVerify(context.Background(), g, paramsDir, stderr)
			if err != nil {
				return err
			}
			data, err := schema.Params(res.Bundle)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := json.Indent(&buf, data, "", "  "); err != nil {
				return err
			}
			buf.WriteByte('\n')
			return out.Write(buf.Bytes())
		},
	}
	c.Flags().StringVar(&paramsDir, "params", "", "print the effective parameter schema of the framework in this folder (or named by this FunctionConfig)")
	return c
}
