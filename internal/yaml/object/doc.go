// Package object holds the in-memory form of a rendered Kubernetes object:
// a map decoded from YAML, with helpers to read and write nested fields and
// to serialise a list of objects as a deterministic YAML stream.
//
// Every stage after template rendering (plan, enhancer, output adapters)
// works on []*Object; none of them needs typed Kubernetes structs.
package object
