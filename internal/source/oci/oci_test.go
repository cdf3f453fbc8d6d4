package oci_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

const pkgDir = "../../../examples/mysql"

type env struct {
	reg      *ocitest.Registry
	cache    string
	warnings []string
	mu       sync.Mutex
}

func newEnv(t *testing.T) *env {
	return &env{reg: ocitest.Start(t), cache: t.TempDir()}
}

func (e *env) source(t *testing.T, mod func(*oci.Options)) *oci.Source {
	o := oci.Options{CacheDir: e.cache, Warn: func(s string) { e.mu.Lock(); e.warnings = append(e.warnings, s); e.mu.Unlock() }}
	if mod != nil {
		mod(&o)
	}
	s, err := oci.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (e *env) push(t *testing.T, dir, repoTag, format string) string {
	d, err := e.source(t, nil).Push(context.Background(), dir, e.reg.URL+"/"+repoTag, oci.PushOptions{
		Format: format, Source: "https://git.example/pkgs.git", Revision: "main@sha1:1111111111111111111111111111111111111111", Created: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return d.Digest.String()
}

// files reads every regular file below dir of fsys.
func files(t *testing.T, fsys fs.FS) map[string]string {
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func open(t *testing.T, s *oci.Source, src bundle.OCISource) (*location.Opened, error) {
	t.Helper()
	return s.Open(context.Background(), src)
}

// TestPushPullRoundTrip: what push packs, a pull extracts byte for byte,
// in both formats; the same folder gives the same digest (reproducible),
// the two formats different ones; a tag resolves to the digest, with a
// warning that it is not pinned.
func TestPushPullRoundTrip(t *testing.T) {
	e := newEnv(t)
	want := files(t, os.DirFS(pkgDir))
	digests := map[string]string{}
	for _, format := range []string{"flux", "argocd"} {
		d1 := e.push(t, pkgDir, "pkgs/mysql-"+format+":v1", format)
		if d2 := e.push(t, pkgDir, "pkgs/mysql-"+format+":v2", format); d1 != d2 {
			t.Errorf("%s: pushing the same folder twice gave %s and %s", format, d1, d2)
		}
		digests[format] = d1
		s := e.source(t, nil)
		op, err := open(t, s, bundle.OCISource{URL: e.reg.URL + "/pkgs/mysql-" + format, Tag: "v1"})
		if err != nil {
			t.Fatal(err)
		}
		if got := files(t, op.FS); !mapsEqual(got, want) {
			t.Errorf("%s: pulled files differ from the pushed folder: got %d files, want %d", format, len(got), len(want))
		}
		if op.Pin != d1 || !strings.HasSuffix(op.ID, "@"+d1+":") || !op.Remote {
			t.Errorf("%s: opened %+v, want pin %s", format, op, d1)
		}
		op.Close()
	}
	if digests["flux"] == digests["argocd"] {
		t.Error("the flux and argocd formats have one digest")
	}
	if len(e.warnings) == 0 || !strings.Contains(e.warnings[0], "unpinned tag v1") {
		t.Errorf("warnings %q: want the unpinned tag", e.warnings)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestOffline: once pulled, a digest opens offline without a request, a
// sub-folder too; a tag resolves to its last online digest with a
// warning; what was never pulled is ErrNotCached.
func TestOffline(t *testing.T) {
	e := newEnv(t)
	d := e.push(t, filepath.Dir(pkgDir), "pkgs/examples:v1", "flux")
	if _, err := open(t, e.source(t, nil), bundle.OCISource{URL: e.reg.URL + "/pkgs/examples", Tag: "v1"}); err != nil {
		t.Fatal(err)
	}
	before := e.reg.Requests()
	off := e.source(t, func(o *oci.Options) { o.Offline = true })
	op, err := open(t, off, bundle.OCISource{URL: e.reg.URL + "/pkgs/examples", Digest: d, Path: "mysql"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(op.FS, "framework.yaml"); err != nil {
		t.Errorf("sub-folder mysql: %v", err)
	}
	op.Close()
	e.warnings = nil
	if _, err := open(t, off, bundle.OCISource{URL: e.reg.URL + "/pkgs/examples", Tag: "v1", Path: "mysql"}); err != nil {
		t.Fatal(err)
	}
	if len(e.warnings) != 1 || !strings.Contains(e.warnings[0], "offline: tag v1") {
		t.Errorf("warnings %q: want the offline tag resolution", e.warnings)
	}
	if e.reg.Requests() != before {
		t.Errorf("offline renders made %d requests", e.reg.Requests()-before)
	}
	_, err = open(t, off, bundle.OCISource{URL: e.reg.URL + "/pkgs/other", Digest: "sha256:" + strings.Repeat("a", 64)})
	if !errors.Is(err, oci.ErrNotCached) {
		t.Errorf("uncached digest offline: %v, want ErrNotCached", err)
	}
	if _, err := open(t, off, bundle.OCISource{URL: e.reg.URL + "/pkgs/examples", Digest: d, Path: "nothere"}); err == nil || !strings.Contains(err.Error(), `no folder "nothere"`) {
		t.Errorf("missing folder: %v", err)
	}
}

// TestRefused: a tampered layer, a tampered manifest, a digest the
// registry does not have and an oversized layer are refused with a clear
// message, and nothing is cached.
func TestRefused(t *testing.T) {
	e := newEnv(t)
	d := e.push(t, pkgDir, "pkgs/mysql:v1", "flux")
	layer := layerDigest(t, e, d)
	flip := func(b []byte) []byte { c := bytes.Clone(b); c[len(c)/2] ^= 1; return c }
	cases := map[string]struct {
		setup func()
		src   bundle.OCISource
		mod   func(*oci.Options)
		want  string
	}{
		"TamperedLayer": {setup: func() { e.reg.Tamper(layer, flip) }, want: "does not match its digest and size (tampered or corrupted)"},
		"TamperedManifest": {setup: func() {
			e.reg.Tamper("/manifests/"+d, func(b []byte) []byte { return bytes.Replace(b, []byte("main@sha1"), []byte("evil@sha1"), 1) })
		}, want: "the manifest does not match its digest"},
		"WrongDigest":    {src: bundle.OCISource{URL: e.reg.URL + "/pkgs/mysql", Digest: "sha256:" + strings.Repeat("b", 64)}, want: "not found"},
		"OversizedLayer": {mod: func(o *oci.Options) { o.Limits = limits.Limits{OCILayerBytes: 100} }, want: "OCI layer size"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			e.reg.Tamper("", nil)
			if c.setup != nil {
				c.setup()
			}
			src := c.src
			if src.URL == "" {
				src = bundle.OCISource{URL: e.reg.URL + "/pkgs/mysql", Digest: d}
			}
			cache := t.TempDir()
			s := e.source(t, func(o *oci.Options) {
				o.CacheDir = cache
				if c.mod != nil {
					c.mod(o)
				}
			})
			_, err := open(t, s, src)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if entries, _ := filepath.Glob(filepath.Join(cache, "sha256", "*")); len(entries) != 0 {
				t.Errorf("cached %v after a refusal", entries)
			}
		})
	}
}

// layerDigest is the digest of the layer push makes of pkgDir.
func layerDigest(t *testing.T, _ *env, _ string) string {
	layer, err := oci.Pack(pkgDir, limits.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	blobs, _, err := oci.Artifact(layer, oci.PushOptions{Format: "flux"})
	if err != nil {
		t.Fatal(err)
	}
	return blobs[1].Desc.Digest.String()
}

// tarGz packs entries (name -> content; a name ending in -> target is a
// symbolic link) into a gzipped tar.
func tarGz(t *testing.T, entries [][2]string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, en := range entries {
		h := &tar.Header{Name: en[0], Mode: 0o644, Size: int64(len(en[1])), Typeflag: tar.TypeReg}
		if name, target, ok := strings.Cut(en[0], " -> "); ok {
			h = &tar.Header{Name: name, Linkname: target, Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(en[1]))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// TestSharedCache: renders in several processes (here: Sources, each with
// its own client, on one cache folder) opening the same artifact at once
// all get it, and the layer is downloaded once: the per-digest lock makes
// the others wait for the entry the first writes.
func TestSharedCache(t *testing.T) {
	e := newEnv(t)
	d := e.push(t, pkgDir, "pkgs/mysql:v1", "flux")
	layer := layerDigest(t, e, d)
	var gets int
	var mu sync.Mutex
	e.reg.Tamper(layer, func(b []byte) []byte { mu.Lock(); gets++; mu.Unlock(); return b })
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			op, err := e.source(t, nil).Open(context.Background(), bundle.OCISource{URL: e.reg.URL + "/pkgs/mysql", Digest: d})
			if err == nil {
				_, err = fs.Stat(op.FS, "framework.yaml")
				op.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if gets != 1 {
		t.Errorf("the layer was downloaded %d times; want 1", gets)
	}
}
