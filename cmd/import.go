package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/output"
)

type importFlags struct {
	from                          []string
	kubeconfig                    string
	outDir, operators, target, ns string
	format                        string // -o: not taken; says to use --output-dir
	repoURL, revision             string
}

func newImport(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f importFlags
	c := &cobra.Command{
		Use:   "import (--from FILE | --kubeconfig FILE) --output-dir DIR",
		Short: "Write a GitOps repository for the KUDO instances of a cluster export",
		Long: `Write a GitOps repository for the kudo.dev/v1beta1 Instances of files
exported with

  kubectl get instances,operatorversions,operators -A -o yaml > kudo-export.yaml

or of a cluster (--kubeconfig, with --namespace one namespace; it only
lists). For each Instance: DIR/<namespace>/<instance>/kudo-render.yaml (the
parameters that differ from the package's defaults, typed as the package
says) and an Argo CD Application (--target argocd) or a Flux Kustomization
(--target flux). The package is found in --operators, by the name and
version its operator.yaml declares, wherever it is below that folder (at
most 6 levels down; a checkout of kudobuilder/operators works as it is),
or else rebuilt from the OperatorVersion into
DIR/operators/<operator>/<version>/. Instances made by
a KudoOperator task are rendered by their parent: no application of their
own.

DIR is written all or nothing; on any error nothing is written and the exit
status is 1. A summary goes to stderr, nothing to stdout.`,
		Example: `  kubectl get instances,operatorversions,operators -A -o yaml > kudo-export.yaml   # needs a cluster
  kudo-render import --kubeconfig ~/.kube/config --namespace data --output-dir gitops/   # needs a cluster
  kudo-render import --from examples/migrate/kudo-export.yaml --output-dir gitops/
  kudo-render import --from examples/migrate/kudo-export.yaml --operators ../shared/corpus/kudo-operators --output-dir gitops/ --target flux`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if c.Flags().Changed("output") {
				return fmt.Errorf("-o/--output is an output format, and import has none: it writes a folder; use --output-dir %s", f.format)
			}
			return runImport(f, g.deadline, out, stderr)
		},
	}
	c.Flags().StringArrayVar(&f.from, "from", nil, "file exported with `kubectl get instances,operatorversions,operators -A -o yaml`, repeatable")
	c.Flags().StringVar(&f.kubeconfig, "kubeconfig", "", "read the KUDO objects from this cluster (only lists them), with or instead of --from")
	c.Flags().StringVar(&f.outDir, "output-dir", "", "folder to write the GitOps repository to (all or nothing)")
	_ = c.MarkFlagDirname("output-dir")
	// -o/--output is a format on every command; import has none, and
	// before --output-dir its -o was the folder: say so.
	c.Flags().StringVarP(&f.format, "output", "o", "", "not taken: import writes a folder (--output-dir)")
	_ = c.Flags().MarkHidden("output")
	c.Flags().StringVar(&f.operators, "operators", "", "folder of packages, found by the name and version their operator.yaml declares (a checkout of kudobuilder/operators); default: rebuild them from the OperatorVersions")
	c.Flags().StringVar(&f.target, "target", migrate.TargetArgoCD, "argocd (an Application per instance) or flux (a Kustomization per instance)")
	c.Flags().StringVarP(&f.ns, "namespace", "n", "", "import only the instances of this namespace")
	c.Flags().StringVar(&f.repoURL, "repo-url", "https://git.example.com/gitops.git", "git repository of DIR, for the Argo CD Applications")
	c.Flags().StringVar(&f.revision, "revision", "HEAD", "branch, tag or commit of --repo-url the Applications follow")
	return c
}

func runImport(f importFlags, deadline time.Time, out *output.Writer, stderr io.Writer) error {
	start := time.Now()
	if len(f.from) == 0 && f.kubeconfig == "" || f.outDir == "" {
		return fmt.Errorf("import needs --from FILE (or --kubeconfig FILE) and --output-dir DIR")
	}
	var exp migrate.Export
	if f.kubeconfig != "" {
		if err := readCluster(context.Background(), f.kubeconfig, f.ns, deadline, &exp); err != nil {
			return err
		}
	}
	for _, file := range f.from {
		data, err := readBoundedFile(file)
		if err != nil {
			return err
		}
		if err := migrate.Parse(file, data, &exp); err != nil {
			return err
		}
	}
	outAbs, err := filepath.Abs(f.outDir)
	if err != nil {
		return err
	}
	opts := migrate.Options{OutDir: outAbs, Target: f.target, Namespace: f.ns, RepoURL: f.repoURL, Revision: f.revision}
	if f.operators != "" {
		if opts.Operators, err = filepath.Abs(f.operators); err != nil {
			return err
		}
	}
	res, err := migrate.Import(&exp, opts)
	if err != nil {
		return err
	}
	if err := out.WriteDir(f.outDir, res.Files); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	fmt.Fprintf(stderr, "imported %d instances (%d rendered by their parent, %d packages rebuilt, %d other objects skipped) into %s in %s\n",
		res.Apps, res.Children, res.Rebuilt, exp.Skipped, f.outDir, time.Since(start).Round(time.Millisecond))
	return nil
}

// readBoundedFile reads a file of at most the file-bytes limit.
func readBoundedFile(name string) ([]byte, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %w", err)
	}
	defer fh.Close()
	max := limits.Current().FileBytes
	data, err := io.ReadAll(io.LimitReader(fh, max+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, limits.Err("file-bytes", max, name)
	}
	return data, nil
}
