package ocitest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	"github.com/notaryproject/notation-go"
	notationreg "github.com/notaryproject/notation-go/registry"
	"github.com/notaryproject/notation-go/signer"
	"oras.land/oras-go/v2/registry/remote"
)

// Signer signs artifacts with notation under a certificate authority of
// its own.
type Signer struct {
	root    *x509.Certificate
	leaf    *x509.Certificate
	leafKey *ecdsa.PrivateKey
}

// Subject is the signing certificate's subject, for trusted identities:
// "x509.subject: " + Subject.
const Subject = "CN=release,O=Example,ST=Berlin,C=DE"

// NewSigner makes a root certificate and a code-signing leaf under it.
func NewSigner(t testing.TB) *Signer {
	rootKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	rootTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "root", Organization: []string{"Example"}, Province: []string{"Berlin"}, Country: []string{"DE"}},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	root := makeCert(t, rootTmpl, rootTmpl, &rootKey.PublicKey, rootKey)
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "release", Organization: []string{"Example"}, Province: []string{"Berlin"}, Country: []string{"DE"}},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}, BasicConstraintsValid: true,
	}
	leaf := makeCert(t, leafTmpl, root, &leafKey.PublicKey, rootKey)
	return &Signer{root: root, leaf: leaf, leafKey: leafKey}
}

func makeCert(t testing.TB, tmpl, parent *x509.Certificate, pub *ecdsa.PublicKey, key *ecdsa.PrivateKey) *x509.Certificate {
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RootPEM is the root certificate, the one a verify.certificate trusts.
func (s *Signer) RootPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.root.Raw}))
}

// Sign signs the manifest digest of repository (host/repo) of the registry
// and pushes the signature as a referrer (JWS envelope).
func (s *Signer) Sign(t testing.TB, reg *Registry, repository, digest string) {
	repo, err := remote.NewRepository(reg.Host + "/" + repository)
	if err != nil {
		t.Fatal(err)
	}
	repo.PlainHTTP = true
	sg, err := signer.NewGenericSigner(s.leafKey, []*x509.Certificate{s.leaf, s.root})
	if err != nil {
		t.Fatal(err)
	}
	_, err = notation.Sign(context.Background(), sg, notationreg.NewRepository(repo), notation.SignOptions{
		ArtifactReference: reg.Host + "/" + repository + "@" + digest,
		SignerSignOptions: notation.SignerSignOptions{SignatureMediaType: "application/jose+json"},
	})
	if err != nil {
		t.Fatal(err)
	}
}
