// Package plan turns KUDO plans into a GitOps order.
//
// KUDO runs a plan step by step in a live cluster. A GitOps tool instead
// applies a desired state, optionally in waves. [Schedule] walks the plans
// to render and assigns every task invocation a wave:
//
//   - a serial plan runs its phases one after the other; a parallel plan
//     starts all phases in the same wave (as in KUDO, only the exact
//     strategy "serial" is serial);
//   - a serial phase gives each step its own wave; the steps of a parallel
//     phase share one wave;
//   - several plans are rendered one after the other.
//
// Toggle tasks describe state, not actions: a Toggle whose parameter is
// true contributes its resources to the desired state even when it sits
// only in a plan that is not rendered (for example kafka's cruise-control
// plan, triggered by ENABLE_CRUISE_CONTROL). Those invocations come after
// the rendered plans' last wave, each plan in its own order, all such plans
// starting at the same wave.
//
// [State] folds the rendered objects of the invocations into the desired
// state: an object that is applied and later deleted becomes a run-once
// hook in the wave where it was applied; an object only deleted, or toggled
// off, is absent.
//
// The package knows bundles and parameter values; it does not render
// templates.
package plan
