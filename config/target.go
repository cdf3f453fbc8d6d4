package config

import "fmt"

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

// Target is the config's target.
func (c *Config) Target() Target {
	t, _ := ParseTarget(c.Spec.Target)
	return t
}
