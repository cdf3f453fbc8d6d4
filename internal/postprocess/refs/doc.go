// Package refs resolves cross-resource references at render time:
// Composable's getValueFrom (github.com/IBM/composable), evaluated against
// the objects of the render instead of a live cluster, so the manifests
// that reach git hold plain values and nothing needs a staged deployment.
// In the pipeline it is a post-processing step, after rendering and
// before the digests and the output: [Resolve] replaces every mapping
// whose only key is getValueFrom by the value it points at, and
// [ExpandComposables] turns Composable input items into their template.
//
// The one thing to know: resolution is all or nothing and in dependency
// order. A reference may point at another reference (a cycle is a
// [CycleError]), identifying fields are resolved before anything is
// looked up by them, every failing reference is reported with its typed
// error, and a value copied out of a Secret into another kind of object
// is a warning ([SecretCopyError] with Options.FailOnSecretCopy).
//
// docs/references.md is the reference: the fields of a reference, the
// transformers, how references are resolved, the errors.
package refs
