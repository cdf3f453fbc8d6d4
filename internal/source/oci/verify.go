package oci

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	_ "github.com/notaryproject/notation-core-go/signature/cose" // COSE envelopes
	_ "github.com/notaryproject/notation-core-go/signature/jws"  // JWS envelopes
	"github.com/notaryproject/notation-go"
	notationreg "github.com/notaryproject/notation-go/registry"
	"github.com/notaryproject/notation-go/verifier"
	"github.com/notaryproject/notation-go/verifier/trustpolicy"
	"github.com/notaryproject/notation-go/verifier/truststore"
	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

// maxSignatures bounds the signatures tried per artifact.
const maxSignatures = 20

// verify checks a notation signature of the manifest d with the trusted
// certificate and identities of v, before anything of the artifact is
// pulled: online against the registry's signatures (the one that verifies
// is cached), offline against the cached ones.
func (s *Source) verify(ctx context.Context, r Repo, d digest.Digest, v *bundle.OCIVerify) error {
	where := r.String() + "@" + d.String()
	certs, err := s.certificates(v.Certificate)
	if err != nil {
		return fmt.Errorf("%s: verify.certificate: %w", where, err)
	}
	vf, err := notationVerifier(certs, v.Identities)
	if err != nil {
		return fmt.Errorf("%s: verify: %w", where, err)
	}
	var repo notationreg.Repository
	rec := &recordingRepo{}
	if s.opts.Offline {
		desc, err := s.cache.manifest(d)
		if err != nil {
			return fmt.Errorf("%s: %w (offline; the cache is %s)", where, ErrNotCached, s.cache.dir)
		}
		sigs, err := s.cache.signatures(d)
		if err != nil {
			return err
		}
		repo = &cachedRepo{desc: desc, sigs: sigs}
	} else {
		rec.Repository = notationreg.NewRepository(s.repository(r))
		repo = rec
	}
	ref := r.Registry + "/" + r.Repository + "@" + d.String()
	_, outcomes, err := notation.Verify(ctx, vf, repo, notation.VerifyOptions{ArtifactReference: ref, MaxSignatureAttempts: maxSignatures})
	if err != nil {
		return refuse("%s: no valid notation signature from the trusted certificate, nothing pulled: %s%s", where, verifyReason(err), offlineHint(s.opts.Offline))
	}
	if !s.opts.Offline {
		for _, o := range outcomes {
			if o.Error == nil {
				rec.save(s.cache, d, o.RawSignature)
			}
		}
	}
	return nil
}

func offlineHint(offline bool) string {
	if offline {
		return " (offline: only signatures verified online before are in the cache)"
	}
	return ""
}

// verifyReason is notation's reason on one line (it joins the failure of
// each signature with newlines).
func verifyReason(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// certificates reads the trusted certificates: PEM text, or a PEM file
// relative to BaseDir.
func (s *Source) certificates(c string) ([]*x509.Certificate, error) {
	data := []byte(c)
	if !strings.Contains(c, "-----BEGIN") {
		p := c
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.opts.BaseDir, p)
		}
		if s.opts.Confine != "" {
			if err := location.Confined(s.opts.Confine, p); err != nil {
				return nil, err
			}
		}
		var err error
		if data, err = readCertificate(p, s.opts.Limits.FileBytes); err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
	}
	var out []*x509.Certificate
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, err
		}
		out = append(out, cert)
	}
	if len(out) == 0 {
		return nil, errors.New("no PEM certificate found")
	}
	return out, nil
}

// notationVerifier trusts certs as the roots of one policy for every
// registry, at notation's strict level.
func notationVerifier(certs []*x509.Certificate, identities []string) (notation.Verifier, error) {
	if len(identities) == 0 {
		identities = []string{"*"}
	}
	doc := &trustpolicy.Document{Version: "1.0", TrustPolicies: []trustpolicy.TrustPolicy{{
		Name:                  "kudo-render",
		RegistryScopes:        []string{"*"},
		SignatureVerification: trustpolicy.SignatureVerification{VerificationLevel: trustpolicy.LevelStrict.Name},
		TrustStores:           []string{"ca:kudo-render"},
		TrustedIdentities:     identities,
	}}}
	return verifier.New(doc, memoryStore(certs), nil)
}

// memoryStore is the trust store "ca:kudo-render".
type memoryStore []*x509.Certificate

func (m memoryStore) GetCertificates(_ context.Context, t truststore.Type, name string) ([]*x509.Certificate, error) {
	if t != truststore.TypeCA || name != "kudo-render" {
		return nil, fmt.Errorf("no trust store %s:%s", t, name)
	}
	return m, nil
}

// recordingRepo is the registry's notation repository, remembering the
// signature envelopes it fetched.
type recordingRepo struct {
	notationreg.Repository
	mu      sync.Mutex
	fetched []signature
}

func (r *recordingRepo) FetchSignatureBlob(ctx context.Context, desc ocispec.Descriptor) ([]byte, ocispec.Descriptor, error) {
	blob, bd, err := r.Repository.FetchSignatureBlob(ctx, desc)
	if err == nil {
		r.mu.Lock()
		r.fetched = append(r.fetched, signature{Manifest: desc, Blob: bd, Envelope: blob})
		r.mu.Unlock()
	}
	return blob, bd, err
}

// save caches the fetched envelope raw (one that verified).
func (r *recordingRepo) save(c *cache, d digest.Digest, raw []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.fetched {
		if bytes.Equal(s.Envelope, raw) {
			_ = c.saveSignature(d, s) // a cache that cannot record only loses offline verification
		}
	}
}

// cachedRepo serves the cached signatures of one manifest to notation.
type cachedRepo struct {
	desc ocispec.Descriptor
	sigs []signature
}

func (c *cachedRepo) Resolve(_ context.Context, ref string) (ocispec.Descriptor, error) {
	if ref != c.desc.Digest.String() {
		return ocispec.Descriptor{}, fmt.Errorf("%s is not cached", ref)
	}
	return c.desc, nil
}

func (c *cachedRepo) ListSignatures(_ context.Context, _ ocispec.Descriptor, fn func([]ocispec.Descriptor) error) error {
	var descs []ocispec.Descriptor
	for _, s := range c.sigs {
		descs = append(descs, s.Manifest)
	}
	return fn(descs)
}

func (c *cachedRepo) FetchSignatureBlob(_ context.Context, desc ocispec.Descriptor) ([]byte, ocispec.Descriptor, error) {
	for _, s := range c.sigs {
		if s.Manifest.Digest == desc.Digest {
			return s.Envelope, s.Blob, nil
		}
	}
	return nil, ocispec.Descriptor{}, fmt.Errorf("signature %s is not cached", desc.Digest)
}

func (c *cachedRepo) PushSignature(context.Context, string, []byte, ocispec.Descriptor, map[string]string) (ocispec.Descriptor, ocispec.Descriptor, error) {
	return ocispec.Descriptor{}, ocispec.Descriptor{}, errors.New("the cache is read-only")
}

// readCertificate reads a certificate file: a regular file of at most max
// bytes, never opened when it is a named pipe (location.ReadRegular).
func readCertificate(p string, max int64) ([]byte, error) {
	root, err := os.OpenRoot(filepath.Dir(p))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return location.ReadRegular(root, filepath.Base(p), max)
}
