// Package engine runs the whole render for the adapters (CLI, KRM
// function, Argo CD plugin): parameters are resolved, plans scheduled,
// tasks rendered, the results folded into one desired state, enhanced like
// KUDO does, annotated for the GitOps target and sorted.
//
// Render is all or nothing: on any error it returns no objects, so an
// adapter never prints a partial stream.
package engine
