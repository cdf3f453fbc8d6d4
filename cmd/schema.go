package cmd

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/fn"
)

func newSchema(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON schema of the FunctionConfig (kudorender.dev/v1alpha1 FrameworkRender)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := stdout.Write(fn.Schema())
			return err
		},
	}
}
