// Package integration drives the real GitOps clients with the kudo-render
// binary: kpt fn render (exec mutator), kustomize build (exec generator)
// and the Argo CD config-management plugin commands under the environment
// Argo CD sets. It holds tests only; .ci/run installs kpt and kustomize.
package integration
