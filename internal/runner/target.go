package runner

import (
	"context"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Decorator returns the adapter decorations of the target (nil for
// plain): Argo CD's sync waves, hooks and sync options, or Flux's force
// annotation on run-once objects.
func Decorator(t config.Target) func([]engine.Item) {
	switch t {
	case config.ArgoCD, "":
		return argocd.Decorate
	case config.Flux:
		return flux.Decorate
	}
	return nil
}

// FluxOptions are the options of the flux layout the config asks for:
// the Kustomizations named after the instance, their timing, and whether
// the output creates the instance's namespace.
func FluxOptions(c *config.Config) flux.Options {
	opts := flux.Options{Name: c.Metadata.Name, InstanceNamespace: c.Metadata.Namespace}
	if f := c.Spec.Flux; f != nil {
		opts.Interval, opts.RetryInterval, opts.Timeout = f.Interval, f.RetryInterval, f.Timeout
		opts.LeaveNamespace = f.CreateNamespace != nil && !*f.CreateNamespace
	}
	return opts
}

// EngineOptions are the render-wide options of the config: its Secret
// copy policy and its target's decorations; warnings go to warn.
func EngineOptions(c *config.Config, warn func(string)) engine.Options {
	kv, _ := kubeversion.Parse(c.Spec.KubeVersion) // checked by Check; "" is the default
	opts := engine.Options{FailOnSecretCopy: c.Spec.FailOnSecretCopy, Strict: c.Spec.Strict, Warn: warn, Decorate: Decorator(c.Target()), KubeVersion: kv}
	if len(c.Spec.CRDs) > 0 {
		opts.LoadCRDs = func() ([]*object.Object, error) { return CRDs(c) }
	}
	return opts
}

// Render renders the config: it loads the framework with its chain,
// builds the request and runs the engine with the config's options.
func (r *Run) Render(ctx context.Context, warn func(string)) ([]engine.Item, error) {
	req, err := r.Request(ctx)
	if err != nil {
		return nil, err
	}
	opts := EngineOptions(r.cfg, warn)
	opts.Budget = r.budget
	return engine.RenderWith(opts, req)
}
