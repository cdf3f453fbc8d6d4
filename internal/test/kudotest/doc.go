// Package kudotest puts what KUDO leaves on a cluster in place, for tests:
// the Operator, OperatorVersion and Instances `kubectl kudo install`
// creates (Export, PackageObjects, InstanceObject), as a file exported
// with kubectl get or on a real API server, and the objects KUDO's
// controller applied for an Instance, as it applied them (Cluster): with a
// controller ownerReference to the Instance,
// kudo.dev/last-applied-configuration and KUDO's field manager "manager".
//
// KUDO's CRDs here are kudo.dev/v1beta1 Operator, OperatorVersion and
// Instance with open schemas, written for the tests: what kudo-render reads
// of those objects is checked by its own code.
package kudotest
