// Package kubeversion is the Kubernetes minor version a render targets:
// [Parse] reads "1.34", "v1.34.4" or "v1.29.0-eks-1" as kubectl prints
// them and refuses versions outside [Oldest]..[Default], the versions this
// build knows what the API server removes.
//
// It imports only the standard library, so that the FunctionConfig API
// (config) checks spec.kubeVersion without the conversions of
// kube/versions and the Kubernetes packages they need.
package kubeversion
