package argocd

import (
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Argo CD annotation keys.
const (
	AnnSyncWave          = "argocd.argoproj.io/sync-wave"
	AnnHook              = "argocd.argoproj.io/hook"
	AnnHookDeletePolicy  = "argocd.argoproj.io/hook-delete-policy"
	AnnSyncOptions       = "argocd.argoproj.io/sync-options"
	ServerSideApplyValue = "ServerSideApply=true"
)

// Decorate writes Argo CD's annotations: every object's sync wave;
// run-once objects become Sync hooks deleted when they succeed; objects
// applied server-side get the ServerSideApply sync option (unless the
// template already set that option).
func Decorate(items []engine.Item) {
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

// AnnHelmHook is Helm's hook annotation, which Argo CD honours as a hook.
const AnnHelmHook = "helm.sh/hook"

// Hooked reports whether Argo CD runs o as a hook (applied once in its
// phase, then deleted by its policy, and never kept in sync) because of
// an annotation: argocd.argoproj.io/hook or helm.sh/hook, whoever wrote
// it.
func Hooked(o *object.Object) bool {
	return o.String("metadata", "annotations", AnnHook) != "" || o.String("metadata", "annotations", AnnHelmHook) != ""
}
