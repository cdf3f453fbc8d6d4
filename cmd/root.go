package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/kudo-render/kudo-render/fn"

	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X .../cmd.Version=...".
var Version = "dev"

// New returns the root command reading stdin and writing stdout and
// stderr.
func New(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var g gitFlags
	root := &cobra.Command{
		Use:   "kudo-render",
		Short: "Render KUDO operator packages and KEP-0009 frameworks into GitOps manifests",
		Long: `Render KUDO operator packages and KEP-0009 frameworks into GitOps manifests.

Without arguments kudo-render is a KRM function: it reads a
config.kubernetes.io/v1 ResourceList on stdin (kpt fn render, kustomize
build --enable-alpha-plugins --enable-exec) and writes one on stdout.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if isTerminal(stdin) {
				return c.Help()
			}
			return runFunction(&g, stdin, stdout, stderr)
		},
	}
	g.register(root)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRender(&g, stdout, stderr), newVerify(stdout), newVersion(stdout), newSchema(stdout), newCMP(&g, stdout, stderr), newLock(&g, stdout, stderr))
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

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// runFunction runs the KRM function in the current directory.
func runFunction(g *gitFlags, stdin io.Reader, stdout, stderr io.Writer) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	f := &fn.Function{Dir: dir, Warn: warner(stderr),
		SourcesFor: func(cfg *fn.Config) fn.Sources { return g.sources(stderr, cfg) }}
	return f.Run(stdin, stdout)
}

func warner(stderr io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(stderr, "warning:", msg) }
}
