package cmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
	"github.com/kudo-render/kudo-render/internal/adapter/review/graph"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/source/gitsource"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

type diffFlags struct {
	render                   renderFlags
	fromParams, toParams     []string
	fromRev, format, title   string
	color                    string
	ignore                   []string
	showBookkeeping, secrets bool
	exitCode, graph          bool
	maxChars                 int
}

func newDiff(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f diffFlags
	c := &cobra.Command{
		Use:   "diff FROM.yaml [TO.yaml]",
		Short: "Show what a change does to the rendered objects (exit 0: none, 1: changes, 2: error, 3: an update the API server refuses)",
		Long: `Compare two renders object by object: two FunctionConfigs, one
FunctionConfig at a git revision and in the working tree (--from-rev), or
one FunctionConfig with two sets of parameters (--from-param/--to-param).
Both sides render with the same engine, cache and limits.

Objects are matched by API group, kind, namespace and name (an apiVersion
bump is a field change). Added, removed and changed objects are listed,
changes field by field with their paths (long strings line by line), and
moves between waves, into or out of hooks and between steps as changes of
their own. kudo-render's bookkeeping annotations are hidden
(--show-bookkeeping shows them), --ignore hides more; an object changed
only in ignored fields is listed as such and not counted. The warnings
the objects carry (kudorender.dev/warnings) are said once each, with
the objects that carry them: new, gone or unchanged.

Each changed object's update is validated as the API server validates
it when the target applies the new render over the old one (the kind's
update rules: a Job's pod template, a StatefulSet's selector, service
name and claim templates, a workload's selector, a Service's cluster IP, a
claim's spec, an immutable ConfigMap's data, a RoleBinding's role, ...). An
update the server refuses is reported with what to do, unless the target
recreates the object (Argo CD's Force=true, Flux's force annotation, which
kudo-render writes on Jobs, bare Pods, immutable ConfigMaps and Secrets and
role bindings): "the API server will refuse this update: ...".

Values of Secrets (data, stringData), of annotations that copy an object,
values references copied out of Secrets (in any form) and digests of secret
data are never printed: the report says which keys changed (--show-secrets
prints them). Control characters in names and values are shown as escapes.

Exit status: 0 no change, 1 changes (0 with --exit-code=false), 2 error,
with nothing on stdout, 3 an update the API server will refuse (with the
report; also with --exit-code=false: the sync would fail).`,
		Example: `  kudo-render diff examples/review/v2/render.yaml --from-rev origin/main
  kudo-render diff examples/review/v2/render.yaml --from-param replicas=3 --to-param replicas=5   # exit 1: changes
  kudo-render diff examples/review/v1/render.yaml examples/review/v2/render.yaml -o markdown   # exit 1: changes
  kudo-render diff examples/argocd/kudo-render.yaml --name cache --namespace web --from-rev HEAD~1 --ignore 'Deployment:spec.replicas'`,
		Args:        cobra.RangeArgs(1, 2),
		Annotations: map[string]string{"exit-on-error": "2"},
		RunE: func(_ *cobra.Command, args []string) error {
			text, rep, err := runDiff(g, f, args, stderr)
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if err := out.Write(text); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if rep.Counts().Refused > 0 {
				return &ExitError{Code: 3}
			}
			if rep.HasChanges() && f.exitCode {
				return &ExitError{Code: 1}
			}
			return nil
		},
	}
	c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &ExitError{Code: 2, Err: err} })
	registerDiffFlags(c, &f)
	registerCompletions(c, "text", "markdown", "json")
	return c
}

