package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

type renderFlags struct {
	name, namespace, target, outDir string
	format                          string
	plans, params                   []string
	strict                          bool
	kubeVersion                     string
	crds                            []string
}

// crdsUsage is the help of --crds.
const crdsUsage = "file or folder of CustomResourceDefinitions the render does not hold, repeatable (adds to spec.crds): custom resources of their kinds are validated against their schemas"

// kubeVersionUsage is the help of --kube-version.
const kubeVersionUsage = "Kubernetes version to render for, e.g. 1.34 (overrides spec.kubeVersion; default: the newest supported): removed API versions are converted, objects validated against its API"

func newRender(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var f renderFlags
	c := &cobra.Command{
		Use:   "render CONFIG.yaml | DIR",
		Short: "Render a FunctionConfig (or a package folder) as a YAML stream",
		Long: `Render the plans of a KUDO package or KEP-0009 framework for one instance.

CONFIG.yaml is a kudorender.dev/v1alpha1 FrameworkRender. With a package
folder instead, --name names the instance. Flags override the config.

-o/--output is the format of stdout: yaml (a YAML stream, the default) or
json (one v1 List, as kubectl get -o json prints). With --output-dir DIR
the objects are written as YAML files instead (one per object, or the Flux
layout with --target flux), all or nothing: files kudo-render wrote there
before and no longer produces are removed, other files are left alone.

On any error nothing is written to stdout (or to --output-dir) and the exit
status is 1.`,
		Example: `  kudo-render render examples/toggle/render.yaml
  kudo-render render examples/toggle --name web --namespace shop -p REPLICAS=3 -o json
  kudo-render render examples/dependencies/render.yaml --plan deploy --target plain --output-dir out/`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := checkRenderOutput(f); err != nil {
				return err
			}
			cfg, err := configFor(args[0], f)
			if err != nil {
				return err
			}
			if cfg.Target() == config.Flux && f.outDir == "" {
				return fmt.Errorf("--target flux writes a folder tree: give --output-dir DIR")
			}
			items, err := runner.New(cfg, g.sources(stderr, cfg)).Render(context.Background(), warner(stderr))
			if err != nil {
				return err
			}
			return writeRender(out, cfg, items, f)
		},
	}
	c.Flags().StringVar(&f.name, "name", "", "instance name (overrides metadata.name)")
	c.Flags().StringVarP(&f.namespace, "namespace", "n", "", "instance namespace (overrides metadata.namespace)")
	c.Flags().StringArrayVar(&f.plans, "plan", nil, "plan to render, repeatable (overrides spec.plans; default deploy)")
	c.Flags().StringArrayVarP(&f.params, "param", "p", nil, "parameter KEY=VALUE, repeatable (overrides spec.params)")
	c.Flags().StringVar(&f.target, "target", "", "argocd, plain or flux (overrides spec.target; flux needs --output-dir)")
	c.Flags().StringVarP(&f.format, "output", "o", "yaml", "format of stdout: yaml or json (a v1 List)")
	c.Flags().StringVar(&f.outDir, "output-dir", "", "write one YAML file per object into this folder instead of stdout (all or nothing)")
	_ = c.MarkFlagDirname("output-dir")
	c.Flags().BoolVar(&f.strict, "strict", false, "refuse what KUDO tolerated: unknown fields of operator.yaml and params.yaml (spec.strict)")
	c.Flags().StringVar(&f.kubeVersion, "kube-version", "", kubeVersionUsage)
	c.Flags().StringArrayVar(&f.crds, "crds", nil, crdsUsage)
	registerCompletions(c, renderFormats...)
	return c
}

// renderFormats are the values of render's -o/--output.
var renderFormats = []string{"yaml", "json"}

// checkRenderOutput refuses an -o that is not a format (a folder, as -o
// meant before --output-dir) and json with --output-dir.
func checkRenderOutput(f renderFlags) error {
	if !slices.Contains(renderFormats, f.format) {
		return fmt.Errorf("-o/--output %q is not an output format (yaml or json); to write one file per object into a folder, use --output-dir %s", f.format, f.format)
	}
	if f.format == "json" && f.outDir != "" {
		return fmt.Errorf("--output-dir writes YAML files: leave out -o json (or --output-dir, to print JSON)")
	}
	return nil
}

