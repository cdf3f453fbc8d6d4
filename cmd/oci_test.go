package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fluxoci "github.com/fluxcd/pkg/oci"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// pushFlags are annotations given on the command line, so push does not
// look for the worktree's git repository.
var pushFlags = []string{"--source", "https://git.example/kudo.git", "--revision", "main@sha1:1111111111111111111111111111111111111111", "--created", "2026-01-02T03:04:05Z"}

func push(t *testing.T, dir, target string, extra ...string) string {
	t.Helper()
	out, stderr, err := run(append([]string{"push", dir, target}, append(pushFlags, extra...)...)...)
	if err != nil {
		t.Fatalf("push: %v\n%s", err, stderr)
	}
	return strings.TrimSpace(out)
}

// TestOCIChainOffline (issue 27's "done when"): a framework whose base is
// in git, whose own base is an OCI artifact, is locked (the git commit
// beside ref:, the OCI digest as a pin), then renders offline from the
// cache; moving the tag afterwards changes nothing, because the lock pins
// the digest; a fresh cache offline fails naming the artifact, with nothing
// on stdout.
func TestOCIChainOffline(t *testing.T) {
	reg := ocitest.Start(t)
	pushed := push(t, "../examples/mysql", reg.URL+"/kudo/mysql:5.7")
	srv := gittest.NewServer(t, gittest.Options{AllowSHA1InWant: true})
	bases := srv.NewRepo("bases.git")
	bases.Commit("mid", map[string]string{"mid/framework.yaml": fmt.Sprintf(
		"name: mysql-mid\nversion: \"1\"\nextends:\n  oci: {url: %s/kudo/mysql, tag: \"5.7\"}\n", reg.URL)})
	dir := t.TempDir()
	shop := repoFiles(t, "../examples/mysql-extension", "shop")
	shop["shop/framework.yaml"] = strings.ReplaceAll(shop["shop/framework.yaml"], "base/init.yaml", "base/base/init.yaml")
	for name, text := range shop {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	cfg := filepath.Join(dir, "render.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: shop-db, namespace: shop}
spec:
  framework: {path: shop}
  base:
    git: {url: %s, ref: main, path: mid}
  plans: [backup]
`, bases.URL())), 0o644)
	cache := t.TempDir()
	if _, stderr, err := run("lock", cfg, "--allow-insecure-http", "--cache-dir", cache); err != nil {
		t.Fatalf("lock: %v\n%s", err, stderr)
	}
	locked := readFile(t, cfg)
	digest := pushed[strings.LastIndex(pushed, "@")+1:]
	if !strings.Contains(locked, "digest: "+digest) || !strings.Contains(locked, "commit: "+bases.Rev("HEAD")) {
		t.Fatalf("lock did not pin the OCI digest %s and the git commit:\n%s", digest, locked)
	}
	push(t, "../examples/toggle", reg.URL+"/kudo/mysql:5.7") // the tag moves
	before := reg.Requests()
	out, stderr, err := run("render", cfg, "--offline", "--allow-insecure-http", "--cache-dir", cache)
	if err != nil {
		t.Fatalf("offline render: %v\n%s", err, stderr)
	}
	if !strings.Contains(out, "name: shop-db-backup-job") || !strings.Contains(out, reg.Host+"/kudo/mysql@"+digest) {
		t.Errorf("the chain did not render from the pinned artifact (backup job, origin annotation):\n%s", out)
	}
	if strings.Contains(stderr, "unpinned") || reg.Requests() != before {
		t.Errorf("offline render warned or asked the registry (%d requests):\n%s", reg.Requests()-before, stderr)
	}
	out, stderr, err = run("render", cfg, "--offline", "--allow-insecure-http", "--cache-dir", t.TempDir())
	if err == nil || out != "" || !strings.Contains(err.Error(), "not in the cache") {
		t.Errorf("offline render from an empty cache: %v, stdout %q\n%s", err, out, stderr)
	}
}

// TestPushFluxAccepted: what `push --format flux` writes is what Flux's own
// library pulls (fluxcd/pkg/oci, which `flux pull artifact` and the
// OCIRepository's layer handling build on): the same files, the source,
// revision and created annotations, and the media types Flux's own push
// writes; pushing again gives the same digest.
func TestPushFluxAccepted(t *testing.T) {
	reg := ocitest.Start(t)
	ref := push(t, "../examples/mysql", reg.URL+"/kudo/mysql:v1", "--format", "flux")
	if again := push(t, "../examples/mysql", reg.URL+"/kudo/mysql:v2", "--format", "flux"); again[strings.LastIndex(again, "@"):] != ref[strings.LastIndex(ref, "@"):] {
		t.Errorf("pushing the same folder twice: %s, then %s", ref, again)
	}
	ctx := context.Background()
	flux := fluxoci.NewClient(fluxoci.DefaultOptions())
	out := t.TempDir()
	meta, err := flux.Pull(ctx, reg.Host+"/kudo/mysql:v1", out)
	if err != nil {
		t.Fatalf("Flux's Pull: %v", err)
	}
	if meta.Source != "https://git.example/kudo.git" || meta.Revision != pushFlags[3] || meta.Created != "2026-01-02T03:04:05Z" {
		t.Errorf("Flux read the metadata %+v", meta)
	}
	if got, want := treeFiles(t, out), treeFiles(t, "../examples/mysql"); !equalMaps(got, want) {
		t.Errorf("Flux extracted %d files, the folder has %d (or their contents differ)", len(got), len(want))
	}
	// Flux's own push of the same folder: the same config and layer media types.
	if _, err := flux.Push(ctx, reg.Host+"/kudo/by-flux:v1", "../examples/mysql", fluxoci.WithPushMetadata(fluxoci.Metadata{Source: "s", Revision: "r"})); err != nil {
		t.Fatal(err)
	}
	ours, theirs := manifest(t, reg, "kudo/mysql:v1"), manifest(t, reg, "kudo/by-flux:v1")
	if ours.Config.MediaType != theirs.Config.MediaType || ours.Layers[0].MediaType != theirs.Layers[0].MediaType || len(ours.Layers) != len(theirs.Layers) {
		t.Errorf("media types: ours config %s layer %s, Flux's config %s layer %s", ours.Config.MediaType, ours.Layers[0].MediaType, theirs.Config.MediaType, theirs.Layers[0].MediaType)
	}
	// Argo CD's format: one layer of the OCI image layer type.
	push(t, "../examples/mysql", reg.URL+"/kudo/mysql-argocd:v1", "--format", "argocd")
	if m := manifest(t, reg, "kudo/mysql-argocd:v1"); len(m.Layers) != 1 || m.Layers[0].MediaType != ocispec.MediaTypeImageLayerGzip {
		t.Errorf("argocd format: layers %+v", m.Layers)
	}
}

func manifest(t *testing.T, reg *ocitest.Registry, ref string) ocispec.Manifest {
	t.Helper()
	repo, err := remote.NewRepository(reg.Host + "/" + ref)
	if err != nil {
		t.Fatal(err)
	}
	repo.PlainHTTP = true
	desc, rc, err := repo.FetchReference(context.Background(), repo.Reference.Reference)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := content.ReadAll(rc, desc)
	if err != nil {
		t.Fatal(err)
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestOCIExample runs the steps examples/oci/render-oci.yaml describes:
// push the mysql framework, lock the config, render offline.
func TestOCIExample(t *testing.T) {
	reg := ocitest.Start(t)
	abs, _ := filepath.Abs("../examples/mysql-extension")
	text := strings.NewReplacer("127.0.0.1:5000", reg.Host, "../mysql-extension", abs).Replace(readFile(t, "../examples/oci/render-oci.yaml"))
	cfg := filepath.Join(t.TempDir(), "render-oci.yaml")
	os.WriteFile(cfg, []byte(text), 0o644)
	push(t, "../examples/mysql", reg.URL+"/kudo/mysql:5.7", "--format", "flux")
	cache := t.TempDir()
	if _, stderr, err := run("lock", cfg, "--cache-dir", cache); err != nil {
		t.Fatalf("lock: %v\n%s", err, stderr)
	}
	if !strings.Contains(readFile(t, cfg), "digest: sha256:") || !strings.Contains(readFile(t, cfg), "# verify:") {
		t.Errorf("lock wrote no digest (or lost the comments):\n%s", readFile(t, cfg))
	}
	out, stderr, err := run("render", cfg, "--offline", "--cache-dir", cache)
	if err != nil || !strings.Contains(out, "name: shop-db-backup-job") {
		t.Fatalf("offline render: %v\n%s", err, stderr)
	}
	want, _, _ := run("render", "../examples/mysql-extension/render.yaml", "--plan", "backup")
	if strip(out) != strip(want) {
		t.Error("the base from the OCI artifact renders differently from the local ../mysql")
	}
}

// strip drops the provenance lines that name where the base came from.
func strip(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, "kudorender.dev/") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestOCIRepository: a repository of frameworks (spec.repositories) can be
// an OCI artifact laid out as <framework>/<version>/; `lock` pins its tag,
// `lock --verify` finds the digest still there, and a digest deleted from
// the registry (here: a repository that never had it) fails the check.
func TestOCIRepository(t *testing.T) {
	reg := ocitest.Start(t)
	repo := t.TempDir()
	for name, text := range repoFiles(t, "../examples/mysql", "mysql/5.7") {
		os.MkdirAll(filepath.Join(repo, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644)
	}
	push(t, repo, reg.URL+"/kudo/frameworks:2026.1")
	abs, _ := filepath.Abs("../examples/mysql-extension")
	cfg := filepath.Join(t.TempDir(), "render.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: shop-db, namespace: shop}
spec:
  framework: {path: %s}
  base: {kudo: {framework: mysql, version: "5.7"}}
  repositories:
  - name: platform
    oci: {url: %s/kudo/frameworks, tag: "2026.1"}
  plans: [backup]
`, abs, reg.URL)), 0o644)
	cache := t.TempDir()
	if _, stderr, err := run("lock", cfg, "--cache-dir", cache); err != nil {
		t.Fatalf("lock: %v\n%s", err, stderr)
	}
	if out, stderr, err := run("render", cfg, "--offline", "--cache-dir", cache); err != nil || !strings.Contains(out, "name: shop-db-backup-job") {
		t.Fatalf("render: %v\n%s", err, stderr)
	}
	if out, stderr, err := run("lock", cfg, "--verify"); err != nil || out != "1 pin(s) verified\n" {
		t.Fatalf("lock --verify: %q %v\n%s", out, err, stderr)
	}
	os.WriteFile(cfg, []byte(strings.Replace(readFile(t, cfg), "/kudo/frameworks", "/kudo/elsewhere", 1)), 0o644)
	if out, _, err := run("lock", cfg, "--verify"); err == nil || out != "" || !strings.Contains(err.Error(), "no longer contains sha256:") {
		t.Fatalf("lock --verify of a digest the repository lacks: %q %v", out, err)
	}
}
