// Package integration drives the real GitOps clients with the kudo-render
// binary: kpt fn render (exec mutator), kustomize build (exec generator)
// and the Argo CD config-management plugin commands under the environment
// Argo CD sets; and it holds the binary to what a process promises (exit
// statuses, nothing on stdout on an error, the watchdog), with the
// start-up benchmark. It holds tests only; .ci/run installs kpt and
// kustomize.
package integration
