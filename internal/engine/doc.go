// Package engine runs the whole render for the adapters (CLI, KRM
// function, Argo CD plugin): for each [Request] the parameters are
// validated and resolved, the plans scheduled, the tasks rendered and
// folded into one desired state; then every object is enhanced like KUDO
// does, its references (getValueFrom) resolved, its dependencies hashed,
// decorated by the adapter ([Options.Decorate]), digested and sorted
// ([Sort]: by wave, then kustomize's legacy kind order).
//
// The result is neutral [Item]s: an object with its wave, whether it runs
// once (a hook), whether it is applied server-side ([ServerSideApply]
// decides), and where in the plans it comes from. The engine knows no
// GitOps tool: Argo CD's and Flux's annotations are the adapters' (the
// core never imports an adapter; internal/test/arch tests it).
//
// Warnings and notes (conversions, fields an API type lacks, values
// copied out of Secrets, package fields KUDO ignored) are carried on the
// objects they concern ([AnnWarnings]) and reported once each when the
// render ends ([Options.Warn], [Options.Note]).
//
// Rendering is all or nothing: on any error it returns no items, so an
// adapter never prints a partial stream.
package engine
