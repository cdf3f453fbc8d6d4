// Package object holds the in-memory form of a rendered Kubernetes object:
// a map decoded from YAML, with helpers to read and write nested fields and
// to serialise a list of objects as a deterministic YAML stream.
//
// Every stage after template rendering (plan, enhancer, output adapters)
// works on []*Object; none of them needs typed Kubernetes structs.
//
// One path here is written by hand: the emitter (emit.go) writes most
// documents as sigs.k8s.io/yaml's Marshal would (go-yaml v2 after a JSON
// round trip), without go-yaml's event queue, and hands everything it does
// not cover back to sigs.k8s.io/yaml. It imitates that library byte for
// byte; FuzzEmit and FuzzMarshalTrees (run briefly by make test) compare
// the two on every input the emitter answers, line breaks of every kind
// included. It is kept, measured, but not widened: a new shape of document
// goes to the library.
package object
