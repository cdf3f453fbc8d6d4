package image

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const (
	// BinaryPath is where the binary lives in the image: on PATH, so
	// Argo CD's plugin commands ([kudo-render, cmp, generate]) find it.
	BinaryPath = "/usr/local/bin/kudo-render"
	// CAPath is the CA bundle, where Go's crypto/x509 looks first.
	CAPath = "/etc/ssl/certs/ca-certificates.crt"
	// UID and GID are distroless' nonroot user.
	UID = 65532
	GID = 65532
	// ArgoCDUID is the user Argo CD runs its plugin sidecars as.
	ArgoCDUID = 999
	// Home is the nonroot user's home, writable by it (the git cache).
	Home = "/home/nonroot"
	// ArgoCDHome is the argocd user's home, writable by it.
	ArgoCDHome = "/home/argocd"

	passwd = "root:x:0:0:root:/root:/sbin/nologin\n" +
		"argocd:x:999:999:argocd:/home/argocd:/sbin/nologin\n" +
		"nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"
	group = "root:x:0:\n" +
		"argocd:x:999:\n" +
		"nonroot:x:65532:\n"
)

// Label keys of the image config (OCI annotations' names).
const (
	LabelSource   = "org.opencontainers.image.source"
	LabelRevision = "org.opencontainers.image.revision"
	LabelVersion  = "org.opencontainers.image.version"
	LabelCreated  = "org.opencontainers.image.created"
	LabelTitle    = "org.opencontainers.image.title"
	LabelLicenses = "org.opencontainers.image.licenses"
)

// Options are the inputs of an image. Equal options (and equal file
// contents) give an equal digest.
type Options struct {
	// Binaries maps a GOARCH (amd64, arm64) to the path of the static
	// linux binary for it.
	Binaries map[string]string
	// CACerts is the path of the PEM CA bundle copied into the image.
	CACerts string
	// Version is the version the binaries are stamped with (cmd.Version).
	Version string
	// Revision is the source commit, empty when unknown.
	Revision string
	// Source is the repository URL.
	Source string
	// Created is the image's creation time (SOURCE_DATE_EPOCH): also the
	// modification time of every file in the layer.
	Created time.Time
	// RequireStatic refuses a binary that is not a static ELF for its
	// architecture (the image has no libc and no dynamic loader).
	RequireStatic bool
}

// Build returns the image index: one image per architecture, sorted.
func Build(o Options) (v1.ImageIndex, error) {
	if len(o.Binaries) == 0 {
		return nil, errors.New("image: no binary")
	}
	if o.Version == "" {
		return nil, errors.New("image: no version")
	}
	ca, err := os.ReadFile(o.CACerts)
	if err != nil {
		return nil, fmt.Errorf("image: CA certificates: %w", err)
	}
	if !bytes.Contains(ca, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, fmt.Errorf("image: %s holds no PEM certificate", o.CACerts)
	}
	archs := make([]string, 0, len(o.Binaries))
	for a := range o.Binaries {
		archs = append(archs, a)
	}
	sort.Strings(archs)
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, arch := range archs {
		bin, err := os.ReadFile(o.Binaries[arch])
		if err != nil {
			return nil, fmt.Errorf("image: binary for %s: %w", arch, err)
		}
		if o.RequireStatic {
			if err := CheckStatic(o.Binaries[arch], arch); err != nil {
				return nil, err
			}
		}
		img, err := buildImage(o, arch, bin, ca)
		if err != nil {
			return nil, fmt.Errorf("image: %s: %w", arch, err)
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{
			Add: img,
			Descriptor: v1.Descriptor{
				Platform: &v1.Platform{OS: "linux", Architecture: arch},
			},
		})
	}
	return idx, nil
}

func buildImage(o Options, arch string, bin, ca []byte) (v1.Image, error) {
	tb, err := Layer(bin, ca, o.Created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(tb)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{
		Layer: layer,
		History: v1.History{
			Created:   v1.Time{Time: o.Created.UTC()},
			CreatedBy: "kudo-render internal/image: " + BinaryPath + ", /etc/passwd, /etc/group, " + CAPath + ", /tmp, " + Home + ", " + ArgoCDHome,
			Comment:   "built without a base image",
		},
	})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS = "linux"
	cf.Architecture = arch
	cf.Created = v1.Time{Time: o.Created.UTC()}
	cf.Config = v1.Config{
		User:       fmt.Sprintf("%d:%d", UID, GID),
		Entrypoint: []string{BinaryPath},
		WorkingDir: Home,
		Env: []string{
			"PATH=/usr/local/bin:/usr/bin:/bin",
			"HOME=" + Home,
			"SSL_CERT_FILE=" + CAPath,
		},
		Labels: Labels(o),
	}
	return mutate.ConfigFile(img, cf)
}

