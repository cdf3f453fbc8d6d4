// Package apischeme holds the runtime schemes of the built-in Kubernetes
// API groups that kudo-render converts and validates objects of: for each
// group, the internal and versioned Go types with Kubernetes' own
// defaulting, conversion and declarative validation functions
// (k8s.io/kubernetes/pkg/apis/<group>/..., k8s.io/apiextensions-apiserver
// for CustomResourceDefinitions).
//
// The schemes are private to kudo-render (built from the packages'
// AddToScheme functions, never their install packages, which fill the
// global legacyscheme in their initialisers) and built group by group on
// first use: a render of ConfigMaps and Deployments pays only for the core
// and apps groups (all groups together take about 5 ms). Package
// kube/versions converts with them, package kube/validate validates.
package apischeme
