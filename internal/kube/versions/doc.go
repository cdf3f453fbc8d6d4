// Package versions knows which API versions each Kubernetes version
// serves, and converts objects of removed API versions to their
// successors, so that KUDO packages written for Kubernetes 1.14 to 1.16
// render into objects a cluster of the target version accepts and runs
// as the package meant.
//
// # Target versions
//
// A render targets one Kubernetes minor version ([Version]; [Parse] reads
// "1.34", "v1.34", "1.34.4", "v1.34.4"). [Default], the newest version
// supported, is the version of the Kubernetes libraries this package is
// built with: their Go types, conversion and defaulting functions, and the
// removals their types declare, are what it knows; a newer target is
// refused. [Oldest] is the oldest version KUDO packages declare; before
// 1.16 nothing is removed, so such targets keep every object as written.
//
// # The table
//
// [Table] lists every removal: the API version and kind, the Kubernetes
// version that stopped serving it, its successors (the API versions of
// the same kind that replace it, each with the version that first serves
// it) or, for kinds without successor (PodSecurityPolicy), what to use
// instead. It holds every removal of the Kubernetes deprecation guide
// (1.16 to 1.32), the beta API versions whose declared lifecycle ended
// from 1.33 to 1.37 (the prerelease-lifecycle markers of k8s.io/api,
// which kube-apiserver follows, checked by a test), and
// rbac.authorization.k8s.io/v1alpha1. docs/kubernetes-versions.md shows
// it, generated.
//
// # Conversion
//
// [Convert] leaves an object alone unless the target no longer serves its
// API version. It then converts the object to the first successor the
// target serves with Kubernetes' own code: the object is read strictly
// into the Go type of its version (k8s.io/api), converted to the internal
// type and on to the successor by the generated and hand-written
// conversion functions of k8s.io/kubernetes/pkg/apis/<group>/<version>
// (k8s.io/apiextensions-apiserver for CustomResourceDefinitions), as
// kube-apiserver converts stored objects. The Go types, conversions and
// defaults live in private runtime.Schemes, one per API group, registered
// from the packages' AddToScheme functions on the first conversion into
// the group (never from their install packages, which fill the global
// legacyscheme in their init functions): a render without removed API
// versions pays nothing for them, one that converts PodDisruptionBudgets
// only for the policy group.
//
// A conversion must keep what the object does:
//
//   - No data may be lost: the converted object, back in the internal
//     version, holds what the original held there, and the conversion code
//     must not have parked a field in an annotation (spec.rollbackTo,
//     spec.templateGeneration), since the successor does not act on it.
//   - Defaults the successor changed are written out. The old version's
//     defaults are applied to the object, the result converted, and
//     compared with the converted object under the successor's defaults;
//     each field that differs gets the old value (an extensions/v1beta1
//     Deployment keeps revisionHistoryLimit 2147483647, "all", a
//     v1beta1 StatefulSet updateStrategy OnDelete). The comparison is
//     generic: no kind has rules of its own for it. Values written out
//     that the successor's defaults give anyway are left out again.
//   - Where the successor reads the same object differently and no value
//     means the same, the conversion is refused: a policy/v1beta1
//     PodDisruptionBudget with an empty selector (none selected there,
//     every pod of the namespace in policy/v1), a webhook with side
//     effects Unknown, a CustomResourceDefinition whose schema is not
//     structural. Every refusal is a *diag.Diagnostic naming the field,
//     the successor and what to change.
//
// CustomResourceDefinitions of apiextensions.k8s.io/v1beta1 keep unknown
// fields by default and need no schema; v1 needs a structural schema and
// refuses preserveUnknownFields: true. crd.go rewrites them into the
// equivalent v1beta1 object v1 accepts before converting (a schema that
// accepts anything where there was none, x-kubernetes-preserve-unknown-
// fields on every object of a schema that kept unknown fields), then
// checks each schema with kube-apiserver's structural schema code.
//
// The Go types of autoscaling/v2beta1 and v2beta2 are gone from the
// Kubernetes libraries: HorizontalPodAutoscalers are converted field by
// field as Kubernetes' conversion did (hpa.go), and read strictly as
// autoscaling/v2. APIService and the extensions/v1beta1
// PodSecurityPolicy have the fields of their successor: only their API
// version changes.
//
// # Output
//
// The converted object replaces the content of the object as plain values
// (map[string]any, []any, string, int64, float64, bool), without the
// noise of a typed round trip: no creationTimestamp: null, status: {} or
// empty structs the input did not have, while pointers to empty structs
// (emptyDir: {}) stay. Values the input wrote at a place the successor
// has too keep their spelling (cpu: "0.5" is not rewritten 500m), and
// zero values the input wrote (globalDefault: false, args: []) stay.
//
// Convert is safe for concurrent use.
package versions
