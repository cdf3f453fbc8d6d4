// Package adopt takes a live KUDO install over for a GitOps tool without
// restarting or deleting anything.
//
// KUDO's controller left every object it applied with a controller
// ownerReference to its Instance, its field ownership under KUDO's
// client-side field manager ("manager", KUDO's binary) and a finalizer on
// the Instance. Deleting the Instance, or KUDO's CRDs, garbage-collects the
// workloads; a GitOps tool applying the same objects cannot drop a field
// KUDO set, because the field stays KUDO's.
//
// Check renders nothing itself: it takes what kudo-render rendered for an
// instance and compares it with the cluster through a server-side apply
// dry run under the GitOps tool's field manager (argocd-controller or
// kustomize-controller, forced, as both tools apply). Each object is
//
//   - unchanged: the apply changes nothing but kudo-render's and the GitOps
//     tool's bookkeeping annotations;
//   - changed: field by field, as `kudo-render diff` shows changes;
//   - restarts pods: its pod template changes (a rollout);
//   - cannot apply: the API server refuses the apply (immutable fields:
//     volumeClaimTemplates, selectors, clusterIP, a Job's template...);
//   - rendered, not live: the apply creates it (a hook that is not live
//     is listed apart: it runs at every sync);
//   - live, not rendered: KUDO's (owned by one of the Instances), with no
//     counterpart in the render.
//
// Objects another client changed since KUDO applied them (kubectl edit,
// scale, patch) name that client and when.
//
// Apply acts only on a clean check (or when told to accept changes) and
// never deletes, recreates or changes the spec of anything. Per object it
// removes the ownerReferences to the Instances with a JSON patch that
// first tests the owner's uid, then hands the fields KUDO's manager owns
// to the GitOps tool's manager (client-go's csaupgrade), so its next apply
// can drop what the render no longer has. Last it removes KUDO's cleanup
// finalizer from the Instances, so deleting them runs no cleanup plan and
// does not hang without KUDO's controller. It refuses, changing nothing,
// while KUDO's controller runs or an admission webhook for kudo.dev
// objects is registered (its service is gone once the controller is
// scaled down, and it fails closed). Every step tests what it changes
// and skips what is already done: a run stopped half-way is run again.
package adopt