func registerDiffFlags(c *cobra.Command, f *diffFlags) {
	fl := c.Flags()
	fl.StringVar(&f.render.name, "name", "", "instance name (overrides metadata.name), both sides")
	fl.StringVarP(&f.render.namespace, "namespace", "n", "", "instance namespace (overrides metadata.namespace), both sides")
	fl.StringArrayVar(&f.render.plans, "plan", nil, "plan to render, repeatable, both sides (overrides spec.plans)")
	fl.StringArrayVarP(&f.render.params, "param", "p", nil, "parameter KEY=VALUE for both sides, repeatable")
	fl.StringArrayVar(&f.fromParams, "from-param", nil, "parameter KEY=VALUE for the old side only, repeatable")
	fl.StringArrayVar(&f.toParams, "to-param", nil, "parameter KEY=VALUE for the new side only, repeatable")
	fl.StringVar(&f.render.target, "target", "", "argocd, plain or flux, both sides (overrides spec.target): which tool recreates what (see --help)")
	fl.BoolVar(&f.render.strict, "strict", false, "refuse what KUDO tolerated (spec.strict), both sides")
	fl.StringVar(&f.render.kubeVersion, "kube-version", "", kubeVersionUsage)
	fl.StringArrayVar(&f.render.crds, "crds", nil, crdsUsage)
	fl.StringVar(&f.fromRev, "from-rev", "", "old side: FROM.yaml as it is at this git revision of its repository (e.g. origin/main, HEAD~1)")
	fl.StringVarP(&f.format, "output", "o", "text", "text, markdown (a pull-request comment) or json")
	fl.StringVar(&f.title, "title", "", "markdown: the comment's title (default \"kudo-render diff\")")
	fl.IntVar(&f.maxChars, "max-comment-chars", diff.CommentLimit, "markdown: the most characters written; sections that do not fit are left out with a marker")
	fl.StringVar(&f.color, "color", "auto", "text: auto (on a terminal), always or never")
	fl.StringArrayVar(&f.ignore, "ignore", nil, "hide changes at or below [Kind:]PATH, e.g. spec.replicas, Deployment:spec.template.spec.containers[*].image; repeatable")
	fl.BoolVar(&f.showBookkeeping, "show-bookkeeping", false, "show kudo-render's own annotations (resource versions, provenance, waves and hooks)")
	fl.BoolVar(&f.secrets, "show-secrets", false, "print the values of Secrets and of annotations copying objects")
	fl.BoolVar(&f.graph, "graph", false, "markdown: add the new side's graph (Mermaid) in a collapsible section")
	fl.BoolVar(&f.exitCode, "exit-code", true, "exit 1 when something changed; false: exit 0 unless an error")
}

// runDiff renders both sides and writes the report.
func runDiff(g *gitFlags, f diffFlags, args []string, stderr io.Writer) ([]byte, *diff.Report, error) {
	opts, err := diffOptions(f)
	if err != nil {
		return nil, nil, err
	}
	fromPath, toPath, cleanup, err := diffSides(f, args)
	defer cleanup()
	if err != nil {
		return nil, nil, err
	}
	// The report needs both renders at once: they share one budget, so
	// that diff stays within what one render may spend.
	budget := limits.NewBudget(limits.Current())
	from, _, err := renderSide(g, fromPath, f.render, f.fromParams, stderr, budget)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot render the old side: %w", err)
	}
	to, target, err := renderSide(g, toPath, f.render, f.toParams, stderr, budget)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot render the new side: %w", err)
	}
	opts.SecretValues = append(append([]any{}, from.SecretValues...), to.SecretValues...)
	opts.Update = validate.New(nil, validate.Options{}).Update
	opts.Recreates = recreates(target)
	done := activity.Doing(fmt.Sprintf("comparing %d objects with %d and validating the updates of the changed ones", len(from.Items), len(to.Items)))
	rep, err := diff.Compare(from.Items, to.Items, opts)
	done()
	if err != nil {
		return nil, nil, err
	}
	text, err := writeReport(rep, f, to)
	return text, rep, err
}

// recreates is how the tool of a target recreates an object whose update
// the API server refuses (nil for plain: kubectl apply does not).
func recreates(t config.Target) func(*object.Object) string {
	switch t {
	case config.ArgoCD:
		return argocd.Recreates
	case config.Flux:
		return flux.Recreates
	}
	return nil
}

