package oci

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
)

// Environment variables read by [Credentials]. Each secret may come from a
// file instead: NAME_FILE names it.
const (
	EnvUsername = "KUDO_RENDER_OCI_USERNAME"
	EnvPassword = "KUDO_RENDER_OCI_PASSWORD"
	// EnvHosts lists the registries (host[:port], comma-separated) that
	// receive the environment's credentials.
	EnvHosts = "KUDO_RENDER_OCI_HOSTS"
)

// Credentials returns the credentials of each registry: the environment's
// (KUDO_RENDER_OCI_USERNAME and _PASSWORD) for the registries
// KUDO_RENDER_OCI_HOSTS lists, which is required with them (as
// KUDO_RENDER_GIT_HOSTS is with git credentials: a FunctionConfig or a base
// chooses which registries it names, so it cannot choose who receives
// them); for every other registry, what the Docker config
// ($DOCKER_CONFIG/config.json, ~/.docker/config.json, its credential
// helpers) holds for that registry. A registry only ever receives its own.
// extra lists further registries for the environment's credentials (the
// one `kudo-render push` pushes to, named on its command line).
func Credentials(getenv func(string) string, extra ...string) (auth.CredentialFunc, error) {
	user, err := secret(getenv, EnvUsername)
	if err != nil {
		return nil, err
	}
	pass, err := secret(getenv, EnvPassword)
	if err != nil {
		return nil, err
	}
	if (user == "") != (pass == "") {
		return nil, fmt.Errorf("%s and %s go together", EnvUsername, EnvPassword)
	}
	hosts, err := registryHosts(getenv(EnvHosts))
	if err != nil {
		return nil, err
	}
	if user != "" && len(hosts)+len(extra) == 0 {
		return nil, fmt.Errorf("OCI credentials: %s is set but %s is not: list the registries the credentials are for "+
			"(comma-separated host or host:port, e.g. %s=registry.example.com); they are sent to no other registry", EnvUsername, EnvHosts, EnvHosts)
	}
	hosts = append(hosts, extra...)
	store, err := credentials.NewStoreFromDocker(credentials.StoreOptions{})
	if err != nil {
		return nil, fmt.Errorf("the Docker config: %w", err)
	}
	docker := credentials.Credential(store)
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if user != "" && slices.Contains(hosts, hostport) {
			return auth.Credential{Username: user, Password: pass}, nil
		}
		return docker(ctx, hostport)
	}, nil
}

// registryHosts splits KUDO_RENDER_OCI_HOSTS, each a host or host:port.
func registryHosts(v string) ([]string, error) {
	var out []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if strings.ContainsAny(h, "/@?# ") {
			return nil, fmt.Errorf("%s: %q is not a host or host:port (write registry.example.com or registry.example.com:5000)", EnvHosts, h)
		}
		out = append(out, h)
	}
	return out, nil
}

// secret is NAME, or the content of the file NAME_FILE names without its
// trailing newline.
func secret(getenv func(string) string, name string) (string, error) {
	if v := getenv(name); v != "" {
		return v, nil
	}
	f := getenv(name + "_FILE")
	if f == "" {
		return "", nil
	}
	data, err := os.ReadFile(f)
	if err != nil {
		return "", fmt.Errorf("%s_FILE: %w", name, err)
	}
	return strings.TrimRight(string(data), "\r\n"), nil
}
