// Package ocitest runs an OCI registry inside a test process
// (go-containerregistry's pkg/registry, with the referrers API) on the
// loopback address, with optional basic auth, a log of the credentials
// each request carried, and a hook that alters the blobs it serves; and a
// notation signer with a certificate authority of its own. It is for the
// tests of package oci and of the packages that use it: nothing leaves the
// machine.
package ocitest
