package oci_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// TestCredentials: a registry that needs credentials gets the
// environment's when KUDO_RENDER_OCI_HOSTS lists it (required with them),
// or its own entry of the Docker config; another registry read in the same
// run never receives them.
func TestCredentials(t *testing.T) {
	private, public := newEnv(t), ocitest.Start(t)
	pushed := private.push(t, pkgDir, "pkgs/mysql:v1", "flux")
	other := (&env{reg: public, cache: private.cache}).push(t, filepath.Dir(pkgDir)+"/toggle", "pkgs/mysql:v1", "flux")
	private.reg.RequireAuth("robot", "s3cret")
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no Docker config
	env := map[string]string{oci.EnvUsername: "robot", oci.EnvPassword: "s3cret"}
	getenv := func(k string) string { return env[k] }
	read := func(hosts []string) error {
		env[oci.EnvHosts] = strings.Join(hosts, ",")
		creds, err := oci.Credentials(getenv)
		if err != nil {
			t.Fatal(err)
		}
		s := private.source(t, func(o *oci.Options) { o.Credentials, o.CacheDir = creds, t.TempDir() })
		if _, err := open(t, s, bundle.OCISource{URL: public.URL + "/pkgs/mysql", Digest: other}); err != nil {
			t.Fatal(err)
		}
		_, err = open(t, s, bundle.OCISource{URL: private.reg.URL + "/pkgs/mysql", Digest: pushed})
		return err
	}
	if err := read([]string{"registry.example:5000"}); err == nil || !strings.Contains(err.Error(), "credential not found") {
		t.Errorf("without credentials for it: %v, want unauthorized", err)
	}
	env[oci.EnvHosts] = ""
	if _, err := oci.Credentials(getenv); err == nil || !strings.Contains(err.Error(), "KUDO_RENDER_OCI_HOSTS is not") {
		t.Errorf("credentials without hosts: %v, want an error naming KUDO_RENDER_OCI_HOSTS", err)
	}
	if err := read([]string{private.reg.Host}); err != nil {
		t.Errorf("with the environment's credentials: %v", err)
	}
	// The Docker config's entry of the private registry.
	delete(env, oci.EnvUsername)
	delete(env, oci.EnvPassword)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"auths":{"`+private.reg.Host+`":{"auth":"cm9ib3Q6czNjcmV0"}}}`), 0o600)
	t.Setenv("DOCKER_CONFIG", dir)
	if err := read(nil); err != nil {
		t.Errorf("with the Docker config: %v", err)
	}
	if a := public.Auths(); len(a) != 0 {
		t.Errorf("the other registry received credentials: %q", a)
	}
	if a := private.reg.Auths(); len(a) == 0 {
		t.Error("the private registry received no credentials")
	}
}
