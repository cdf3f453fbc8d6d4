// Package oci reads packages and bases from OCI artifacts and writes them:
// the "oci" kind of the source seam ([NewKind] implements location.Kind),
// spelled wherever a FunctionConfig or a bundle names a folder
// (spec.framework, spec.base, spec.repositories, extends) as
//
//	oci: {url: oci://registry/repository, tag: v1 | digest: sha256:..., path: sub/folder, verify: {...}}
//
// and `kudo-render push` ([Source.Push], [Pack]) writes an artifact in
// Flux's or Argo CD's format, reproducibly. It is built on oras-go v2, the
// client Argo CD, Helm and notation-go use; notation signatures are
// verified in process.
//
// The one thing to know: an artifact is someone else's. A tag resolves to
// a digest, the manifest and the layer are checked against their digests,
// a signature (verify:) is checked before anything else is fetched, every
// size is bounded before it is downloaded or extracted (the --max-oci-*
// limits), every refusal is an [ErrRefused] naming the artifact, and
// nothing of a refused artifact is cached.
//
// docs/oci.md is the reference: reading, pinning, offline use and the
// cache's layout, credentials, signatures, pushing. Package ocitest runs a
// registry inside a test process.
package oci
