// Package runner runs the render a FunctionConfig asks for: it opens the
// config's sources (local folders, git and OCI through the kinds it is
// given, pinned by the config's lock, prefetched concurrently), loads the
// framework with its extends chain, builds the engine's requests (the
// config's own, and one per Instance object of a KRM function), and
// renders them with the target's decorations (Argo CD or Flux) and the
// CustomResourceDefinitions of spec.crds ([Run.Render]). [LockFile] is
// `kudo-render lock`: it pins every remote source a render reads and the
// digests of its schemas, and writes them back into the config.
//
// It is the wiring every adapter shares (the CLI, the KRM function, the
// Argo CD plugin), so it sits on the adapters' floor: it imports the
// engine and the decorations of the argocd and flux adapters; package
// config, the API it reads, imports none of them.
package runner
