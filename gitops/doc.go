// Package gitops orders the desired state for GitOps tools and writes the
// annotations they read.
//
// With the argocd target every object carries
// argocd.argoproj.io/sync-wave; objects that a plan applies and a later step
// deletes become run-once Sync hooks (argocd.argoproj.io/hook: Sync,
// hook-delete-policy: HookSucceeded) in their wave; objects of KEP-0009
// framework bundles carry argocd.argoproj.io/sync-options:
// ServerSideApply=true unless the config turns it off. The plain target
// writes no Argo CD annotations.
//
// [Sort] gives the deterministic output order: by wave, then by kind in
// kustomize's legacy order, then namespace and name.
package gitops
