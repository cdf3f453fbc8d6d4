// Package image builds kudo-render's container image without a Docker
// daemon and without a base image: one layer, made here byte for byte,
// holding the static binary, /etc/passwd and /etc/group with non-root
// users, the CA certificates git over HTTPS needs, a writable /tmp and
// home folders. Every timestamp, owner and mode is fixed, so the same
// inputs give the same digest. The image is written as an OCI image
// layout (one index, one manifest per architecture) and pushed from it.
package image
