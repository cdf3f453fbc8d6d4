package oci

import (
	"strings"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Media types of the artifacts kudo-render reads and writes.
const (
	// FluxConfigType is the config of Flux's `flux push artifact`.
	FluxConfigType = "application/vnd.cncf.flux.config.v1+json"
	// FluxContentType is the one layer of a Flux artifact.
	FluxContentType = "application/vnd.cncf.flux.content.v1.tar+gzip"
	// ArtifactType is the artifactType of `kudo-render push --format argocd`.
	ArtifactType = "application/vnd.kudorender.package.v1"
	// DockerLayerType is a Docker image layer.
	DockerLayerType = "application/vnd.docker.image.rootfs.diff.tar.gzip"
	// DockerManifestType is a Docker image manifest.
	DockerManifestType = "application/vnd.docker.distribution.manifest.v2+json"
)

// Annotations of the source and revision (Flux's and the OCI's).
const (
	AnnotationSource   = ocispec.AnnotationSource
	AnnotationRevision = ocispec.AnnotationRevision
	AnnotationCreated  = ocispec.AnnotationCreated
)

// LayerTypes are the layer media types kudo-render extracts: Flux's, the
// OCI image layer (Argo CD's default) gzipped or not, and Docker's.
var LayerTypes = []string{FluxContentType, ocispec.MediaTypeImageLayerGzip, ocispec.MediaTypeImageLayer, DockerLayerType}

// gzipped reports whether a layer of an accepted media type is gzipped.
func gzipped(mediaType string) bool {
	return strings.HasSuffix(mediaType, "gzip")
}

// Formats are what `kudo-render push --format` writes.
var Formats = map[string]Format{
	"flux":   {ConfigType: FluxConfigType, LayerType: FluxContentType},
	"argocd": {ConfigType: ocispec.MediaTypeEmptyJSON, LayerType: ocispec.MediaTypeImageLayerGzip, ArtifactType: ArtifactType},
}

// Format is the media types of one kind of artifact.
type Format struct {
	ConfigType, LayerType, ArtifactType string
}
