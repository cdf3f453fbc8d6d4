// Package argocd is the Argo CD adapter: [Decorate] writes sync waves,
// Sync hooks and the ServerSideApply sync option; [FromEnv] reads what
// Argo CD gives a config-management plugin (ARGOCD_APP_*, ARGOCD_ENV_*,
// plugin parameters; [InstanceName] is the Application's name of an app in
// any namespace); [AnnounceValues] lists a package's parameters for the
// plugin's dynamic parameters with the values the render uses, and
// [Problem] is the entry that shows what keeps it from rendering;
// [RepositoryRoot] is the folder an application's local paths must stay
// in.
//
// With Decorate every object carries argocd.argoproj.io/sync-wave;
// objects that a plan applies and a later step deletes become run-once
// Sync hooks (argocd.argoproj.io/hook: Sync, hook-delete-policy:
// HookSucceeded) in their wave; objects applied server-side carry
// argocd.argoproj.io/sync-options: ServerSideApply=true.
package argocd
