package oci

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestCheckRedirect: a registry's redirect (to blob storage) stays on
// HTTPS: plain HTTP only from a loopback registry to a loopback host.
func TestCheckRedirect(t *testing.T) {
	req := func(u string) *http.Request {
		p, _ := url.Parse(u)
		return &http.Request{URL: p}
	}
	cases := []struct {
		from, to, err string
	}{
		{"https://registry.example/v2/x/blobs/sha256:1", "https://storage.example/blob", ""},
		{"http://127.0.0.1:5000/v2/x/blobs/sha256:1", "http://localhost:9000/blob", ""},
		{"https://registry.example/v2/x/blobs/sha256:1", "http://storage.example/blob", "to plain HTTP"},
		{"https://registry.example/v2/x/blobs/sha256:1", "http://127.0.0.1/blob", "to plain HTTP"},
		{"http://127.0.0.1:5000/v2/x/blobs/sha256:1", "http://storage.example/blob", "only a registry on the loopback"},
	}
	for _, c := range cases {
		err := checkRedirect(req(c.to), []*http.Request{req(c.from)})
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s -> %s: %v, want %q", c.from, c.to, err, c.err)
		}
	}
}
