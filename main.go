// Command kudo-render renders KUDO operator packages and KEP-0009 framework
// bundles into GitOps manifests. See package cmd.
package main

import (
	"os"

	// First: the collector stays off while the packages below initialise.
	"github.com/kudo-render/kudo-render/internal/startup"

	"github.com/kudo-render/kudo-render/cmd"
)

func main() {
	startup.Done()
	if err := cmd.Main(os.Stdin, os.Stdout, os.Stderr, os.Exit).Execute(); err != nil {
		os.Exit(cmd.Exit(os.Stderr, err))
	}
}