// Labels are the image's OCI labels.
func Labels(o Options) map[string]string {
	l := map[string]string{
		LabelTitle:    "kudo-render",
		LabelVersion:  o.Version,
		LabelCreated:  o.Created.UTC().Format(time.RFC3339),
		LabelLicenses: "Apache-2.0",
	}
	if o.Source != "" {
		l[LabelSource] = o.Source
	}
	if o.Revision != "" {
		l[LabelRevision] = o.Revision
	}
	return l
}

type entry struct {
	name string
	mode int64
	uid  int
	data []byte // nil: a folder
}

// Layer returns the uncompressed tar of the image's only layer: folders
// before their files, names sorted, every header fixed (mtime, owner,
// no user or group names), so equal inputs give equal bytes.
func Layer(bin, ca []byte, mtime time.Time) ([]byte, error) {
	entries := []entry{
		{name: "etc/", mode: 0o755},
		{name: "etc/group", mode: 0o644, data: []byte(group)},
		{name: "etc/passwd", mode: 0o644, data: []byte(passwd)},
		{name: "etc/ssl/", mode: 0o755},
		{name: "etc/ssl/certs/", mode: 0o755},
		{name: strings.TrimPrefix(CAPath, "/"), mode: 0o644, data: ca},
		{name: "home/", mode: 0o755},
		{name: strings.TrimPrefix(ArgoCDHome, "/") + "/", mode: 0o755, uid: ArgoCDUID},
		{name: strings.TrimPrefix(Home, "/") + "/", mode: 0o755, uid: UID},
		{name: "root/", mode: 0o700},
		{name: "tmp/", mode: 0o1777},
		{name: "usr/", mode: 0o755},
		{name: "usr/local/", mode: 0o755},
		{name: "usr/local/bin/", mode: 0o755},
		{name: strings.TrimPrefix(BinaryPath, "/"), mode: 0o755, data: bin},
	}
	sort.SliceStable(entries, func(i, j int) bool {
		return strings.TrimSuffix(entries[i].name, "/") < strings.TrimSuffix(entries[j].name, "/")
	})
	mt := mtime.UTC().Truncate(time.Second)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{
			Name:    e.name,
			Mode:    e.mode,
			Uid:     e.uid,
			Gid:     e.uid,
			ModTime: mt,
			Format:  tar.FormatPAX,
		}
		if e.data == nil {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if e.data != nil {
			if _, err := tw.Write(e.data); err != nil {
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes idx as an OCI image layout in dir (emptied first): its
// index.json names the one image index, tagged ref (e.g. the version).
func Write(dir string, idx v1.ImageIndex, ref string) (v1.Hash, error) {
	if err := os.RemoveAll(dir); err != nil {
		return v1.Hash{}, err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return v1.Hash{}, err
	}
	var opts []layout.Option
	if ref != "" {
		opts = append(opts, layout.WithAnnotations(map[string]string{
			"org.opencontainers.image.ref.name": ref,
		}))
	}
	if err := p.AppendIndex(idx, opts...); err != nil {
		return v1.Hash{}, err
	}
	return idx.Digest()
}

// Read returns the image index an OCI layout written by Write holds.
func Read(dir string) (v1.ImageIndex, error) {
	top, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return nil, err
	}
	m, err := top.IndexManifest()
	if err != nil {
		return nil, err
	}
	if len(m.Manifests) != 1 || !m.Manifests[0].MediaType.IsIndex() {
		return nil, fmt.Errorf("%s: want one image index in index.json, found %d entries", dir, len(m.Manifests))
	}
	return top.ImageIndex(m.Manifests[0].Digest)
}

// Files lists the layer's entries of an image: name (without a leading
// slash, folders with a trailing one) to header.
func Files(img v1.Image) (map[string]*tar.Header, map[string][]byte, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, nil, err
	}
	hs := map[string]*tar.Header{}
	data := map[string][]byte{}
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			return nil, nil, err
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				rc.Close()
				return nil, nil, err
			}
			name := path.Clean("/" + h.Name)[1:]
			if h.Typeflag == tar.TypeDir {
				name += "/"
			}
			hs[name] = h
			if h.Typeflag == tar.TypeReg {
				b, err := io.ReadAll(tr)
				if err != nil {
					rc.Close()
					return nil, nil, err
				}
				data[name] = b
			}
		}
		rc.Close()
	}
	return hs, data, nil
}

var elfMachine = map[string]elf.Machine{
	"amd64": elf.EM_X86_64,
	"arm64": elf.EM_AARCH64,
}

// CheckStatic refuses a file that is not a static linux ELF executable
// for arch: the image has no dynamic loader and no libc.
func CheckStatic(file, arch string) error {
	f, err := elf.Open(file)
	if err != nil {
		return fmt.Errorf("image: %s: not an ELF executable: %w", file, err)
	}
	defer f.Close()
	if m, ok := elfMachine[arch]; ok && f.Machine != m {
		return fmt.Errorf("image: %s is built for %s, not %s", file, f.Machine, arch)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("image: %s is dynamically linked (build it with CGO_ENABLED=0)", file)
		}
	}
	return nil
}
