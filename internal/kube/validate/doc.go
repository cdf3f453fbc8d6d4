// Package validate refuses at render time what a Kubernetes API server
// refuses when the objects are applied, with the API server's own rules,
// so that a broken template fails in the pull request instead of at sync.
//
// For every object of a built-in API group it does what kube-apiserver
// does with a create request:
//
//   - the group, version and kind must be served (servedKinds is the
//     discovery of a kube-apiserver of [ServedVersion] with default
//     flags; an older target may still serve versions removed since, see
//     Options.Older); a misspelt kind gets a "did you mean";
//   - the object is decoded into its Go API type (k8s.io/api) as the
//     server decodes a JSON body, case-sensitive; every value of the
//     wrong type (a port written "3888", replicas: "3") is reported at
//     its field path;
//   - Kubernetes' defaulting functions run, the object is converted to
//     its internal form, and the kind's create validation runs: the
//     hand-written validation of k8s.io/kubernetes/pkg/apis/<group>/
//     validation with the options its registry strategy passes, the
//     generic ObjectMeta checks, and the declarative validation generated
//     into the API types (merged as the server merges them). Names (RFC
//     1123), label keys and values, ports, quantities, selectors that
//     must match their template, required fields: all are the server's
//     rules and the server's messages.
//
// Custom resources of a CustomResourceDefinition of the same render (or
// of Options.CRDs) are validated as the API extensions server treats a
// create by server-side apply (custom.go): unknown fields refused, the
// schema's defaults applied, then its strategy's validation (a DNS
// subdomain name, labels, the OpenAPI schema, embedded resources,
// x-kubernetes-list-type uniqueness, the x-kubernetes-validations CEL
// rules within the server's cost limits). Definitions themselves are
// refused for fields their type does not declare. What typing, compiling
// and evaluating definitions costs is charged to the render's budget
// before it is spent (crdcost.go). Objects of other groups are not
// validated: nothing says what their server accepts.
//
// The registry strategies themselves are not imported (they bring the API
// server's storage, 40 ms of process start-up); what the server does
// before validating a create that changes the verdict is done here: a
// Service's allocations (service.go), each strategy's PrepareForCreate
// (prepare.go), server-side apply's list keys (apply.go), the default
// admission plugins that read the object (admission.go). Every served
// kind is validated or listed in notChecked (docs/validation.md).
//
// Every problem of every object is returned at once, as diagnostics with
// the resource and the field path; the caller adds the template file and
// line.
//
// [Update] does what the API server does with an update: the old
// configuration as the server stored it on create (its defaults and
// allocations), the new one applied over it as server-side and
// client-side apply merge, and the kind's update validation (update.go,
// agreeing with a real kube-apiserver on every update of its tests).
// [Recreatable] says which objects a GitOps tool may delete and create
// again when their update is refused, and [Advice] what to do about the
// others (converge.go).
package validate
