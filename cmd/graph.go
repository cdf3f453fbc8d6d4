package cmd

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/review/graph"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

type graphFlags struct {
	render         renderFlags
	format, detail string
}

func newGraph(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f graphFlags
	c := &cobra.Command{
		Use:   "graph CONFIG.yaml | DIR",
		Short: "Draw the order a render applies its objects in (Mermaid or Graphviz DOT)",
		Long: `Draw one render: each instance a group (KudoOperator dependencies nested
in their parent's), each wave a group in order (linked to the next), each
step a group, each object a node. Hooks are marked as running once, objects
a Toggle task controls carry its parameter (objects of a Toggle that is
off are drawn dashed), and getValueFrom references are edges from the
object that reads to the object read.

-o mermaid (the default) renders inline in GitHub and GitLab
markdown. Mermaid has limits (50,000 characters, 500 edges): with
--detail auto a large render is drawn as counts per kind in each step, or
one node per step, and the picture says so. -o dot (Graphviz) draws every
object.`,
		Example: `  kudo-render graph examples/toggle/render.yaml
  kudo-render graph examples/review/v2/render.yaml -o dot | dot -Tsvg > plan.svg   # needs dot (Graphviz)
  kudo-render graph examples/argocd/kudo-render.yaml --name cache --namespace web --detail kinds`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if c.Flags().Changed("format") {
				fmt.Fprintln(stderr, "warning: --format is deprecated: use -o/--output, the output format on every command")
			}
			text, err := runGraph(g, f, args[0], stderr)
			if err != nil {
				return err
			}
			return out.Write([]byte(text))
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.render.name, "name", "", "instance name (overrides metadata.name)")
	fl.StringVarP(&f.render.namespace, "namespace", "n", "", "instance namespace (overrides metadata.namespace)")
	fl.StringArrayVar(&f.render.plans, "plan", nil, "plan to render, repeatable (overrides spec.plans)")
	fl.StringArrayVarP(&f.render.params, "param", "p", nil, "parameter KEY=VALUE, repeatable (overrides spec.params)")
	fl.BoolVar(&f.render.strict, "strict", false, "refuse what KUDO tolerated (spec.strict)")
	fl.StringVar(&f.render.kubeVersion, "kube-version", "", kubeVersionUsage)
	fl.StringArrayVar(&f.render.crds, "crds", nil, crdsUsage)
	fl.StringVarP(&f.format, "output", "o", "mermaid", "mermaid or dot (Graphviz)")
	fl.StringVar(&f.format, "format", "mermaid", "mermaid or dot")
	// --format was graph's name for -o; still taken, hidden, with a
	// warning on stderr (cobra's MarkDeprecated prints to stdout).
	_ = fl.MarkHidden("format")
	fl.StringVar(&f.detail, "detail", "auto", "objects, kinds (counts per kind in each step), steps, or auto (mermaid: the finest that fits; dot: objects)")
	registerCompletions(c, "mermaid", "dot")
	_ = c.RegisterFlagCompletionFunc("detail", cobra.FixedCompletions([]string{"auto", "objects", "kinds", "steps"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// runGraph renders the config, recording references and Toggles that are
// off, and draws it.
func runGraph(g *gitFlags, f graphFlags, path string, stderr io.Writer) (string, error) {
	detail, err := graph.ParseDetail(f.detail)
	if err != nil {
		return "", fmt.Errorf("--detail %w", err)
	}
	if f.format != "mermaid" && f.format != "dot" {
		return "", fmt.Errorf("-o/--output %q: want mermaid or dot", f.format)
	}
	cfg, err := configFor(path, f.render)
	if err != nil {
		return "", err
	}
	if cfg.Target() == config.Flux {
		cfg.Spec.Target = string(config.Plain)
	}
	in, err := graphInput(g, cfg, stderr, nil)
	if err != nil {
		return "", err
	}
	if f.format == "dot" {
		return graph.DOT(in, graph.Options{Detail: detail}), nil
	}
	return graph.Mermaid(in, graph.Options{Detail: detail}), nil
}

// graphInput renders the config with the engine's hooks for references
// and Toggles that are off, within budget (nil: a budget of its own).
func graphInput(g *gitFlags, cfg *config.Config, stderr io.Writer, budget *limits.Budget) (graph.Input, error) {
	var in graph.Input
	r := runner.New(cfg, g.sources(stderr, cfg)).SetBudget(budget)
	req, err := r.Request(context.Background())
	if err != nil {
		return in, err
	}
	opts := runner.EngineOptions(cfg, warner(stderr))
	opts.Reference = func(from, to *object.Object, field string) {
		in.Refs = append(in.Refs, graph.Ref{From: from, To: to, Field: field})
	}
	opts.ToggledOff = func(t engine.OffToggle) { in.Off = append(in.Off, t) }
	opts.SecretCopy = func(_ *object.Object, _ string, v any) { in.SecretValues = append(in.SecretValues, v) }
	opts.Budget = r.Budget()
	in.Items, err = engine.RenderWith(opts, req)
	return in, err
}
