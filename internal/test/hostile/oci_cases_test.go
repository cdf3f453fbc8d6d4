package hostile_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// ociPush pushes the files as a one-layer Flux artifact (layer given
// raw when layer is not nil; size overrides the size the manifest claims)
// and returns its digest.
func ociPush(t *testing.T, reg *ocitest.Registry, repo string, files map[string]string, layer []byte, size int64) string {
	t.Helper()
	if layer == nil {
		layer = tarGz(t, files)
	}
	l := oci.NewBlob(oci.FluxContentType, layer)
	blobs := []oci.Blob{l}
	if size > 0 {
		l.Desc.Size, blobs = size, nil // a layer the registry never has
	}
	config := oci.NewBlob(oci.FluxConfigType, []byte("{}"))
	data, _ := json.Marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, Config: config.Desc, Layers: []ocispec.Descriptor{l.Desc}})
	manifest := oci.NewBlob(ocispec.MediaTypeImageManifest, data)
	src, err := oci.New(oci.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := oci.ParseURL(reg.URL + "/" + repo)
	if err := src.PushArtifact(context.Background(), r, "v1", append(blobs, config), manifest); err != nil {
		t.Fatal(err)
	}
	return manifest.Desc.Digest.String()
}

func tarGz(t *testing.T, files map[string]string) []byte {
	var entries [][2]string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		entries = append(entries, [2]string{name, files[name]})
	}
	return tarGzOrdered(t, entries)
}

// ociConfig writes a FunctionConfig whose framework is the artifact.
func ociConfig(t *testing.T, dir, source string) string {
	write(t, dir, map[string]string{"render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst}\nspec:\n  framework:\n    oci: " + source + "\n"})
	return filepath.Join(dir, "render.yaml")
}

// TestOCIArtifacts: an OCI artifact is input from others, served by a
// registry of theirs: a tampered layer, a digest the registry does not
// have, a signature from another key, a layer over --max-oci-layer-bytes
// (refused from the manifest, never downloaded), a decompression bomb and
// a link in the layer each fail the render as a whole process: exit 1,
// the reason on stderr, nothing on stdout.
func TestOCIArtifacts(t *testing.T) {
	reg := ocitest.Start(t)
	files := map[string]string{}
	pdir := t.TempDir()
	pkg(t, pdir, map[string]string{"cm.yaml": cm}, nil)
	filepath.WalkDir(filepath.Join(pdir, "pkg"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(filepath.Join(pdir, "pkg"), p)
			files[filepath.ToSlash(rel)] = string(data)
		}
		return err
	})
	good := ociPush(t, reg, "kudo/good", files, nil, 0)
	layer := tarGz(t, map[string]string{"operator.yaml": files["operator.yaml"], "other": "x"})
	tampered := ociPush(t, reg, "kudo/tampered", nil, layer, 0)
	reg.Tamper(oci.NewBlob("", layer).Desc.Digest.Encoded(), func(b []byte) []byte { c := bytes.Clone(b); c[len(c)-9] ^= 0xff; return c })
	trusted, other := ocitest.NewSigner(t), ocitest.NewSigner(t)
	other.Sign(t, reg, "kudo/good", good)
	bombFiles := map[string]string{}
	for i := range 8 { // each under --max-file-bytes, 56 MiB in all, 60 KiB gzipped
		bombFiles[fmt.Sprintf("f%d.yaml", i)] = strings.Repeat("a", 7<<20)
	}
	bomb := ociPush(t, reg, "kudo/bomb", bombFiles, nil, 0)
	oversized := ociPush(t, reg, "kudo/oversized", nil, []byte("never pushed"), 65<<20)
	link := ociPush(t, reg, "kudo/link", map[string]string{"operator.yaml -> /etc/passwd": ""}, nil, 0)
	src := func(repo, digest string) string {
		return fmt.Sprintf("{url: %s/%s, digest: %q}", reg.URL, repo, digest)
	}
	cases := map[string]struct{ source, stderr string }{
		"TamperedLayer":  {src("kudo/tampered", tampered), `kudo/tampered@sha256:[0-9a-f]+: layer sha256:[0-9a-f]+ does not match its digest and size \(tampered or corrupted\)`},
		"WrongDigest":    {src("kudo/good", "sha256:"+strings.Repeat("0", 64)), `kudo/good@sha256:0+: .*(not found|unknown)`},
		"OtherKey":       {fmt.Sprintf("{url: %s/kudo/good, digest: %q, verify: {certificate: %q}}", reg.URL, good, trusted.RootPEM()), `no valid notation signature from the trusted certificate, nothing pulled: .*certificate chain`},
		"Unsigned":       {fmt.Sprintf("{url: %s/kudo/tampered, digest: %q, verify: {certificate: %q}}", reg.URL, tampered, trusted.RootPEM()), `no signature is associated`},
		"OversizedLayer": {src("kudo/oversized", oversized), `OCI layer size exceeds the limit of 67108864 bytes \(raise it with --max-oci-layer-bytes or KUDO_RENDER_MAX_OCI_LAYER_BYTES\).*\(the layer has 68157440 bytes\)`},
		"Bomb":           {src("kudo/bomb", bomb), `OCI decompression ratio exceeds the limit of 100 .*--max-oci-ratio`},
		"Link":           {src("kudo/link", link), `"operator.yaml" is a symbolic link: an artifact may hold files and folders only`},
	}
	hc := map[string]hostileCase{}
	for name, c := range cases {
		hc[name] = hostileCase{
			class:  "OCI artifacts",
			reason: name + ": the artifact is refused before anything of it is rendered or cached",
			setup: func(t *testing.T, dir string) []string {
				return []string{"render", ociConfig(t, dir, c.source), "--output-dir", "{out}"}
			},
			stderr: c.stderr,
		}
	}
	hc["Good"] = hostileCase{
		class: "OCI artifacts", reason: "the untampered artifact renders", succeed: true,
		setup: func(t *testing.T, dir string) []string {
			return []string{"render", ociConfig(t, dir, src("kudo/good", good))}
		},
		check: func(t *testing.T, _, stdout string) {
			if !strings.Contains(stdout, "name: inst-cm") {
				t.Errorf("the render is missing its ConfigMap:\n%s", stdout)
			}
		},
	}
	runCases(t, hc)
}

