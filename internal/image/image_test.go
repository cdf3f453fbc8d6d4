package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

const fakeCA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

// fixture writes a tiny fake binary per architecture and a CA bundle.
func fixture(t *testing.T) Options {
	t.Helper()
	dir := t.TempDir()
	bins := map[string]string{}
	for _, arch := range []string{"amd64", "arm64"} {
		p := filepath.Join(dir, "kudo-render-"+arch)
		if err := os.WriteFile(p, []byte("fake kudo-render for "+arch), 0o600); err != nil {
			t.Fatal(err)
		}
		bins[arch] = p
	}
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca, []byte(fakeCA), 0o600); err != nil {
		t.Fatal(err)
	}
	return Options{
		Binaries: bins,
		CACerts:  ca,
		Version:  "v1.2.3-test",
		Revision: "0123456789abcdef0123456789abcdef01234567",
		Source:   "https://github.com/kudo-render/kudo-render",
		Created:  time.Unix(1700000000, 0),
	}
}

func buildLayout(t *testing.T, o Options) (string, v1.Hash) {
	t.Helper()
	idx, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "image")
	d, err := Write(dir, idx, o.Version)
	if err != nil {
		t.Fatal(err)
	}
	return dir, d
}

func TestImageFromLayout(t *testing.T) {
	o := fixture(t)
	dir, d := buildLayout(t, o)
	idx, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := idx.Digest(); got != d {
		t.Fatalf("read back digest %s, wrote %s", got, d)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 2 {
		t.Fatalf("%d manifests, want amd64 and arm64", len(im.Manifests))
	}
	for _, desc := range im.Manifests {
		arch := desc.Platform.Architecture
		t.Run(arch, func(t *testing.T) {
			if desc.Platform.OS != "linux" {
				t.Errorf("platform OS %q", desc.Platform.OS)
			}
			img, err := idx.Image(desc.Digest)
			if err != nil {
				t.Fatal(err)
			}
			layers, err := img.Layers()
			if err != nil {
				t.Fatal(err)
			}
			if len(layers) != 1 {
				t.Fatalf("%d layers, want 1", len(layers))
			}
			cf, err := img.ConfigFile()
			if err != nil {
				t.Fatal(err)
			}
			c := cf.Config
			if cf.OS != "linux" || cf.Architecture != arch {
				t.Errorf("config platform %s/%s, want linux/%s", cf.OS, cf.Architecture, arch)
			}
			if len(c.Entrypoint) != 1 || c.Entrypoint[0] != BinaryPath {
				t.Errorf("entrypoint %q, want [%s]", c.Entrypoint, BinaryPath)
			}
			if len(c.Cmd) != 0 {
				t.Errorf("cmd %q, want none (no arguments: the KRM function)", c.Cmd)
			}
			if c.User != "65532:65532" {
				t.Errorf("user %q, want 65532:65532", c.User)
			}
			if c.WorkingDir != Home {
				t.Errorf("working dir %q", c.WorkingDir)
			}
			env := strings.Join(c.Env, "\n")
			for _, want := range []string{"HOME=" + Home, "PATH=/usr/local/bin:"} {
				if !strings.Contains(env, want) {
					t.Errorf("env %q lacks %s", c.Env, want)
				}
			}
			if got := c.Labels[LabelVersion]; got != o.Version {
				t.Errorf("version label %q, want the stamp %q", got, o.Version)
			}
			if got := c.Labels[LabelRevision]; got != o.Revision {
				t.Errorf("revision label %q", got)
			}
			if got := c.Labels[LabelSource]; got != o.Source {
				t.Errorf("source label %q", got)
			}
			if got := c.Labels[LabelCreated]; got != "2023-11-14T22:13:20Z" {
				t.Errorf("created label %q", got)
			}
			if !cf.Created.Time.Equal(o.Created) {
				t.Errorf("created %s, want %s", cf.Created.Time, o.Created)
			}

			hs, data, err := Files(img)
			if err != nil {
				t.Fatal(err)
			}
			for _, sh := range []string{"bin/sh", "bin/bash", "bin/busybox", "usr/bin/sh"} {
				if _, ok := hs[sh]; ok {
					t.Errorf("layer has /%s", sh)
				}
			}
			bin := strings.TrimPrefix(BinaryPath, "/")
			h, ok := hs[bin]
			if !ok {
				t.Fatalf("layer has no %s", BinaryPath)
			}
			if h.Mode&0o111 != 0o111 {
				t.Errorf("%s mode %o, not executable by all", BinaryPath, h.Mode)
			}
			if string(data[bin]) != "fake kudo-render for "+arch {
				t.Errorf("%s holds %q, not the %s binary", BinaryPath, data[bin], arch)
			}
			if string(data[strings.TrimPrefix(CAPath, "/")]) != fakeCA {
				t.Errorf("CA bundle missing or changed at %s", CAPath)
			}
			if !strings.Contains(string(data["etc/passwd"]), "nonroot:x:65532:65532:") {
				t.Errorf("/etc/passwd lacks the nonroot user: %q", data["etc/passwd"])
			}
			if !strings.Contains(string(data["etc/group"]), "nonroot:x:65532:") {
				t.Errorf("/etc/group lacks the nonroot group")
			}
			if h := hs["tmp/"]; h == nil || h.Mode != 0o1777 {
				t.Errorf("/tmp missing or not 1777: %+v", h)
			}
			if h := hs[strings.TrimPrefix(Home, "/")+"/"]; h == nil || h.Uid != UID || h.Mode&0o700 != 0o700 {
				t.Errorf("%s missing or not writable by %d: %+v", Home, UID, h)
			}
			for n, h := range hs {
				if !h.ModTime.Equal(o.Created) {
					t.Errorf("%s mtime %s, want %s", n, h.ModTime, o.Created)
				}
				if h.Uname != "" || h.Gname != "" {
					t.Errorf("%s has owner names %q/%q", n, h.Uname, h.Gname)
				}
			}
		})
	}
}

func TestReproducible(t *testing.T) {
	o := fixture(t)
	_, d1 := buildLayout(t, o)
	_, d2 := buildLayout(t, o)
	if d1 != d2 {
		t.Fatalf("two builds of the same inputs: %s and %s", d1, d2)
	}
	o.Version = "v1.2.4-test"
	_, d3 := buildLayout(t, o)
	if d3 == d1 {
		t.Fatalf("another version gives the same digest %s", d1)
	}
}

func TestRefusals(t *testing.T) {
	o := fixture(t)
	bad := o
	bad.Version = ""
	if _, err := Build(bad); err == nil {
		t.Error("no version: built")
	}
	bad = o
	bad.CACerts = filepath.Join(t.TempDir(), "missing.crt")
	if _, err := Build(bad); err == nil {
		t.Error("missing CA bundle: built")
	}
	bad = o
	bad.RequireStatic = true
	if _, err := Build(bad); err == nil || !strings.Contains(err.Error(), "not an ELF") {
		t.Errorf("a fake binary with RequireStatic: %v", err)
	}
}
