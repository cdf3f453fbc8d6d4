// Package differential compares kudo-render's verdict on objects with a
// real API server's, on many generated cases: the test that finds where
// package kube/validate disagrees with Kubernetes.
//
// Seeds are every object the examples and the corpus packages render
// (their defaults, their other plans and the parameter sets the API
// server tests use) and one valid object of every kind Kubernetes serves
// (testdata/kinds.yaml). Each seed is mutated deterministically (Mutate):
// each field deleted, set empty, made too long, given the wrong type,
// list items duplicated, every enum value of the field (read from the
// server's OpenAPI), quantities, name and label limits; Services get a
// matrix of types, ports and traffic policies (ServiceCases).
//
// kudo-render's verdict (Ours) is what a render does with a rendered
// object: decode, normalize, convert, validate. The server's is a
// server-side apply dry run with strict field validation (package
// kubetest), of what kudo-render would emit. A case agrees when both
// refuse or both accept. A disagreement whose server message shows that
// the verdict depends on the cluster (its service range, objects that
// exist only once applied) is classified (Classify) and counted, not
// failed; every other one fails the test with a minimal reproducer
// (Reduce) and both messages.
//
// The test runs a sample of the cases in make test; make differential
// runs a longer sweep:
//
//	make differential                           # every case
//	make differential FLAGS='-cases 20000 -seed 7'
package differential
