package oci_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// pushRaw pushes a manifest of the given layers (media type, bytes) and
// returns its digest.
func pushRaw(t *testing.T, e *env, repo string, layers ...oci.Blob) string {
	config := oci.NewBlob(oci.FluxConfigType, []byte("{}"))
	m := ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest, Config: config.Desc}
	for _, l := range layers {
		m.Layers = append(m.Layers, l.Desc)
	}
	data, _ := json.Marshal(m)
	manifest := oci.NewBlob(ocispec.MediaTypeImageManifest, data)
	r, _ := oci.ParseURL(e.reg.URL + "/" + repo)
	if err := e.source(t, nil).PushArtifact(context.Background(), r, "v1", append([]oci.Blob{config}, layers...), manifest); err != nil {
		t.Fatal(err)
	}
	return manifest.Desc.Digest.String()
}

// TestHostileLayers: what a registry serves is input from others: links,
// names that leave the artifact, duplicate names, too many entries, a
// decompression bomb, files over the file size, several layers and
// unknown media types are each refused naming the artifact, and nothing is
// cached.
func TestHostileLayers(t *testing.T) {
	e := newEnv(t)
	gz := func(entries ...[2]string) oci.Blob { return oci.NewBlob(oci.FluxContentType, tarGz(t, entries)) }
	ok := [2]string{"framework.yaml", "name: x\n"}
	bomb := [2]string{"big.yaml", strings.Repeat("a", 4<<20)}
	cases := map[string]struct {
		layers []oci.Blob
		lim    limits.Limits
		want   string
	}{
		"Symlink":   {layers: []oci.Blob{gz(ok, [2]string{"templates -> /etc", ""})}, want: "is a symbolic link: an artifact may hold files and folders only"},
		"DotDot":    {layers: []oci.Blob{gz([2]string{"../../evil.yaml", "x"})}, want: "unsafe name"},
		"Absolute":  {layers: []oci.Blob{gz([2]string{"/etc/evil.yaml", "x"})}, want: "unsafe name"},
		"Twice":     {layers: []oci.Blob{gz(ok, ok)}, want: `holds "framework.yaml" twice`},
		"Entries":   {layers: []oci.Blob{gz(ok, [2]string{"a", ""}, [2]string{"b", ""})}, lim: limits.Limits{OCIEntries: 2}, want: "OCI layer entries"},
		"Ratio":     {layers: []oci.Blob{gz(bomb)}, want: "OCI decompression ratio"},
		"TreeBytes": {layers: []oci.Blob{gz(ok, [2]string{"b.yaml", strings.Repeat("b", 2000)})}, lim: limits.Limits{OCITreeBytes: 1000}, want: "OCI tree size"},
		"FileBytes": {layers: []oci.Blob{gz(ok, [2]string{"b.yaml", strings.Repeat("b", 2000)})}, lim: limits.Limits{FileBytes: 1000}, want: "file size"},
		"TwoLayers": {layers: []oci.Blob{gz(ok), gz(ok, [2]string{"b", ""})}, want: "has 2 layers"},
		"MediaType": {layers: []oci.Blob{oci.NewBlob("application/vnd.example.evil", tarGz(t, [][2]string{ok}))}, want: `layer media type "application/vnd.example.evil"`},
		"NotGzip":   {layers: []oci.Blob{oci.NewBlob(oci.FluxContentType, []byte("plain text"))}, want: "not gzip"},
		// A sparse entry's holes are made by the tar reader, never read
		// from the stream: they are charged to the same ratio.
		"SparseRatio": {layers: []oci.Blob{oci.NewBlob(oci.FluxContentType, ocitest.SparseLayer(1<<20, "big.yaml"))}, want: "OCI decompression ratio exceeds the limit of 100"},
		"SparseTree":  {layers: []oci.Blob{oci.NewBlob(oci.FluxContentType, ocitest.SparseLayer(1<<20, "big.yaml"))}, lim: limits.Limits{OCIRatio: 1 << 20, OCITreeBytes: 4096}, want: "OCI tree size"},
		"DEL":         {layers: []oci.Blob{gz(ok, [2]string{"a\x7f.yaml", "x"})}, want: `unsafe name "a\x7f.yaml"`},
		"C1":          {layers: []oci.Blob{gz(ok, [2]string{"a\u0085b.yaml", "x"})}, want: `unsafe name "a\u0085b.yaml"`},
		"CSI":         {layers: []oci.Blob{gz(ok, [2]string{"\u009b31m.yaml", "x"})}, want: `unsafe name "\u009b31m.yaml"`},
		"Bidi":        {layers: []oci.Blob{gz(ok, [2]string{"\u202elmay.yaml", "x"})}, want: `unsafe name "\u202elmay.yaml"`},
		"BadUTF8":     {layers: []oci.Blob{gz(ok, [2]string{"a\xff.yaml", "x"})}, want: `unsafe name "a\xff.yaml"`},
		"GitAnyCase":  {layers: []oci.Blob{gz(ok, [2]string{".Git/config", "x"})}, want: `unsafe name ".Git/config"`},
		"FileAsDir":   {layers: []oci.Blob{gz(ok, [2]string{"sub", "x"}, [2]string{"sub/a.yaml", "x"})}, want: `cannot write "sub/a.yaml": the layer already holds a file or folder of another type there`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			d := pushRaw(t, e, "hostile/"+strings.ToLower(name), c.layers...)
			cache := t.TempDir()
			s := e.source(t, func(o *oci.Options) { o.CacheDir, o.Limits = cache, c.lim })
			_, err := open(t, s, bundle.OCISource{URL: e.reg.URL + "/hostile/" + strings.ToLower(name), Digest: d})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if !strings.Contains(err.Error(), e.reg.Host+"/hostile/") {
				t.Errorf("%v: does not name the artifact", err)
			}
			if entries, _ := filepath.Glob(filepath.Join(cache, "sha256", "*")); len(entries) != 0 {
				t.Errorf("cached %v after a refusal", entries)
			}
		})
	}
	// The bomb's layer is small: its size alone does not stop it.
	if l := gz(bomb); l.Desc.Size > 64<<10 {
		t.Errorf("the bomb's layer has %d bytes", l.Desc.Size)
	}
}

