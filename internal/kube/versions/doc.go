// Package versions knows which API versions each Kubernetes version
// serves, and converts objects of removed API versions to their
// successors with Kubernetes' own conversion code, so that KUDO packages
// written for Kubernetes 1.14 to 1.16 render into objects a cluster of
// the target version ([Parse], [Default]: the version of the Kubernetes
// libraries it is built with) accepts and runs as the package meant. In
// the pipeline it runs after rendering and typing (package kube), before
// validation (package validate); [Table] lists every removal.
//
// The one thing to know: a conversion must keep what the object does.
// [Convert] leaves an object alone unless the target no longer serves its
// API version; it then writes out the defaults the successor changed, and
// refuses (a diagnostic naming the field and what to change) where data
// would be lost or the successor reads the object differently. The
// schemes of the API groups are private and registered on first use.
// Convert is safe for concurrent use.
//
// docs/kubernetes-versions.md is the reference: choosing the target, what
// a conversion does, when it refuses, the rules of single kinds,
// CustomResourceDefinitions, kinds without Go types left, the table
// (generated from Table by TestDocTable) and what it costs.
package versions
