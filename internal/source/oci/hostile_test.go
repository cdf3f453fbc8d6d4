package oci_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/oci"
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
