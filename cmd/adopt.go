package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/adopt"
	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
	"github.com/kudo-render/kudo-render/internal/output"
)

type adoptFlags struct {
	render                     renderFlags
	kubeconfig, context        string
	fieldManager, format       string
	kudoManagers               []string
	controllerNS               string
	dryRun, allowChanges, show bool
}

func newAdopt(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	c := &cobra.Command{
		Use:   "adopt",
		Short: "Take a live KUDO install over for Argo CD or Flux: check, then apply",
		Long: `Move an instance KUDO's controller installed to a GitOps tool without
restarting or deleting anything (docs/migrate-from-kudo.md is the runbook):

  kudo-render adopt check CONFIG.yaml --kubeconfig K   # what the first sync would do
  kudo-render adopt apply CONFIG.yaml --kubeconfig K   # detach from KUDO, hand fields over

CONFIG.yaml is the FunctionConfig kudo-render import wrote for the instance.`,
	}
	c.AddCommand(newAdoptCheck(g, out, stderr), newAdoptApply(g, out, stderr))
	return c
}

func registerAdoptFlags(c *cobra.Command, f *adoptFlags) {
	fl := c.Flags()
	fl.StringVar(&f.kubeconfig, "kubeconfig", "", "kubeconfig of the cluster (default: $KUBECONFIG, else ~/.kube/config)")
	fl.StringVar(&f.context, "context", "", "kubeconfig context (default: the current one)")
	fl.StringVar(&f.fieldManager, "field-manager", "", "field manager of the GitOps tool (default: argocd-controller, or kustomize-controller for spec.target flux)")
	fl.StringArrayVar(&f.kudoManagers, "kudo-manager", nil, "field manager of KUDO's controller, repeatable (default: manager, the name of KUDO's binary)")
	fl.StringVar(&f.render.name, "name", "", "instance name (overrides metadata.name)")
	fl.StringVarP(&f.render.namespace, "namespace", "n", "", "instance namespace (overrides metadata.namespace)")
	fl.StringArrayVarP(&f.render.params, "param", "p", nil, "parameter KEY=VALUE, repeatable")
	fl.StringVar(&f.render.kubeVersion, "kube-version", "", kubeVersionUsage)
	fl.BoolVar(&f.show, "show-secrets", false, "print the values of Secrets in changed fields")
}

func newAdoptCheck(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f adoptFlags
	c := &cobra.Command{
		Use:   "check CONFIG.yaml --kubeconfig K",
		Short: "Compare an instance's render with its live KUDO objects (exit 0: adoptable, 1: changes, 2: error)",
		Long: `Render the instance of CONFIG.yaml and dry-run its server-side apply
as the GitOps tool applies it (forced, under its field manager) against the
live objects. Each object is unchanged, changed (field by field), restarts
pods (its pod template changes), cannot apply (the API server refuses it:
immutable fields), rendered but not live, or live (owned by the Instance)
but not rendered. Clients that changed an object since KUDO applied it are
named. Nothing is changed on the cluster.

Exit status: 0 adoptable (the first sync changes nothing and restarts
nothing), 1 changes, 2 error, with nothing on stdout.`,
		Example: `  kudo-render adopt check gitops/data/zk/kudo-render.yaml --kubeconfig ~/.kube/config   # needs a cluster
  kudo-render adopt check gitops/data/zk/kudo-render.yaml --kubeconfig ~/.kube/config -o json   # needs a cluster`,
		Args:        cobra.ExactArgs(1),
		Annotations: map[string]string{"exit-on-error": "2"},
		RunE: func(_ *cobra.Command, args []string) error {
			if f.format != "text" && f.format != "markdown" && f.format != "json" {
				return &ExitError{Code: 2, Err: fmt.Errorf("--output %q: want text, markdown or json", f.format)}
			}
			rep, _, _, err := adoptCheck(g, f, args[0], stderr)
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			var b bytes.Buffer
			switch f.format {
			case "json":
				data, err := rep.JSON()
				if err != nil {
					return &ExitError{Code: 2, Err: err}
				}
				b.Write(data)
			case "markdown":
				md, err := rep.Markdown()
				if err != nil {
					return &ExitError{Code: 2, Err: err}
				}
				b.WriteString(md)
			default:
				if err := rep.Text(&b); err != nil {
					return &ExitError{Code: 2, Err: err}
				}
			}
			if err := out.Write(b.Bytes()); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if !rep.Adoptable() {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &ExitError{Code: 2, Err: err} })
	registerAdoptFlags(c, &f)
	c.Flags().StringVarP(&f.format, "output", "o", "text", "text, markdown (a pull-request comment) or json")
	registerCompletions(c, "text", "markdown", "json")
	return c
}

func newAdoptApply(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f adoptFlags
	c := &cobra.Command{
		Use:   "apply CONFIG.yaml --kubeconfig K",
		Short: "Detach a checked KUDO install from its Instances and hand its fields to the GitOps tool",
		Long: `Run adopt check, then, if it is clean: remove the ownerReferences to the
Instances from every object they own (JSON patches that test the owner's
uid), hand the fields KUDO's field manager owns to the GitOps tool's
(client-go's csaupgrade) on every rendered object, and remove KUDO's cleanup
finalizer from the Instances. Afterwards, deleting the Instances,
OperatorVersions and KUDO's CRDs deletes no workload.

It never deletes, recreates or changes the spec of an object. It refuses,
changing nothing, when the check is not clean (--allow-changes adopts
anyway), while KUDO's controller runs, or while an admission webhook for
kudo.dev objects is registered. Running it again finishes an interrupted run
and changes nothing on an adopted install. --dry-run prints the patches.`,
		Example: `  kudo-render adopt apply gitops/data/zk/kudo-render.yaml --kubeconfig ~/.kube/config --dry-run   # needs a cluster
  kudo-render adopt apply gitops/data/zk/kudo-render.yaml --kubeconfig ~/.kube/config   # needs a cluster`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runAdoptApply(g, f, args[0], out, stderr)
		},
	}
	registerAdoptFlags(c, &f)
	c.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the patches, change nothing")
	c.Flags().BoolVar(&f.allowChanges, "allow-changes", false, "adopt even when the first sync would change objects")
	c.Flags().StringVar(&f.controllerNS, "kudo-namespace", "kudo-system", "namespace of KUDO's controller")
	registerCompletions(c)
	return c
}