// writeRender writes a render: a YAML stream (or a JSON List) on stdout,
// one file per object in f.outDir, or the Flux layout in f.outDir.
func writeRender(out *output.Writer, cfg *config.Config, items []engine.Item, f renderFlags) error {
	dir := f.outDir
	if dir == "" && f.format == "json" {
		list, err := jsonList(engine.Objects(items))
		if err != nil {
			return err
		}
		return out.Write(list)
	}
	if dir == "" {
		docs, err := object.Documents(engine.Objects(items))
		if err != nil {
			return err
		}
		return out.WriteJoined(docs, object.StreamSeparator)
	}
	var files map[string][]byte
	var err error
	if cfg.Target() == config.Flux {
		files, err = flux.Layout(items, runner.FluxOptions(cfg))
	} else {
		files, err = objectFiles(engine.Objects(items))
	}
	if err != nil {
		return err
	}
	return out.WriteDir(dir, files)
}

// jsonList is the objects as one v1 List, indented as kubectl get -o
// json prints it, keys sorted.
func jsonList(objs []*object.Object) ([]byte, error) {
	compact := []byte(`{"apiVersion":"v1","items":[`)
	for i, o := range objs {
		data, err := object.JSON(o.Map)
		if err != nil {
			return nil, fmt.Errorf("cannot serialise %s %q: %w", o.Kind(), o.Name(), err)
		}
		if i > 0 {
			compact = append(compact, ',')
		}
		compact = append(compact, data...)
	}
	compact = append(compact, `],"kind":"List"}`...)
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "    "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// objectFiles lays objects out one per file, named by output.Names.
func objectFiles(objs []*object.Object) (map[string][]byte, error) {
	files := map[string][]byte{}
	for i, name := range output.Names(objs) {
		data, err := objs[i].Marshal()
		if err != nil {
			return nil, err
		}
		files[name] = data
	}
	return files, nil
}

// configFor reads CONFIG.yaml, or builds a config for a package folder,
// then applies the flags.
func configFor(arg string, f renderFlags) (*config.Config, error) {
	info, err := os.Stat(arg)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", arg, err)
	}
	var cfg *config.Config
	if info.IsDir() {
		if f.name == "" {
			return nil, fmt.Errorf("rendering the folder %s needs --name (the instance name)", arg)
		}
		cfg = &config.Config{Dir: ".", File: arg}
		cfg.APIVersion, cfg.Kind = config.APIVersion, config.Kind
		cfg.Spec.Framework.Path = arg
	} else if cfg, err = config.LoadFile(arg); cfg == nil {
		return nil, err
	}
	if f.name != "" {
		if err := object.CheckInstanceName(f.name); err != nil {
			return nil, fmt.Errorf("--name %v", err)
		}
		cfg.Metadata.Name = f.name
	}
	if f.namespace != "" {
		if err := object.CheckLabel(f.namespace); err != nil {
			return nil, fmt.Errorf("--namespace %v", err)
		}
		cfg.Metadata.Namespace = f.namespace
	}
	if len(f.plans) > 0 {
		cfg.Spec.Plans = f.plans
	}
	if f.target != "" {
		cfg.Spec.Target = f.target
	}
	if f.strict {
		cfg.Spec.Strict = true
	}
	if f.kubeVersion != "" {
		cfg.Spec.KubeVersion = f.kubeVersion
	}
	for _, p := range f.crds {
		abs, err := filepath.Abs(p) // relative to the working folder, not the config's
		if err != nil {
			return nil, err
		}
		cfg.Spec.CRDs = append(cfg.Spec.CRDs, abs)
	}
	for _, kv := range f.params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-p %q: want KEY=VALUE", kv)
		}
		cfg.SetParam(k, v)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return cfg, nil
}
