package flux

import (
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// AnnForce makes Flux recreate an object it cannot patch (Jobs).
const AnnForce = "kustomize.toolkit.fluxcd.io/force"

// Decorate writes Flux's annotations: run-once objects (Jobs, which are
// immutable) are recreated by Flux when they change.
func Decorate(items []engine.Item) {
	for _, it := range items {
		if it.Hook {
			object.SetStrings(it.Obj.Map, map[string]string{AnnForce: "enabled"}, "metadata", "annotations")
		}
	}
}
