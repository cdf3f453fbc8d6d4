package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/argocd"
	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/engine"
	"github.com/kudo-render/kudo-render/extend"
	"github.com/kudo-render/kudo-render/object"
	"github.com/kudo-render/kudo-render/output"
)

// newCMP is the Argo CD config-management plugin: `cmp generate` and
// `cmp parameters`, run by the sidecar in the application's folder.
func newCMP(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var file string
	c := &cobra.Command{
		Use:   "cmp",
		Short: "Argo CD config-management plugin commands (see deploy/argocd)",
	}
	c.PersistentFlags().StringVarP(&file, "config", "f", argocd.ConfigFileName, "FunctionConfig in the working directory")
	generate := &cobra.Command{
		Use:   "generate",
		Short: "Print the manifests of the application: nothing on stdout and exit 1 on any error",
		Long: `Render the FunctionConfig of the application's folder for Argo CD.

ARGOCD_APP_NAME and ARGOCD_APP_NAMESPACE are the defaults of the instance
name and namespace (of an Application outside Argo CD's namespace, given as
<namespace>_<name>, the name part). ARGOCD_ENV_<NAME> (the Application's
plugin env) sets a package parameter, PLAN or TARGET. Plugin parameters come
from ARGOCD_APP_PARAMETERS (or PARAM_* when it is unset): plan, target, a
map named params, or any package parameter by name.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			cfg, res, err := cmpConfig(g, file, stderr, true)
			if err != nil {
				return err
			}
			if cfg.Target() == config.Flux {
				return fmt.Errorf("target flux writes folders for Flux; the Argo CD plugin prints one stream: use argocd (or plain)")
			}
			ctx := context.Background()
			req, err := cfg.RequestFor(ctx, g.sources(stderr, cfg), res)
			if err != nil {
				return err
			}
			items, err := engine.RenderWith(cfg.EngineOptions(warner(stderr)), req)
			if err != nil {
				return err
			}
			if len(items) == 0 && !cfg.Spec.AllowEmpty {
				return fmt.Errorf("the render has no objects (every Toggle off, an empty plan?): Argo CD would prune the whole application; set spec.allowEmpty: true in %s to allow it", file)
			}
			docs, err := object.Documents(engine.Objects(items))
			if err != nil {
				return err
			}
			return out.WriteJoined(docs, object.StreamSeparator)
		},
	}
	parameters := &cobra.Command{
		Use:   "parameters",
		Short: "Announce the package's parameters to Argo CD (JSON)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, res, err := cmpConfig(g, file, stderr, false)
			if err != nil {
				return err
			}
			data, err := json.MarshalIndent(argocd.Announce(res.Bundle), "", "  ")
			if err != nil {
				return err
			}
			return out.Write(append(data, '\n'))
		},
	}
	c.AddCommand(generate, parameters)
	return c
}

// cmpConfig reads the config, loads its framework and applies Argo CD's
// environment. Local paths stay inside the application's repository.
func cmpConfig(g *gitFlags, file string, stderr io.Writer, check bool) (*config.Config, *extend.Result, error) {
	if bundle.CheckRef(filepath.ToSlash(file)) != nil {
		return nil, nil, fmt.Errorf("--config %s: give a file in the application's folder", file)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.LoadPluginFile(argocd.RepositoryRoot(wd, os.Getenv("ARGOCD_APP_SOURCE_PATH")), file)
	if err != nil {
		return nil, nil, err
	}
	res, err := cfg.Load(context.Background(), g.sources(stderr, cfg))
	if err != nil {
		return nil, nil, err
	}
	settings, err := argocd.FromEnv(os.Environ(), res.Bundle)
	if err != nil {
		return nil, nil, err
	}
	cfg.ApplyArgoCD(settings)
	if !check {
		return cfg, res, nil
	}
	if err := cfg.Check(); err != nil {
		return nil, nil, err
	}
	return cfg, res, nil
}
