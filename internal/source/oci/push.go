package oci

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/registry"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// PushOptions say what `kudo-render push` writes besides the files.
type PushOptions struct {
	// Format is "flux" (Flux's `flux push artifact`) or "argocd" (the OCI
	// image layer Argo CD accepts by default).
	Format string
	// Source and Revision are the org.opencontainers.image.source and
	// .revision annotations (Flux shows them: a git URL, "main@sha1:...").
	Source, Revision string
	// Created is the org.opencontainers.image.created annotation: fixed by
	// the caller (a commit's time), so the same input gives the same digest.
	Created time.Time
}

// ParseTarget parses oci://registry/repository:tag.
func ParseTarget(target string) (Repo, string, error) {
	rest, ok := strings.CutPrefix(target, Scheme)
	if !ok {
		return Repo{}, "", fmt.Errorf("%q: want oci://registry/repository:tag", target)
	}
	ref, err := registry.ParseReference(rest)
	if err != nil || ref.Reference == "" || ref.ValidateReferenceAsDigest() == nil {
		return Repo{}, "", fmt.Errorf("%q: want oci://registry/repository:tag (a tag, not a digest)", target)
	}
	return Repo{Registry: ref.Registry, Repository: ref.Repository}, ref.Reference, nil
}

// Push packs dir (see [Pack]) into an artifact of the format and pushes it
// to target (oci://registry/repository:tag). It returns the manifest's
// descriptor: the same folder and options give the same digest.
func (s *Source) Push(ctx context.Context, dir, target string, o PushOptions) (ocispec.Descriptor, error) {
	r, tag, err := ParseTarget(target)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	layer, err := Pack(dir, s.opts.Limits)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	blobs, manifest, err := Artifact(layer, o)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	return manifest.Desc, s.PushArtifact(ctx, r, tag, blobs, manifest)
}

// PushArtifact pushes the blobs the registry does not have, then the
// manifest under tag.
func (s *Source) PushArtifact(ctx context.Context, r Repo, tag string, blobs []Blob, manifest Blob) error {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	defer activity.WaitingOn("OCI push of " + r.String() + ":" + tag)()
	repo := s.repository(r)
	for _, b := range blobs {
		if ok, err := repo.Exists(ctx, b.Desc); err == nil && ok {
			continue
		}
		if err := repo.Push(ctx, b.Desc, bytes.NewReader(b.Data)); err != nil {
			return s.timedOut(ctx, r.String()+":"+tag, fmt.Errorf("%s: pushing %s: %w", r, b.Desc.Digest, err))
		}
	}
	if err := repo.PushReference(ctx, manifest.Desc, bytes.NewReader(manifest.Data), tag); err != nil {
		return s.timedOut(ctx, r.String()+":"+tag, fmt.Errorf("%s: pushing the manifest: %w", r, err))
	}
	return nil
}

// Blob is one blob of an artifact: a config, a layer, a manifest.
type Blob struct {
	Desc ocispec.Descriptor
	Data []byte
}

// NewBlob describes data.
func NewBlob(mediaType string, data []byte) Blob {
	return Blob{Desc: ocispec.Descriptor{MediaType: mediaType, Digest: digest.FromBytes(data), Size: int64(len(data))}, Data: data}
}

// Artifact makes the config and layer blobs and the manifest of a layer
// in the format of o.
func Artifact(layer []byte, o PushOptions) ([]Blob, Blob, error) {
	f, ok := Formats[o.Format]
	if !ok {
		return nil, Blob{}, fmt.Errorf("format %q: want flux or argocd", o.Format)
	}
	config := NewBlob(f.ConfigType, []byte("{}"))
	l := NewBlob(f.LayerType, layer)
	ann := map[string]string{AnnotationCreated: o.Created.UTC().Format(time.RFC3339)}
	if o.Source != "" {
		ann[AnnotationSource] = o.Source
	}
	if o.Revision != "" {
		ann[AnnotationRevision] = o.Revision
	}
	m := ocispec.Manifest{
		Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
		ArtifactType: f.ArtifactType, Config: config.Desc, Layers: []ocispec.Descriptor{l.Desc}, Annotations: ann,
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, Blob{}, err
	}
	return []Blob{config, l}, NewBlob(ocispec.MediaTypeImageManifest, data), nil
}

// Pack makes the layer of dir reproducibly: a gzipped tar of its folders
// and regular files in name order (.git left out), every time 1970-01-01,
// files 0644, folders 0755, owner 0, so the same files give the same bytes.
// Symbolic links, named pipes and other special files are refused, as a
// pull would refuse them (never opened: see packEntry); so are names and
// a folder the limits of a pull would refuse.
func Pack(dir string, lim limits.Limits) ([]byte, error) {
	lim = lim.WithDefaults()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot pack %s: %w", dir, err)
	}
	defer root.Close()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	var entries, total int64
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return packErr(dir, p, err)
		}
		if p == "." {
			return nil
		}
		if strings.EqualFold(d.Name(), ".git") {
			return fs.SkipDir
		}
		if _, err := entryName(p); err != nil {
			return fmt.Errorf("cannot pack %s: %w: a pull would refuse it", dir, err)
		}
		if entries++; entries > lim.OCIEntries {
			return limits.Err("oci-entries", lim.OCIEntries, dir)
		}
		return packEntry(root, tw, p, d, &total, lim, dir)
	})
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("cannot pack %s: %w", dir, err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("cannot pack %s: %w", dir, err)
	}
	if int64(buf.Len()) > lim.OCILayerBytes {
		return nil, limits.Err("oci-layer-bytes", lim.OCILayerBytes, dir)
	}
	return buf.Bytes(), nil
}

var epoch = time.Unix(0, 0).UTC()

// packEntry adds one folder or regular file. A file's type and size are
// checked before it is opened or read (location.ReadRegular): a named
// pipe, a device or a link is refused, and a file over --max-file-bytes
// (a sparse file of 16 GiB) is never read.
func packEntry(root *os.Root, tw *tar.Writer, p string, d fs.DirEntry, total *int64, lim limits.Limits, dir string) error {
	h := &tar.Header{Name: p, ModTime: epoch, Format: tar.FormatPAX}
	switch {
	case d.IsDir():
		h.Typeflag, h.Name, h.Mode = tar.TypeDir, p+"/", 0o755
		return packErr(dir, p, tw.WriteHeader(h))
	case !d.Type().IsRegular():
		return fmt.Errorf("cannot pack %s: %s is %s, not a regular file or folder: a pull would refuse it", dir, p, location.FileKind(d.Type()))
	}
	data, err := location.ReadRegular(root, p, lim.FileBytes)
	if err != nil {
		return packErr(dir, p, err)
	}
	if *total += int64(len(data)); *total > lim.OCITreeBytes {
		return limits.Err("oci-tree-bytes", lim.OCITreeBytes, dir)
	}
	h.Typeflag, h.Mode, h.Size = tar.TypeReg, 0o644, int64(len(data))
	if err := tw.WriteHeader(h); err != nil {
		return packErr(dir, p, err)
	}
	_, err = tw.Write(data)
	return packErr(dir, p, err)
}

// packErr names the folder and the file of an error of Pack.
func packErr(dir, p string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cannot pack %s: %s: %w", dir, p, err)
}