// TestOCIBounds: what a layer extracts to is bounded however the tar
// says it (a sparse entry's holes are made by the tar reader, not read
// from the stream), names that act on a terminal are refused, every error
// names the artifact, and push checks a file's size before it reads it.
func TestOCIBounds(t *testing.T) {
	reg := ocitest.Start(t)
	sparse := ociPush(t, reg, "kudo/sparse", nil, ocitest.SparseLayer(7<<20, "f0.yaml", "f1.yaml", "f2.yaml", "f3.yaml", "f4.yaml", "f5.yaml", "f6.yaml", "f7.yaml"), 0)
	ok := "apiVersion: kudo.dev/v1beta1\nname: x\noperatorVersion: 0.1.0\n"
	del := ociPush(t, reg, "kudo/del", map[string]string{"operator.yaml": ok, "templates/cm\x7f.yaml": "x"}, nil, 0)
	c1 := ociPush(t, reg, "kudo/c1", map[string]string{"operator.yaml": ok, "templates/\u009b2J.yaml": "x"}, nil, 0)
	fileDir := ociPush(t, reg, "kudo/filedir", nil, tarGzOrdered(t, [][2]string{{"operator.yaml", ok}, {"sub", "x"}, {"sub/a.yaml", "x"}}), 0)
	src := func(repo, digest string) string {
		return fmt.Sprintf("{url: %s/%s, digest: %q}", reg.URL, repo, digest)
	}
	render := func(repo, digest string) func(t *testing.T, dir string) []string {
		return func(t *testing.T, dir string) []string {
			return []string{"render", ociConfig(t, dir, src(repo, digest)), "--output-dir", "{out}"}
		}
	}
	cases := map[string]hostileCase{
		"SparseEntry": {
			reason: "a layer of 428 bytes whose eight sparse entries are 7 MiB of holes each (each under --max-file-bytes) is refused by the decompression ratio, and the cache keeps nothing (56 MiB were cached)",
			setup:  render("kudo/sparse", sparse),
			stderr: `kudo/sparse@sha256:[0-9a-f]+: OCI decompression ratio exceeds the limit of 100 .*--max-oci-ratio`,
			after:  cacheHolds(1 << 20),
		},
		"DELName": {
			reason: "an entry name with DEL is refused, not cached",
			setup:  render("kudo/del", del),
			stderr: `kudo/del@sha256:[0-9a-f]+: the layer holds an unsafe name "templates/cm\\x7f\.yaml"`,
			forbid: []string{"\x7f"}, after: cacheHolds(1 << 20),
		},
		"C1Name": {
			reason: "an entry name with a C1 control (CSI, the 8-bit escape sequence) is refused, not cached",
			setup:  render("kudo/c1", c1),
			stderr: `kudo/c1@sha256:[0-9a-f]+: the layer holds an unsafe name "templates/\\u009b2J\.yaml"`,
			forbid: []string{"\u009b"}, after: cacheHolds(1 << 20),
		},
		"FileThenFolder": {
			reason: "a layer holding a file and then a folder of the same name: the error names the artifact and the entry, not only mkdirat",
			setup:  render("kudo/filedir", fileDir),
			stderr: `kudo/filedir@sha256:[0-9a-f]+: cannot write "sub/a\.yaml": the layer already holds a file or folder of another type there`,
		},
		"PushSparse16GiB": {
			reason: "push compares a file's size with --max-file-bytes before it reads it: a sparse file of 16 GiB was read whole (fatal error: out of memory)",
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"pkg/operator.yaml": ok})
				f, err := os.Create(filepath.Join(dir, "pkg", "big.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				f.Truncate(16 << 30)
				f.Close()
				return []string{"push", filepath.Join(dir, "pkg"), "oci://127.0.0.1:9/kudo/pkg:v1", "--source", "https://example.com/repo.git", "--revision", "main@sha1:0123"}
			},
			stderr: `cannot pack .*/pkg: big\.yaml: file size exceeds the limit of 8388608 bytes \(raise it with --max-file-bytes or KUDO_RENDER_MAX_FILE_BYTES\) \(the file has 17179869184 bytes\)`,
		},
	}
	for name, c := range cases {
		c.class, c.within = "OCI bounds", 10*time.Second
		cases[name] = c
	}
	runCases(t, cases)
}

// tarGzOrdered is a gzipped tar of the entries (name, content) in the
// order given; a name "a -> b" is a symbolic link a to b.
func tarGzOrdered(t *testing.T, entries [][2]string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{Name: e[0], Mode: 0o644, Size: int64(len(e[1])), Typeflag: tar.TypeReg}
		if n, target, ok := strings.Cut(e[0], " -> "); ok {
			h = &tar.Header{Name: n, Linkname: target, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e[1]))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// cacheHolds fails when the OCI cache of the run (KUDO_RENDER_CACHE)
// holds more than max bytes.
func cacheHolds(max int64) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		var total int64
		filepath.WalkDir(filepath.Join(dir, ".cache"), func(_ string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					total += info.Size()
				}
			}
			return nil
		})
		if total > max {
			t.Errorf("the cache holds %d bytes after a refusal", total)
		}
	}
}
