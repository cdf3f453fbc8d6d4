package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/extend"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// newCMP is the Argo CD config-management plugin: `cmp generate` and
// `cmp parameters`, run by the sidecar in the application's folder.
func newCMP(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var file string
	c := &cobra.Command{
		Use:   "cmp",
		Short: "Argo CD config-management plugin commands (see examples/argocd/install)",
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
		RunE: func(*cobra.Command, []string) error { return cmpGenerate(g, file, out, stderr) },
	}
	parameters := &cobra.Command{
		Use:   "parameters",
		Short: "Announce the package's parameters to Argo CD (JSON), with the values the render uses",
		Long: `Announce the package's parameters as Argo CD's dynamic parameters JSON:
title, tooltip (the description), collection type and the value the render
uses (the FunctionConfig's spec.params and Argo CD's environment over the
package's default).

A mistyped ARGOCD_ENV_* or plugin parameter, or a value the package refuses,
does not blank Argo CD's parameter panel: the parameters are still listed,
after an entry named kudo-render-error that says what is wrong (generate
fails on it). Only a FunctionConfig or package that cannot be read fails
this command.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			r, res, err := cmpLoad(g, file, stderr)
			if err != nil {
				return err
			}
			cfg := r.Config()
			settings, envErr := argocd.FromEnv(os.Environ(), res.Bundle)
			settings.Apply(cfg)
			values, valuesErr := cfg.Values()
			ann, resolveErr := argocd.AnnounceValues(res.Bundle, values)
			resolveErr = engine.HideSecretParams(res.Bundle, values, resolveErr) // the panel is Argo CD's UI
			if err := errors.Join(envErr, valuesErr, resolveErr); err != nil {
				// Argo CD shows nothing of a failed announcement.
				warner(stderr)(err.Error())
				ann = append([]argocd.Announcement{argocd.Problem(err)}, ann...)
			}
			data, err := json.MarshalIndent(ann, "", "  ")
			if err != nil {
				return err
			}
			return out.Write(append(data, '\n'))
		},
	}
	c.AddCommand(generate, parameters)
	return c
}

// cmpGenerate is cmp generate: the application's manifests on stdout.
func cmpGenerate(g *gitFlags, file string, out *output.Writer, stderr io.Writer) error {
	r, res, err := cmpConfig(g, file, stderr)
	if err != nil {
		return err
	}
	cfg := r.Config()
	if cfg.Target() == config.Flux {
		return fmt.Errorf("target flux writes folders for Flux; the Argo CD plugin prints one stream: use argocd (or plain)")
	}
	req, err := r.RequestFor(context.Background(), res)
	if err != nil {
		return err
	}
	opts := runner.EngineOptions(cfg, warner(stderr))
	opts.Budget = r.Budget()
	items, err := engine.RenderWith(opts, req)
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
}

// cmpConfig reads the config, loads its framework, applies Argo CD's
// environment and checks the result: any error fails generate.
func cmpConfig(g *gitFlags, file string, stderr io.Writer) (*runner.Run, *extend.Result, error) {
	r, res, err := cmpLoad(g, file, stderr)
	if err != nil {
		return nil, nil, err
	}
	settings, err := argocd.FromEnv(os.Environ(), res.Bundle)
	if err != nil {
		return nil, nil, err
	}
	settings.Apply(r.Config())
	if err := r.Config().Check(); err != nil {
		return nil, nil, err
	}
	return r, res, nil
}

// cmpLoad reads the config in the working directory and loads its
// framework, local paths confined to the application's repository.
func cmpLoad(g *gitFlags, file string, stderr io.Writer) (*runner.Run, *extend.Result, error) {
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
	r := runner.New(cfg, g.sources(stderr, cfg))
	res, err := r.Load(context.Background())
	if err != nil {
		return nil, nil, err
	}
	return r, res, nil
}
