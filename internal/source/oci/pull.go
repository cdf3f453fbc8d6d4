package oci

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// maxManifestBytes bounds a manifest (as oras bounds metadata).
const maxManifestBytes = 4 << 20

// pull fetches the manifest d of r and its one layer into dir: the
// manifest checked against d, the layer against the manifest's digest and
// size, extracted into dir/tree within the limits.
func (s *Source) pull(ctx context.Context, r Repo, d digest.Digest, dir string) (meta, error) {
	where := r.String() + "@" + d.String()
	repo := s.repository(r)
	desc, rc, err := repo.FetchReference(ctx, d.String())
	if err != nil {
		return meta{}, fmt.Errorf("%s: %w", where, err)
	}
	defer rc.Close()
	if desc.Size > maxManifestBytes {
		return meta{}, refuse("%s: the manifest has %d bytes, more than %d", where, desc.Size, maxManifestBytes)
	}
	desc.Digest = d // what was asked for, not what the registry says
	data, err := content.ReadAll(rc, desc)
	if err != nil {
		return meta{}, refuse("%s: the manifest does not match its digest (tampered or corrupted): %v", where, err)
	}
	layer, err := checkManifest(desc.MediaType, data, where, s.opts.Limits)
	if err != nil {
		return meta{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o600); err != nil {
		return meta{}, fmt.Errorf("%s: cannot cache the manifest: %w", where, err)
	}
	if err := s.pullLayer(ctx, repo, layer, dir, where); err != nil {
		return meta{}, err
	}
	return meta{URL: r.String(), Digest: d.String(), Layer: layer.Digest.String(), Type: layer.MediaType, Fetched: time.Now().UTC()}, nil
}

// checkManifest accepts an image manifest of exactly one layer of a media
// type kudo-render extracts, within the layer budget, and returns the layer.
func checkManifest(mediaType string, data []byte, where string, lim limits.Limits) (ocispec.Descriptor, error) {
	var m ocispec.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return ocispec.Descriptor{}, refuse("%s: the manifest is not JSON: %v", where, err)
	}
	if mediaType == "" || mediaType == "application/json" {
		mediaType = m.MediaType
	}
	if mediaType != ocispec.MediaTypeImageManifest && mediaType != DockerManifestType {
		return ocispec.Descriptor{}, refuse("%s: a manifest of media type %q is not an artifact kudo-render reads (an image manifest of one layer)", where, mediaType)
	}
	if len(m.Layers) != 1 {
		return ocispec.Descriptor{}, refuse("%s: the artifact has %d layers; kudo-render reads artifacts of exactly one layer (Flux's and Argo CD's formats)", where, len(m.Layers))
	}
	l := m.Layers[0]
	if !slices.Contains(LayerTypes, l.MediaType) {
		return ocispec.Descriptor{}, refuse("%s: layer media type %q is not one kudo-render extracts (%v)", where, l.MediaType, LayerTypes)
	}
	if err := l.Digest.Validate(); err != nil {
		return ocispec.Descriptor{}, refuse("%s: layer digest %q: %v", where, l.Digest, err)
	}
	if l.Size <= 0 {
		return ocispec.Descriptor{}, refuse("%s: the layer has no size", where)
	}
	if l.Size > lim.OCILayerBytes {
		return ocispec.Descriptor{}, fmt.Errorf("%w (the layer has %d bytes)", limits.Err("oci-layer-bytes", lim.OCILayerBytes, where), l.Size)
	}
	return l, nil
}

// pullLayer downloads the layer into a file of dir, verifying its digest
// and size as it is written, then extracts it into dir/tree.
func (s *Source) pullLayer(ctx context.Context, repo interface {
	Fetch(context.Context, ocispec.Descriptor) (io.ReadCloser, error)
}, layer ocispec.Descriptor, dir, where string) error {
	rc, err := repo.Fetch(ctx, layer)
	if err != nil {
		return fmt.Errorf("%s: layer %s: %w", where, layer.Digest, err)
	}
	defer rc.Close()
	f, err := os.CreateTemp(dir, "layer-*")
	if err != nil {
		return fmt.Errorf("%s: cannot cache layer %s: %w", where, layer.Digest, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	vr := content.NewVerifyReader(rc, layer)
	if _, err := io.Copy(f, vr); err != nil {
		return layerError(where, layer, err)
	}
	if err := vr.Verify(); err != nil {
		return layerError(where, layer, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: layer %s: %w", where, layer.Digest, err)
	}
	tree := filepath.Join(dir, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		return fmt.Errorf("%s: cannot extract layer %s: %w", where, layer.Digest, err)
	}
	return extract(f, gzipped(layer.MediaType), tree, budget{lim: s.opts.Limits, compressed: layer.Size, where: where})
}

func layerError(where string, layer ocispec.Descriptor, err error) error {
	if errors.Is(err, content.ErrMismatchedDigest) || errors.Is(err, content.ErrTrailingData) || errors.Is(err, io.ErrUnexpectedEOF) {
		return refuse("%s: layer %s does not match its digest and size (tampered or corrupted): %v", where, layer.Digest, err)
	}
	return fmt.Errorf("%s: layer %s: %w", where, layer.Digest, err)
}
