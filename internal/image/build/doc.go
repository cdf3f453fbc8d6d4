// Command image builds kudo-render's container image as an OCI image
// layout, without a Docker daemon or a base image (internal/image), and
// pushes a layout to a registry. Run it through the Makefile:
//
//	make image                                   # bin/image/, prints the digest
//	make image-push IMAGE=registry.example.com/team/kudo-render:v1.2.3
//
// build: image [-out DIR] -version V [-revision SHA] [-source URL]
// [-created UNIX] [-ca FILE] ARCH=BINARY...
//
// push: image -push [-out DIR] REF...; credentials from
// KUDO_RENDER_REGISTRY_USER and KUDO_RENDER_REGISTRY_PASSWORD, else from
// the docker config (~/.docker/config.json, credential helpers).
package main
