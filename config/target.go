package config

import (
	"context"
	"fmt"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
)

// Target is the kind of output a config asks for.
type Target string

// Targets.
const (
	ArgoCD Target = "argocd"
	Plain  Target = "plain"
	// Flux lays the output out in one folder per wave with Flux
	// Kustomizations chained by dependsOn (see flux.Layout).
	Flux Target = "flux"
)

// ParseTarget checks a target name; empty means ArgoCD.
func ParseTarget(s string) (Target, error) {
	switch Target(s) {
	case "", ArgoCD:
		return ArgoCD, nil
	case Plain, Flux:
		return Target(s), nil
	}
	return "", fmt.Errorf("unknown target %q (want argocd, plain or flux)", s)
}

// Decorator returns the adapter decorations of the target (nil for
// plain): Argo CD's sync waves, hooks and sync options, or Flux's force
// annotation on run-once objects.
func (t Target) Decorator() func([]engine.Item) {
	switch t {
	case ArgoCD, "":
		return argocd.Decorate
	case Flux:
		return flux.Decorate
	}
	return nil
}

// FluxOptions are the options of the flux layout the config asks for:
// the Kustomizations named after the instance, their timing, and whether
// the output creates the instance's namespace.
func (c *Config) FluxOptions() flux.Options {
	opts := flux.Options{Name: c.Metadata.Name, InstanceNamespace: c.Metadata.Namespace}
	if f := c.Spec.Flux; f != nil {
		opts.Interval, opts.RetryInterval, opts.Timeout = f.Interval, f.RetryInterval, f.Timeout
		opts.LeaveNamespace = f.CreateNamespace != nil && !*f.CreateNamespace
	}
	return opts
}

// Target is the config's target.
func (c *Config) Target() Target {
	t, _ := ParseTarget(c.Spec.Target)
	return t
}

// EngineOptions are the render-wide options of the config: its Secret
// copy policy and its target's decorations; warnings go to warn.
func (c *Config) EngineOptions(warn func(string)) engine.Options {
	kv, _ := kubeversion.Parse(c.Spec.KubeVersion) // checked by Check; "" is the default
	opts := engine.Options{FailOnSecretCopy: c.Spec.FailOnSecretCopy, Strict: c.Spec.Strict, Warn: warn, Decorate: c.Target().Decorator(), KubeVersion: kv}
	if len(c.Spec.CRDs) > 0 {
		opts.LoadCRDs = c.CRDs
	}
	return opts
}

// Render renders the config: it loads the framework with its chain,
// builds the request and runs the engine with the config's options.
func (c *Config) Render(ctx context.Context, src Sources, warn func(string)) ([]engine.Item, error) {
	req, err := c.Request(ctx, src)
	if err != nil {
		return nil, err
	}
	return engine.RenderWith(c.EngineOptions(warn), req)
}
