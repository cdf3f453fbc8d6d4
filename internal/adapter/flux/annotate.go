package flux

import (
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// AnnForce makes Flux recreate an object whose update the API server
// refuses (an immutable field changed).
const AnnForce = "kustomize.toolkit.fluxcd.io/force"

// Decorate writes Flux's annotations: run-once objects and objects that
// may be recreated (validate.Recreatable: a Job, an immutable ConfigMap, a
// RoleBinding, ...) are recreated by Flux when, and only when, the API
// server refuses their update.
func Decorate(items []engine.Item) {
	for _, it := range items {
		if Forced(it) {
			object.SetStrings(it.Obj.Map, map[string]string{AnnForce: "enabled"}, "metadata", "annotations")
		}
	}
}

// Forced reports whether Decorate marks an item with AnnForce.
func Forced(it engine.Item) bool { return it.Hook || validate.Recreatable(it.Obj) }

// Recreates says how Flux recreates o when the API server refuses its
// update ("" when it does not): kustomize-controller deletes and creates
// an object marked with AnnForce when its server-side apply fails with an
// immutable-field error (fluxcd/pkg/ssa).
func Recreates(o *object.Object) string {
	if o.String("metadata", "annotations", AnnForce) == "enabled" {
		return "Flux deletes and creates it (" + AnnForce + ": enabled)"
	}
	return ""
}