// TestPackRefuses: push packs a folder of its user's, but what a pull
// would refuse is refused before the layer is made, naming the folder and
// the file; a file's type and size are checked before it is opened or
// read, so a named pipe never blocks and a sparse file of 16 GiB is never
// read into memory.
func TestPackRefuses(t *testing.T) {
	cases := map[string]struct {
		setup func(t *testing.T, dir string)
		want  string
	}{
		"FIFO": {func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "templates", "cm.yaml"), 0o644); err != nil {
				t.Skip("no named pipes here:", err)
			}
		}, "templates/cm.yaml is a named pipe (FIFO), not a regular file or folder: a pull would refuse it"},
		"Sparse16GiB": {func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, "templates", "big.yaml"))
			assert.NilError(t, err)
			assert.NilError(t, f.Truncate(16<<30))
			f.Close()
		}, "templates/big.yaml: file size exceeds the limit of 1048576 bytes (raise it with --max-file-bytes"},
		"Symlink": {func(t *testing.T, dir string) {
			assert.NilError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "templates", "x.yaml")))
		}, "templates/x.yaml is a symbolic link, not a regular file or folder"},
		"C1Name": {func(t *testing.T, dir string) {
			assert.NilError(t, os.WriteFile(filepath.Join(dir, "templates", "a\u009bb.yaml"), nil, 0o644))
		}, `the layer holds an unsafe name "templates/a\u009bb.yaml": a pull would refuse it`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			assert.NilError(t, os.MkdirAll(filepath.Join(dir, "templates"), 0o755))
			assert.NilError(t, os.WriteFile(filepath.Join(dir, "operator.yaml"), []byte("name: x\n"), 0o644))
			c.setup(t, dir)
			done := make(chan error, 1)
			go func() { _, err := oci.Pack(dir, limits.Limits{FileBytes: 1 << 20}); done <- err }()
			select {
			case err := <-done:
				assert.ErrorContains(t, err, c.want)
				assert.ErrorContains(t, err, "cannot pack "+dir)
			case <-time.After(20 * time.Second):
				t.Fatal("Pack blocked")
			}
		})
	}
}
