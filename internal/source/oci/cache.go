package oci

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/kudo-render/kudo-render/internal/source/cachedir"
)

// cache is the content-addressed store of OCI artifacts (see the package
// documentation for its layout).
type cache struct{ dir string }

// meta is an entry's meta.json, written last.
type meta struct {
	URL     string    `json:"url"`
	Digest  string    `json:"digest"`
	Layer   string    `json:"layer"`
	Type    string    `json:"mediaType"`
	Fetched time.Time `json:"fetched"`
}

// tagRecord is the last online resolution of a tag.
type tagRecord struct {
	URL      string    `json:"url"`
	Tag      string    `json:"tag"`
	Digest   string    `json:"digest"`
	Resolved time.Time `json:"resolved"`
}

// signature is a verified signature envelope, kept for offline renders.
type signature struct {
	Manifest ocispec.Descriptor `json:"manifest"`
	Blob     ocispec.Descriptor `json:"blob"`
	Envelope []byte             `json:"envelope"`
}

func (c *cache) entry(d digest.Digest) string {
	return filepath.Join(c.dir, d.Algorithm().String(), d.Encoded())
}

// tree returns the extracted tree of d when the cache has all of it.
func (c *cache) tree(d digest.Digest) (string, bool) {
	data, err := os.ReadFile(filepath.Join(c.entry(d), "meta.json"))
	var m meta
	if err != nil || json.Unmarshal(data, &m) != nil || m.Digest != d.String() {
		return "", false
	}
	return filepath.Join(c.entry(d), "tree"), true
}

// put fills the entry of d through fill (called with a new folder) unless
// another process did: under a lock per digest, written in tmp/ and
// renamed into place once complete, meta.json last. Errors of the cache
// itself name the artifact (where) and the cache; fill names its own.
func (c *cache) put(ctx context.Context, d digest.Digest, where string, fill func(dir string) (meta, error)) (string, error) {
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("%s: cannot write the OCI cache %s: %w", where, c.dir, err)
	}
	for _, sub := range []string{"tmp", "locks", d.Algorithm().String()} {
		if err := os.MkdirAll(filepath.Join(c.dir, sub), 0o700); err != nil {
			return fail(err)
		}
	}
	unlock, err := cachedir.Lock(ctx, filepath.Join(c.dir, "locks", d.Encoded()+".lock"))
	if err != nil {
		return fail(err)
	}
	defer unlock()
	if t, ok := c.tree(d); ok {
		return t, nil // written by another process meanwhile
	}
	tmp, err := os.MkdirTemp(filepath.Join(c.dir, "tmp"), d.Encoded()+"-*")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	m, err := fill(tmp)
	if err != nil {
		return "", err
	}
	if err := writeJSON(filepath.Join(tmp, "meta.json"), m); err != nil {
		return fail(err)
	}
	entry := c.entry(d)
	if t, ok := c.tree(d); ok {
		return t, nil // written meanwhile
	}
	if err := os.RemoveAll(entry); err != nil { // an incomplete entry
		return fail(err)
	}
	if err := os.Rename(tmp, entry); err != nil {
		if t, ok := c.tree(d); ok {
			return t, nil
		}
		return fail(err)
	}
	return filepath.Join(entry, "tree"), nil
}

// manifest is the descriptor of the cached manifest d (for verifying its
// cached signatures offline).
func (c *cache) manifest(d digest.Digest) (ocispec.Descriptor, error) {
	if _, ok := c.tree(d); !ok {
		return ocispec.Descriptor{}, ErrNotCached
	}
	data, err := os.ReadFile(filepath.Join(c.entry(d), "manifest.json"))
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	var m struct {
		MediaType string `json:"mediaType"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return ocispec.Descriptor{}, err
	}
	return ocispec.Descriptor{MediaType: m.MediaType, Digest: d, Size: int64(len(data))}, nil
}

func (c *cache) tagFile(url, tag string) string {
	h := sha256.Sum256([]byte(url + "\x00" + tag))
	return filepath.Join(c.dir, "tags", hex.EncodeToString(h[:16])+".json")
}

func (c *cache) saveTag(url, tag string, d digest.Digest) error {
	return writeAtomic(c, c.tagFile(url, tag), tagRecord{URL: url, Tag: tag, Digest: d.String(), Resolved: time.Now().UTC()})
}

func (c *cache) loadTag(url, tag string) (tagRecord, error) {
	var r tagRecord
	data, err := os.ReadFile(c.tagFile(url, tag))
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err == nil && (r.URL != url || r.Tag != tag || digest.Digest(r.Digest).Validate() != nil) {
		err = errors.New("invalid tag record")
	}
	return r, err
}

func (c *cache) sigDir(d digest.Digest) string {
	return filepath.Join(c.dir, "signatures", d.Algorithm().String(), d.Encoded())
}

func (c *cache) saveSignature(d digest.Digest, s signature) error {
	return writeAtomic(c, filepath.Join(c.sigDir(d), s.Manifest.Digest.Encoded()+".json"), s)
}

// signatures are the cached signature envelopes of d, in name order.
func (c *cache) signatures(d digest.Digest) ([]signature, error) {
	entries, err := os.ReadDir(c.sigDir(d))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []signature
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(c.sigDir(d), e.Name()))
		var s signature
		if err != nil || json.Unmarshal(data, &s) != nil {
			continue // a damaged record is no signature
		}
		out = append(out, s)
	}
	return out, nil
}

// writeAtomic writes v as JSON to path through a temporary file and a
// rename, so readers see the old record or the new one.
func writeAtomic(c *cache, path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.dir, "tmp"), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Join(c.dir, "tmp"), "record-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(v); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// DefaultCacheDir is where OCI artifacts are cached when no folder is
// given: <dir>/oci below the cache folder (--cache-dir,
// KUDO_RENDER_CACHE), else <user cache dir>/kudo-render/oci.
func DefaultCacheDir(cacheDir string) (string, error) {
	if cacheDir != "" {
		return filepath.Abs(filepath.Join(cacheDir, "oci"))
	}
	return cachedir.UserDir("oci")
}
