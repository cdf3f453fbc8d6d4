// Package daytwo is the end-to-end test of day two under GitOps: each
// package of the corpus and each example is rendered, applied to the real
// API server of the tests the way Argo CD (client-side apply with
// kubectl's three-way merge and --force, server-side apply, Replace,
// hooks and their delete policies, pruning) and Flux (fluxcd/pkg/ssa's
// ResourceManager with kustomize-controller's options, the force
// annotation, pruning) apply it, then rendered with other parameters and
// applied twice. It checks that kudo-render diff says beforehand what
// the API server refuses and what the tool recreates, that following its
// advice converges, and that nothing else is written or lost. It holds
// tests only.
package daytwo
