package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/engine"
	"github.com/kudo-render/kudo-render/fn"
	"github.com/kudo-render/kudo-render/gitops"
	"github.com/kudo-render/kudo-render/object"
)

type renderFlags struct {
	name, namespace, target, outDir string
	plans, params                   []string
}

func newRender(g *gitFlags, stdout, stderr io.Writer) *cobra.Command {
	var f renderFlags
	c := &cobra.Command{
		Use:   "render CONFIG.yaml | DIR",
		Short: "Render a FunctionConfig (or a package folder) as a YAML stream",
		Long: `Render the plans of a KUDO package or KEP-0009 framework for one instance.

CONFIG.yaml is a kudorender.dev/v1alpha1 FrameworkRender. With a package
folder instead, --name names the instance. Flags override the config.

On any error nothing is written to stdout (or to -o DIR) and the exit
status is 1.`,
		Example: `  kudo-render render examples/zookeeper/render.yaml
  kudo-render render ../operators/zookeeper --name zk --namespace data -p NODE_COUNT=5
  kudo-render render render.yaml --plan deploy --plan update --target plain -o out/`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			cfg, err := configFor(args[0], f)
			if err != nil {
				return err
			}
			req, err := cfg.Request(context.Background(), g.sources(stderr, cfg))
			if err != nil {
				return err
			}
			if req.Target == gitops.Flux {
				if f.outDir == "" {
					return fmt.Errorf("--target flux writes a folder tree: give -o DIR")
				}
				items, err := renderItems(cfg, req, stderr)
				if err != nil {
					return err
				}
				files, err := gitops.WriteFlux(items, gitops.FluxOptions{Name: req.Instance.Name})
				if err != nil {
					return err
				}
				return writeFiles(f.outDir, files)
			}
			items, err := renderItems(cfg, req, stderr)
			if err != nil {
				return err
			}
			objs := objects(items)
			if f.outDir != "" {
				return writeDir(f.outDir, objs)
			}
			data, err := object.Stream(objs)
			if err != nil {
				return err
			}
			_, err = stdout.Write(data)
			return err
		},
	}
	c.Flags().StringVar(&f.name, "name", "", "instance name (overrides metadata.name)")
	c.Flags().StringVarP(&f.namespace, "namespace", "n", "", "instance namespace (overrides metadata.namespace)")
	c.Flags().StringArrayVar(&f.plans, "plan", nil, "plan to render, repeatable (overrides spec.plans; default deploy)")
	c.Flags().StringArrayVarP(&f.params, "param", "p", nil, "parameter KEY=VALUE, repeatable (overrides spec.params)")
	c.Flags().StringVar(&f.target, "target", "", "argocd, plain or flux (overrides spec.target; flux needs -o DIR)")
	c.Flags().StringVarP(&f.outDir, "output-dir", "o", "", "write one file per object into this folder instead of stdout")
	return c
}

// configFor reads CONFIG.yaml, or builds a config for a package folder,
// then applies the flags.
func configFor(arg string, f renderFlags) (*fn.Config, error) {
	info, err := os.Stat(arg)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", arg, err)
	}
	var cfg *fn.Config
	if info.IsDir() {
		if f.name == "" {
			return nil, fmt.Errorf("rendering the folder %s needs --name (the instance name)", arg)
		}
		cfg = &fn.Config{Dir: ".", File: arg}
		cfg.APIVersion, cfg.Kind = fn.APIVersion, fn.Kind
		cfg.Spec.Framework.Path = arg
	} else if cfg, err = fn.LoadFile(arg); err != nil {
		return nil, err
	}
	if f.name != "" {
		cfg.Metadata.Name = f.name
	}
	if f.namespace != "" {
		cfg.Metadata.Namespace = f.namespace
	}
	if len(f.plans) > 0 {
		cfg.Spec.Plans = f.plans
	}
	if f.target != "" {
		cfg.Spec.Target = f.target
	}
	for _, kv := range f.params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-p %q: want KEY=VALUE", kv)
		}
		if cfg.Spec.Params == nil {
			cfg.Spec.Params = map[string]fn.Node{}
		}
		cfg.Spec.Params[k] = fn.StringNode(v)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// writeDir writes one file per object, named kind_name.yaml (with the
// namespace when two objects share kind and name). Files are written only
// after the whole render succeeded.
func writeDir(dir string, objs []*object.Object) error {
	files := map[string][]byte{}
	for _, o := range objs {
		data, err := o.Marshal()
		if err != nil {
			return err
		}
		name := strings.ToLower(o.Kind()) + "_" + o.Name() + ".yaml"
		if _, dup := files[name]; dup {
			name = strings.ToLower(o.Kind()) + "_" + o.Namespace() + "_" + o.Name() + ".yaml"
		}
		files[name] = data
	}
	return writeFiles(dir, files)
}

// writeFiles writes files (slash paths relative to dir), creating folders.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// renderItems renders one request with the config's render-wide options;
// warnings go to stderr.
func renderItems(cfg *fn.Config, req engine.Request, stderr io.Writer) ([]gitops.Item, error) {
	return engine.RenderWith(engine.Options{FailOnSecretCopy: cfg.Spec.FailOnSecretCopy, Warn: warner(stderr)}, req)
}

func objects(items []gitops.Item) []*object.Object {
	out := make([]*object.Object, len(items))
	for i, it := range items {
		out[i] = it.Obj
	}
	return out
}
