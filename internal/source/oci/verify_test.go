package oci_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// TestVerify: with verify, an artifact opens only with a notation
// signature that chains to the trusted certificate (and names a trusted
// identity): unsigned, signed under another certificate or by another
// identity is refused before anything is pulled; the signature that
// verified is cached, so an offline render verifies too.
func TestVerify(t *testing.T) {
	e := newEnv(t)
	trusted, other := ocitest.NewSigner(t), ocitest.NewSigner(t)
	signed := e.push(t, pkgDir, "pkgs/signed:v1", "flux")
	trusted.Sign(t, e.reg, "pkgs/signed", signed)
	unsigned := e.push(t, pkgDir, "pkgs/unsigned:v1", "argocd")
	foreign := e.push(t, filepath.Dir(pkgDir)+"/toggle", "pkgs/foreign:v1", "flux")
	other.Sign(t, e.reg, "pkgs/foreign", foreign)
	certFile := filepath.Join(t.TempDir(), "root.pem")
	os.WriteFile(certFile, []byte(trusted.RootPEM()), 0o600)
	byFile := &bundle.OCIVerify{Certificate: certFile}
	inline := &bundle.OCIVerify{Certificate: trusted.RootPEM(), Identities: []string{"x509.subject: " + ocitest.Subject}}
	cases := map[string]struct {
		repo, digest string
		verify       *bundle.OCIVerify
		want         string
	}{
		"Signed":          {repo: "pkgs/signed", digest: signed, verify: byFile},
		"SignedIdentity":  {repo: "pkgs/signed", digest: signed, verify: inline},
		"Unsigned":        {repo: "pkgs/unsigned", digest: unsigned, verify: byFile, want: "no signature is associated"},
		"OtherKey":        {repo: "pkgs/foreign", digest: foreign, verify: byFile, want: "no valid notation signature"},
		"OtherIdentity":   {repo: "pkgs/signed", digest: signed, verify: &bundle.OCIVerify{Certificate: certFile, Identities: []string{"x509.subject: CN=someone,O=Else,ST=Berlin,C=DE"}}, want: "no valid notation signature"},
		"UnsignedNoCheck": {repo: "pkgs/unsigned", digest: unsigned},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			s := e.source(t, func(o *oci.Options) { o.CacheDir = cache })
			op, err := open(t, s, bundle.OCISource{URL: e.reg.URL + "/" + c.repo, Digest: c.digest, Verify: c.verify})
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				op.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, oci.ErrRefused) {
				t.Fatalf("got %v, want a refusal containing %q", err, c.want)
			}
			t.Log(err)
			if entries, _ := filepath.Glob(filepath.Join(cache, "sha256", "*")); len(entries) != 0 {
				t.Errorf("pulled %v although the signature did not verify", entries)
			}
		})
	}
	// Offline: the signature cached online verifies; a cache without it refuses.
	src := bundle.OCISource{URL: e.reg.URL + "/pkgs/signed", Digest: signed, Verify: byFile}
	if _, err := open(t, e.source(t, nil), src); err != nil {
		t.Fatal(err)
	}
	off := e.source(t, func(o *oci.Options) { o.Offline = true })
	if _, err := off.Open(context.Background(), src); err != nil {
		t.Fatalf("offline with the cached signature: %v", err)
	}
	os.RemoveAll(filepath.Join(e.cache, "signatures"))
	if _, err := off.Open(context.Background(), src); err == nil || !strings.Contains(err.Error(), "offline: only signatures verified online") {
		t.Fatalf("offline without a cached signature: %v", err)
	}
}

// TestVerifyCertificateConfined: a certificate file outside the
// confinement (the Argo CD application's repository) is not read.
func TestVerifyCertificateConfined(t *testing.T) {
	e := newEnv(t)
	d := e.push(t, pkgDir, "pkgs/signed:v1", "flux")
	ocitest.NewSigner(t).Sign(t, e.reg, "pkgs/signed", d)
	repo, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "root.pem"), []byte("-----BEGIN CERTIFICATE-----\n"), 0o600)
	s := e.source(t, func(o *oci.Options) { o.BaseDir, o.Confine = repo, repo })
	_, err := open(t, s, bundle.OCISource{URL: e.reg.URL + "/pkgs/signed", Digest: d, Verify: &bundle.OCIVerify{Certificate: "../" + filepath.Base(outside) + "/root.pem"}})
	if err == nil || !strings.Contains(err.Error(), "may not leave it") {
		t.Fatalf("got %v, want the confinement error", err)
	}
}
