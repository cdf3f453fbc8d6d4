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
// (KUDO_RENDER_OCI_USERNAME and _PASSWORD) for the registries of
// KUDO_RENDER_OCI_HOSTS, or of hosts when it is unset (the registries the
// FunctionConfig names itself: a base's own extends must not receive
// them); for every other registry, what the Docker config
// ($DOCKER_CONFIG/config.json, ~/.docker/config.json, its credential
// helpers) holds for that registry. A registry only ever receives its own.
func Credentials(getenv func(string) string, hosts []string) (auth.CredentialFunc, error) {
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
	if h := getenv(EnvHosts); h != "" {
		hosts = strings.Split(h, ",")
	}
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
