package gitops

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/kudo-render/kudo-render/object"
)

// Target is the kind of output.
type Target string

// Targets.
const (
	ArgoCD Target = "argocd"
	Plain  Target = "plain"
	// Flux lays the output out in one folder per wave with Flux
	// Kustomizations chained by dependsOn (see WriteFlux).
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

// Argo CD annotation keys.
const (
	AnnSyncWave          = "argocd.argoproj.io/sync-wave"
	AnnHook              = "argocd.argoproj.io/hook"
	AnnHookDeletePolicy  = "argocd.argoproj.io/hook-delete-policy"
	AnnSyncOptions       = "argocd.argoproj.io/sync-options"
	ServerSideApplyValue = "ServerSideApply=true"
)

// Item is one object of the output with its place in the order.
type Item struct {
	Obj  *object.Object
	Wave int
	Hook bool
	// ServerSideApply asks Argo CD to apply the object server-side.
	ServerSideApply bool
}

// AnnFluxForce makes Flux recreate an object it cannot patch (Jobs).
const AnnFluxForce = "kustomize.toolkit.fluxcd.io/force"

// Annotate writes the target's annotations.
func Annotate(items []Item, target Target) {
	if target == Flux {
		// Run-once Jobs are immutable: let Flux recreate them on change.
		for _, it := range items {
			if it.Hook {
				object.SetStrings(it.Obj.Map, map[string]string{AnnFluxForce: "enabled"}, "metadata", "annotations")
			}
		}
		return
	}
	if target != ArgoCD {
		return
	}
	for _, it := range items {
		ann := map[string]string{AnnSyncWave: strconv.Itoa(it.Wave)}
		if it.Hook {
			ann[AnnHook] = "Sync"
			ann[AnnHookDeletePolicy] = "HookSucceeded"
		}
		if it.ServerSideApply {
			ann[AnnSyncOptions] = withSyncOption(it.Obj.String("metadata", "annotations", AnnSyncOptions), ServerSideApplyValue)
		}
		object.SetStrings(it.Obj.Map, ann, "metadata", "annotations")
	}
}

// Sort orders items by wave, then by group, version and kind in
// kustomize's legacy order (kind first), then namespace and name. The sort
// is stable.
func Sort(items []Item) {
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := cmp.Compare(a.Wave, b.Wave); c != 0 {
			return c
		}
		ga, gb := gvk(a.Obj), gvk(b.Obj)
		if !ga.Equals(gb) {
			if ga.IsLessThan(gb) {
				return -1
			}
			if gb.IsLessThan(ga) {
				return 1
			}
		}
		if c := cmp.Compare(a.Obj.Namespace(), b.Obj.Namespace()); c != 0 {
			return c
		}
		return cmp.Compare(a.Obj.Name(), b.Obj.Name())
	})
}

func gvk(o *object.Object) resid.Gvk {
	return resid.NewGvk(o.Group(), version(o), o.Kind())
}

func version(o *object.Object) string {
	av := o.APIVersion()
	for i := len(av) - 1; i >= 0; i-- {
		if av[i] == '/' {
			return av[i+1:]
		}
	}
	return av
}

// withSyncOption adds opt to a comma-separated sync-options value unless an
// option of the same name is already there (the template's choice wins).
func withSyncOption(existing, opt string) string {
	name, _, _ := strings.Cut(opt, "=")
	for _, o := range strings.Split(existing, ",") {
		if n, _, _ := strings.Cut(strings.TrimSpace(o), "="); n == name {
			return existing
		}
	}
	if strings.TrimSpace(existing) == "" {
		return opt
	}
	return existing + "," + opt
}
