// Package diff compares two renders of kudo-render for review: what a
// change to a FunctionConfig, a parameter, a base ref or a package
// version does to the objects a cluster will get.
//
// [Compare] matches the objects of the two renders by API group (not
// version), kind, namespace and name, so an apiVersion bump is a field
// change, not a removal plus an addition. Each changed pair is compared
// field by field by a [Differ] (the default wraps github.com/homeport/dyff;
// the package never depends on it outside dyff.go). Moves between waves,
// into or out of hooks and between steps are changes of their own
// ([Move]): a reviewer sees "this Job now runs before the StatefulSet".
//
// Noise control: kudo-render's own bookkeeping (resource versions,
// processed markers, provenance annotations, the plan/phase/step
// annotations and the Argo CD wave and hook annotations, which the moves
// already report) is hidden unless [Options.ShowBookkeeping]; more fields
// are hidden with [Options.Ignore] ([ParseRule]). An object that changed
// only in ignored fields (and bookkeeping) is [Suppressed]: listed, but not
// counted as a change; one that changed only in bookkeeping is not listed
// (its provenance alone: another source or git commit of the package).
//
// Secrets: what changed is decided on the raw values; only then are the
// values of a Secret's data and stringData, and of annotations that copy
// a whole object (kubectl's last-applied configuration), and values a
// reference copied from a Secret ([CopiedSecret], [Options.SecretValues])
// replaced by [Hidden]. The report still says which keys were added, removed or
// changed, never a value or a length. [Options.ShowSecrets] turns masking
// off.
//
// Updates: with [Options.Update] (validate.Validator.Update), each
// changed object's update is validated as the API server validates it; an
// update it refuses is reported ([Update]) with how the target recreates
// the object ([Options.Recreates]: Argo CD's Force=true, Flux's force) or,
// when nothing does, what to do: the sync would fail ([Counts].Refused).
//
// A [Report] is written for people ([Report.Text], coloured on request),
// as a pull-request comment ([Report.Markdown], kept under a size limit
// with a visible truncation marker) or as JSON ([Report.JSON]). Everything
// is in a deterministic order.
package diff
