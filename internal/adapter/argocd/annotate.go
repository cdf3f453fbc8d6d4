package argocd

import (
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Argo CD annotation keys.
const (
	AnnSyncWave          = "argocd.argoproj.io/sync-wave"
	AnnHook              = "argocd.argoproj.io/hook"
	AnnHookDeletePolicy  = "argocd.argoproj.io/hook-delete-policy"
	AnnSyncOptions       = "argocd.argoproj.io/sync-options"
	ServerSideApplyValue = "ServerSideApply=true"
	// ForceValue makes Argo CD delete and create an object whose update
	// the API server refuses (kubectl apply --force); with client-side
	// apply only, hence ClientSideApplyValue beside it.
	ForceValue           = "Force=true"
	ClientSideApplyValue = "ServerSideApply=false"
)

// Decorate writes Argo CD's annotations: every object's sync wave;
// run-once objects become Sync hooks deleted when they succeed; objects
// applied server-side get the ServerSideApply sync option; objects that
// may be recreated (validate.Recreatable: a Job, an immutable ConfigMap,
// a RoleBinding, ...) get Force=true with ServerSideApply=false, so that
// Argo CD deletes and creates them when, and only when, the API server
// refuses their update. A template's own value of an option wins.
func Decorate(items []engine.Item) {
	for _, it := range items {
		ann := map[string]string{AnnSyncWave: strconv.Itoa(it.Wave)}
		if it.Hook {
			ann[AnnHook] = "Sync"
			ann[AnnHookDeletePolicy] = "HookSucceeded"
		}
		if opts := syncOptions(it, it.Obj.String("metadata", "annotations", AnnSyncOptions)); opts != "" {
			ann[AnnSyncOptions] = opts
		}
		object.SetStrings(it.Obj.Map, ann, "metadata", "annotations")
	}
}

// SyncOptions is the sync-options value Decorate writes on an item whose
// template sets none ("" for none).
func SyncOptions(it engine.Item) string { return syncOptions(it, "") }

// syncOptions adds kudo-render's sync options for it to a template's.
func syncOptions(it engine.Item, opts string) string {
	if !it.Hook && validate.Recreatable(it.Obj) {
		opts = withSyncOption(withSyncOption(opts, ForceValue), ClientSideApplyValue)
	}
	if it.ServerSideApply {
		opts = withSyncOption(opts, ServerSideApplyValue)
	}
	return opts
}

// Recreates says how Argo CD recreates o when the API server refuses its
// update, by o's sync options ("" when it does not): Replace=true with
// Force=true deletes and creates it at every sync; Force=true with
// client-side apply (ServerSideApply=false) deletes and creates it when
// its patch is refused (kubectl apply --force, as
// gitops-engine's applyObject calls it). Server-side apply, and
// Replace=true alone (a PUT, refused alike), do not.
func Recreates(o *object.Object) string {
	opts := map[string]string{}
	for _, opt := range strings.Split(o.String("metadata", "annotations", AnnSyncOptions), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(opt), "=")
		opts[k] = v
	}
	switch {
	case opts["Force"] != "true":
		return ""
	case opts["Replace"] == "true":
		return "Argo CD deletes and creates it at every sync (sync options Replace=true, Force=true)"
	case opts["ServerSideApply"] == "false":
		return "Argo CD deletes and creates it (sync option Force=true with client-side apply)"
	}
	return ""
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
