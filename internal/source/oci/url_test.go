package oci_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/source/oci"
)

// TestParseURL: only oci://registry[:port]/repository; credentials, tags,
// digests and queries are refused (the tag and digest have fields of their
// own, credentials come from the environment or the Docker config).
func TestParseURL(t *testing.T) {
	for u, want := range map[string]string{
		"oci://registry.example/kudo/mysql":       "registry.example|kudo/mysql",
		"oci://127.0.0.1:5000/mysql":              "127.0.0.1:5000|mysql",
		"oci://[::1]:5000/a/b":                    "[::1]:5000|a/b",
		"oci://user:token@registry.example/kudo":  "credentials",
		"oci://registry.example/kudo/mysql:5.7":   "tag",
		"oci://registry.example/kudo@sha256:0000": "tag, digest",
		"oci://registry.example/kudo?x=1":         "query",
		"https://registry.example/kudo":           "starts with oci://",
		"oci://registry.example/Kudo":             "repository",
	} {
		r, err := oci.ParseURL(u)
		got := r.Registry + "|" + r.Repository
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, want) {
			t.Errorf("ParseURL(%q) = %q, want %q", u, got, want)
		}
	}
	for host, want := range map[string]bool{"localhost:5000": true, "127.0.0.2": true, "[::1]:5000": true, "registry.example": false, "10.0.0.1:5000": false, "localhost.example.com": false} {
		if oci.Loopback(host) != want {
			t.Errorf("Loopback(%q) = %v", host, !want)
		}
	}
}
