package cmd

import (
	"io"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X .../cmd.Version=...".
var Version = "dev"

// New returns the root command writing to stdout and stderr.
func New(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "kudo-render",
		Short:         "Render KUDO operator packages and KEP-0009 frameworks into GitOps manifests",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRender(stdout, stderr), newVerify(stdout), newVersion(stdout))
	return root
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := io.WriteString(stdout, Version+"\n")
			return err
		},
	}
}
