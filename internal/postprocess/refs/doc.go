// Package refs resolves cross-resource references at render time:
// Composable's getValueFrom (github.com/IBM/composable), evaluated against
// the objects of the render instead of a live cluster, so the manifests
// that reach git hold plain values and nothing needs a staged deployment.
//
// The package owns one step, after rendering and before output:
//
//   - [Resolve] replaces, in place, every mapping whose only key is
//     getValueFrom (in any field, list elements and metadata.name
//     included) by the value it points at. The objects being rendered are
//     both targets and sources; lookup objects (the items of a KRM
//     ResourceList) can be read but are not modified.
//   - [ExpandComposables] replaces input items of kind Composable
//     (ibmcloud.ibm.com/v1alpha1) by their resolved spec.template.
//
// A reference has Composable's fields:
//
//	getValueFrom:
//	  kind: Service          # Kind, plural, singular or short name, any case
//	  apiVersion: v1         # optional; without it the core group wins
//	  name: db               # exactly one of name and labels (a subset match)
//	  namespace: app         # default: the referencing object's namespace
//	  path: '{.spec.ports[?(@.name=="http")].port}'
//	  format-transformers: [ToString]
//	  defaultValue: "80"     # when the kind, object or value is not found
//
// Kinds are the built-in Kubernetes kinds (a table with their plural and
// short names), the kinds of the CustomResourceDefinitions of the render
// and the kinds of the objects themselves. The path is a single JSONPath
// expression evaluated with k8s.io/client-go/util/jsonpath; its first match
// is used. The ten transformers of Composable apply left to right.
//
// Resolution is all or nothing and reports every failing reference, each
// error naming the referencing object, the field path of the reference and
// the reference itself. Errors have types, checked with errors.As:
// [IllFormedRefError], [KindNotFoundError], [ObjectNotFoundError],
// [ValueNotFoundError] ([RefNotFound] is any of the last three),
// [TransformError], [CycleError] and [SecretCopyError]. Composable's
// defects are fixed: a filter that matches nothing and an index out of range
// are ValueNotFound (Composable panicked), a failing transformer is an
// error (Composable produced null), a null value is not found.
//
// References may point at values that are themselves references: they are
// resolved depth first in dependency order, a cycle being a [CycleError]
// that lists the references and objects in it. A reference depends on the
// references of its target at or below the fixed start of its path
// (spec.ports for {.spec.ports[?(@.name=="x")].port}) and, without
// namespace, on a reference in its own object's metadata.namespace.
// References in identifying fields (apiVersion, kind, metadata.name,
// metadata.namespace, metadata.labels; a CRD's spec.group, spec.names,
// spec.scope) are resolved first, against the objects whose identifying
// fields hold no reference (those of lookup objects are not resolved: a
// lookup object is found by its identifying fields as written); then every
// object is indexed once, by
// group/kind/namespace/name and by label, and the other references are
// resolved against all of them. The schemas of CustomResourceDefinitions
// (openAPIV3Schema) are not searched for references.
//
// A value copied out of a Secret, directly or through other references,
// into a non-Secret object would land in git in clear text: that is a
// warning (Options.Warn), or an error with Options.FailOnSecretCopy.
package refs
