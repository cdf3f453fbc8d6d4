package oci

import (
	"fmt"
	"net"
	"strings"

	"oras.land/oras-go/v2/registry"
)

// Scheme is the prefix of every OCI source URL.
const Scheme = "oci://"

// Repo is a parsed oci:// URL: a registry (host[:port]) and a repository.
type Repo struct {
	Registry   string
	Repository string
}

func (r Repo) String() string { return Scheme + r.Registry + "/" + r.Repository }

// ParseURL parses oci://registry[:port]/repository. The URL may carry
// neither credentials, a tag, a digest, a query nor a fragment: the tag
// and the digest have fields of their own.
func ParseURL(u string) (Repo, error) {
	rest, ok := strings.CutPrefix(u, Scheme)
	if !ok {
		return Repo{}, fmt.Errorf("%q: an OCI source URL starts with %s", u, Scheme)
	}
	if strings.ContainsAny(rest, "@?#\\ ") || strings.ContainsFunc(rest, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return Repo{}, fmt.Errorf("%q: must be oci://registry[:port]/repository (no credentials, tag, digest, query or spaces: tag and digest are fields of their own)", u)
	}
	ref, err := registry.ParseReference(rest)
	if err != nil || ref.Reference != "" {
		return Repo{}, fmt.Errorf("%q: must be oci://registry[:port]/repository: %v", u, errOrTag(err))
	}
	return Repo{Registry: ref.Registry, Repository: ref.Repository}, nil
}

func errOrTag(err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("a tag belongs in the tag field")
}

// Loopback reports whether registry (host[:port]) is on the loopback
// address: localhost, 127.0.0.0/8 or ::1. Only such a registry is spoken to
// over plain HTTP, as oras and Flux allow; every other over HTTPS.
func Loopback(registry string) bool {
	host := registry
	if h, _, err := net.SplitHostPort(registry); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
