// Package oci reads packages and bases from OCI artifacts and writes them:
// the "oci" kind of the source seam (package location), spelled
//
//	oci: {url: oci://registry/repository, tag: v1 | digest: sha256:..., path: sub/folder, verify: {...}}
//
// wherever a FunctionConfig or a bundle names a folder (spec.framework,
// spec.base, spec.repositories, extends). It is built on oras-go v2, the
// client Argo CD, Helm and notation-go use: one client pulls, pushes and
// checks notation signatures (notation-go verifies in process, on oras).
//
// # Reading
//
// A tag is resolved to the digest of its manifest (`kudo-render lock`
// writes it as digest: beside tag:, as it writes a git commit); a digest
// wins over a tag. When the source has verify:, a notation signature of
// that digest must verify against the trusted certificate (and identities)
// before anything else of the artifact is fetched. The manifest is then
// fetched by digest and checked against it (a registry cannot swap it),
// must be an image manifest of exactly one layer of a media type in
// [LayerTypes] (Flux's content layer, the OCI image layer Argo CD accepts,
// Docker's), and the layer must fit --max-oci-layer-bytes before it is
// downloaded; it is written to a file while its digest and size are
// verified, then extracted: regular files and folders only (links,
// devices, names that leave the artifact and duplicates are refused),
// within --max-oci-entries, --max-oci-tree-bytes, --max-file-bytes and
// --max-oci-ratio (bytes extracted per byte downloaded, a sparse entry's
// holes included), every network operation of a Source within one
// --oci-timeout (deadline.go). Every refusal is an [ErrRefused] naming the
// artifact, and nothing of it is cached.
//
// A registry on the loopback address (localhost, 127.0.0.0/8, ::1) is
// spoken to over plain HTTP, as oras and Flux allow; every other only over
// HTTPS. Credentials ([Credentials]) go only to their own registry: the
// environment's to the registries KUDO_RENDER_OCI_HOSTS lists (required
// with them), the Docker config's per registry.
//
// # Cache
//
// The cache is content-addressed, like the git cache safe to share between
// processes:
//
//	<cache>/sha256/<manifest hex>/manifest.json   the verified manifest
//	<cache>/sha256/<manifest hex>/tree/...        the extracted layer
//	<cache>/sha256/<manifest hex>/meta.json       URL, layer, time (written last)
//	<cache>/signatures/sha256/<hex>/<sig>.json    notation envelopes that verified
//	<cache>/tags/<hash>.json                      last online resolution of a tag
//	<cache>/locks/<hex>.lock                      flock(2) per digest
//	<cache>/tmp/                                  entries being written
//
// An entry is written in tmp/ under the digest's lock and renamed into
// place once complete; entries never change afterwards. Offline
// ([Options.Offline]) a digest opens from the cache, a tag resolves to its
// last online digest with a warning, and verify: checks the cached
// signatures, so a pinned, verified render works without the network.
//
// # Writing
//
// [Source.Push] packs a folder reproducibly ([Pack]: sorted entries, fixed
// times, modes and owners, fixed gzip header) into an artifact in Flux's
// format (config application/vnd.cncf.flux.config.v1+json, one layer
// application/vnd.cncf.flux.content.v1.tar+gzip) or Argo CD's (one layer
// application/vnd.oci.image.layer.v1.tar+gzip), with the
// org.opencontainers.image.source, .revision and .created annotations:
// the same folder and annotations give the same digest.
//
// Package ocitest runs a registry inside a test process.
package oci