// adoptCheck renders the config and checks it against the cluster.
func adoptCheck(g *gitFlags, f adoptFlags, path string, stderr io.Writer) (*adopt.Report, *adopt.Cluster, adopt.Options, error) {
	opts := adopt.Options{FieldManager: f.fieldManager, KUDOManagers: f.kudoManagers, Diff: diff.Options{ShowSecrets: f.show}}
	cfg, err := configFor(path, f.render)
	if err != nil {
		return nil, nil, opts, err
	}
	if opts.FieldManager == "" {
		opts.FieldManager = adopt.ArgoCDManager
		if cfg.Target() == config.Flux {
			opts.FieldManager = adopt.FluxManager
		}
	}
	if cfg.Target() == config.Flux {
		cfg.Spec.Target = string(config.Plain)
	}
	opts.Used = map[string]string{}
	for key, name := range cfg.Spec.Pipes {
		opts.Used[name] = "spec.pipes." + key
	}
	in, err := graphInput(g, cfg, stderr, nil)
	if err != nil {
		return nil, nil, opts, err
	}
	opts.Diff.SecretValues = in.SecretValues // masked in the changes, as diff masks them
	cluster, bounds, err := adoptCluster(f, g.deadline)
	if err != nil {
		return nil, nil, opts, err
	}
	ns := cfg.Metadata.Namespace
	if ns == "" {
		ns = "default"
	}
	ctx, cancel := bounds.context(context.Background())
	defer cancel()
	rep, err := adopt.Check(ctx, cluster, ns, cfg.Metadata.Name, in.Items, opts)
	return rep, cluster, opts, err
}

// adoptCluster connects to the cluster of --kubeconfig / --context, its
// requests bounded by the run (deadline: clusterBounds).
func adoptCluster(f adoptFlags, deadline time.Time) (*adopt.Cluster, clusterBounds, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if f.kubeconfig != "" {
		rules.ExplicitPath = f.kubeconfig
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: f.context}).ClientConfig()
	if err != nil {
		return nil, clusterBounds{}, fmt.Errorf("cannot connect to the cluster: %w", err)
	}
	bounds := clusterBounds{host: cfg.Host, deadline: deadline}
	bounds.bound(cfg)
	// A check lists every namespaced resource once (about 50 requests):
	// kubectl's discovery limits rather than client-go's 5 per second.
	cfg.QPS, cfg.Burst = 50, 300
	c, err := adopt.NewCluster(cfg)
	return c, bounds, err
}

// runAdoptApply checks, then adopts.
func runAdoptApply(g *gitFlags, f adoptFlags, path string, out *output.Writer, stderr io.Writer) error {
	rep, cluster, copts, err := adoptCheck(g, f, path, stderr)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := rep.Text(&b); err != nil {
		return err
	}
	ctx, cancel := clusterBounds{deadline: g.deadline}.context(context.Background())
	defer cancel()
	opts := adopt.ApplyOptions{
		Options: copts,
		DryRun:  f.dryRun, AllowChanges: f.allowChanges, ControllerNamespace: f.controllerNS,
	}
	patches, err := adopt.Apply(ctx, cluster, rep, opts)
	if err == nil || len(patches) > 0 { // a refusal made no patch: "nothing to do" would mislead
		if perr := adopt.PatchesText(&b, patches, f.dryRun); perr != nil && err == nil {
			err = perr
		}
	}
	if err != nil {
		stderr.Write(b.Bytes())
		return err
	}
	return out.Write(b.Bytes())
}