// diffOptions checks the flags that shape the report.
func diffOptions(f diffFlags) (diff.Options, error) {
	opts := diff.Options{ShowBookkeeping: f.showBookkeeping, ShowSecrets: f.secrets}
	for _, s := range f.ignore {
		r, err := diff.ParseRule(s)
		if err != nil {
			return opts, err
		}
		opts.Ignore = append(opts.Ignore, r)
	}
	switch f.format {
	case "text", "markdown", "json":
	default:
		return opts, fmt.Errorf("--output %q: want text, markdown or json", f.format)
	}
	switch f.color {
	case "auto", "always", "never":
	default:
		return opts, fmt.Errorf("--color %q: want auto, always or never", f.color)
	}
	return opts, nil
}

// diffSides are the configs of the two sides; cleanup removes a
// revision's checkout, also when err is not nil (the watchdog and
// SIGINT or SIGTERM remove it too: see tempDir).
func diffSides(f diffFlags, args []string) (from, to string, cleanup func(), err error) {
	cleanup = func() {}
	switch {
	case len(args) == 2 && f.fromRev != "":
		return "", "", cleanup, fmt.Errorf("--from-rev compares one config with itself at a revision: give one config, not two")
	case len(args) == 2:
		return args[0], args[1], cleanup, nil
	case f.fromRev != "":
		dir, cleanup, err := tempDir("kudo-render-diff-")
		if err != nil {
			return "", "", cleanup, err
		}
		from, err := checkoutSide(args[0], f.fromRev, dir)
		return from, args[0], cleanup, err
	case len(f.fromParams)+len(f.toParams) > 0:
		return args[0], args[0], cleanup, nil
	}
	return "", "", cleanup, fmt.Errorf("nothing to compare %s with: give a second config, --from-rev REV or --from-param/--to-param", args[0])
}

// checkoutSide writes the revision of the repository holding config into
// dir and returns where config lies in it.
func checkoutSide(config, rev, dir string) (string, error) {
	info, err := os.Stat(config)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", config, err)
	}
	at := config
	if !info.IsDir() {
		at = filepath.Dir(config)
	}
	r, err := gitsource.CheckoutRevision(at, rev, dir)
	if err != nil {
		return "", err
	}
	return gitsource.InRevision(r, dir, config)
}

// renderSide renders one side: the config with the shared flags and the
// side's own parameters, decorated for its target (a Flux config as the
// objects of its folders).
func renderSide(g *gitFlags, path string, rf renderFlags, params []string, stderr io.Writer, budget *limits.Budget) (graph.Input, config.Target, error) {
	rf.params = append(append([]string{}, rf.params...), params...)
	cfg, err := configFor(path, rf)
	if err != nil {
		return graph.Input{}, "", err
	}
	in, err := graphInput(g, cfg, stderr, budget)
	return in, cfg.Target(), err
}

// writeReport writes the report in the chosen format.
func writeReport(rep *diff.Report, f diffFlags, to graph.Input) ([]byte, error) {
	switch f.format {
	case "markdown":
		var section string
		if f.graph {
			section = "\n<details><summary>Graph of the new render</summary>\n\n" +
				diff.CodeBlock("mermaid", graph.Mermaid(to, graph.Options{})) + "\n</details>\n"
		}
		if len(section) >= f.maxChars/2 {
			section = "\n(The graph is left out: it would not fit in the comment.)\n"
		}
		return []byte(rep.Markdown(f.title, f.maxChars-utf8.RuneCountInString(section)) + section), nil
	case "json":
		return rep.JSON()
	}
	var b bytes.Buffer
	// auto: on a terminal, unless NO_COLOR is set (no-color.org)
	color := f.color == "always" || f.color == "auto" && isTerminal(os.Stdout) && os.Getenv("NO_COLOR") == ""
	err := rep.Text(&b, color)
	return b.Bytes(), err
}
