// Package kube makes rendered objects what a strict API server accepts,
// the way Kubernetes reads them:
//
//   - Scalars are typed as Kubernetes reads YAML. kubectl, Argo CD and
//     KUDO read manifests with YAML 1.1 rules, where an unquoted yes, no,
//     on, off, y or n is a boolean; templates are decoded with YAML 1.2,
//     where they are strings (object.Object.Bool11 remembers where they
//     were). Where the field is a boolean in the kind's schema, the value
//     becomes the boolean; where it is a string, it stays the string
//     (kubectl would fail on `value: yes` in an env var); where no schema
//     says (kinds with no known schema, free-form fields), it becomes the
//     boolean, as Kubernetes' reader makes it. Schemas are the built-in
//     API types (the Go types of k8s.io/api, compiled into a table in
//     types_gen.go that a test keeps equal to them) and the
//     CustomResourceDefinitions of the same render (openAPIV3Schema).
//   - Objects of built-in kinds carry only fields of their API type. KUDO
//     decoded every object into its Go type before applying it, which
//     dropped fields the API no longer has (spec.template.metadata.
//     initializers, removed in Kubernetes 1.14); strict field validation
//     (kubectl since 1.27, Argo CD) refuses them. Each such field is
//     removed and reported as a warning; strict mode makes it an error.
//
// Objects of built-in kinds otherwise stay exactly as rendered: no round
// trip through the Go types (which would add creationTimestamp: null and
// reorder fields).
package kube
