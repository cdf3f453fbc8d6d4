package gitsource

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/google/go-cmp/cmp/cmpopts"
	cryptossh "golang.org/x/crypto/ssh"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// sshKey returns an ed25519 private key in OpenSSH format, encrypted when
// passphrase is set.
func sshKey(t *testing.T, passphrase string) []byte {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var block *pem.Block
	if passphrase == "" {
		block, err = cryptossh.MarshalPrivateKey(priv, "test")
	} else {
		block, err = cryptossh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(block)
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAuthFromEnv(t *testing.T) {
	const secret = "tok-S3CRET-value"
	key := sshKey(t, "")
	encKey := sshKey(t, "pass-phrase-1")
	keyFile := writeFile(t, "id", string(key))
	encKeyFile := writeFile(t, "id_enc", string(encKey))
	knownHosts := writeFile(t, "known_hosts", "")
	cases := map[string]struct {
		reason string
		env    map[string]string
		want   *Auth
		err    string // from AuthFromEnv or New
	}{
		"Nothing": {
			reason: "No variables, no credentials.",
			want:   &Auth{},
		},
		"Token": {
			reason: "A token, for its host.",
			env:    map[string]string{EnvGitToken: secret, EnvGitHosts: "github.com"},
			want:   &Auth{Token: secret, Hosts: []string{"github.com"}},
		},
		"TokenFile": {
			reason: "A token from a mounted file loses its trailing newline.",
			env:    map[string]string{EnvGitToken + "_FILE": writeFile(t, "token", secret+"\n"), EnvGitHosts: "github.com"},
			want:   &Auth{Token: secret, Hosts: []string{"github.com"}},
		},
		"TokenWithoutHosts": {
			reason: "A token must say which hosts it is for: a team's config could name any host.",
			env:    map[string]string{EnvGitToken: secret},
			err:    "git credentials: KUDO_RENDER_GIT_TOKEN is set but KUDO_RENDER_GIT_HOSTS is not: list the hosts",
		},
		"BearerWithoutHosts": {
			reason: "So must a bearer token.",
			env:    map[string]string{EnvGitBearerToken: secret},
			err:    "KUDO_RENDER_GIT_BEARER_TOKEN is set but KUDO_RENDER_GIT_HOSTS is not",
		},
		"HostIsAURL": {
			reason: "A URL in the hosts would match nothing.",
			env:    map[string]string{EnvGitToken: secret, EnvGitHosts: "https://github.com"},
			err:    `KUDO_RENDER_GIT_HOSTS: "https://github.com" is not a host or host:port`,
		},
		"HostsWithoutCredentials": {
			reason: "Hosts alone are fine (the Argo CD sidecar sets them whether or not a token is mounted).",
			env:    map[string]string{EnvGitHosts: "github.com"},
			want:   &Auth{Hosts: []string{"github.com"}},
		},
		"BasicAuth": {
			reason: "User and password, hosts restricted.",
			env:    map[string]string{EnvGitUsername: "bot", EnvGitPassword + "_FILE": writeFile(t, "pw", secret), EnvGitHosts: "github.com, git.example.com:8443"},
			want:   &Auth{Username: "bot", Password: secret, Hosts: []string{"github.com", "git.example.com:8443"}},
		},
		"SSHKey": {
			reason: "An ssh key file and known_hosts.",
			env:    map[string]string{EnvSSHKeyFile: keyFile, EnvKnownHosts: knownHosts},
			want:   &Auth{SSHKey: key, KnownHostsFiles: []string{knownHosts}},
		},
		"EncryptedSSHKey": {
			reason: "An encrypted key with its passphrase.",
			env:    map[string]string{EnvSSHKeyFile: encKeyFile, EnvSSHKeyPassphrase: "pass-phrase-1"},
			want:   &Auth{SSHKey: encKey, SSHKeyPassphrase: "pass-phrase-1"},
		},
		"BothValueAndFile": {
			reason: "A variable and its _FILE conflict.",
			env:    map[string]string{EnvGitToken: secret, EnvGitToken + "_FILE": "/x"},
			err:    "set KUDO_RENDER_GIT_TOKEN or KUDO_RENDER_GIT_TOKEN_FILE, not both",
		},
		"MissingFile": {
			reason: "A _FILE that cannot be read.",
			env:    map[string]string{EnvGitToken + "_FILE": "/nonexistent/token"},
			err:    "KUDO_RENDER_GIT_TOKEN_FILE: cannot read",
		},
		"PasswordWithoutUser": {
			reason: "A password needs a user.",
			env:    map[string]string{EnvGitPassword: secret, EnvGitHosts: "github.com"},
			err:    "KUDO_RENDER_GIT_PASSWORD needs KUDO_RENDER_GIT_USERNAME",
		},
		"TwoSecrets": {
			reason: "A token and a password conflict.",
			env:    map[string]string{EnvGitUsername: "u", EnvGitPassword: secret, EnvGitToken: secret},
			err:    "set one of",
		},
		"EncryptedKeyWithoutPassphrase": {
			reason: "An encrypted key needs its passphrase.",
			env:    map[string]string{EnvSSHKeyFile: encKeyFile},
			err:    "ssh key: encrypted, set KUDO_RENDER_SSH_KEY_PASSPHRASE",
		},
		"WrongPassphrase": {
			reason: "A wrong passphrase is reported, and not printed.",
			env:    map[string]string{EnvSSHKeyFile: encKeyFile, EnvSSHKeyPassphrase: "wrong-" + secret},
			err:    "ssh key: cannot parse it",
		},
		"MissingKnownHosts": {
			reason: "A known_hosts file that does not exist.",
			env:    map[string]string{EnvKnownHosts: "/nonexistent/known_hosts"},
			err:    "KUDO_RENDER_KNOWN_HOSTS",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			got, err := AuthFromEnv(getenv)
			if err == nil {
				_, err = New(Options{CacheDir: t.TempDir(), Auth: got})
			}
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("%s\nAuthFromEnv: %v", tc.reason, err)
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s\nAuthFromEnv: %v, want an error containing %q", tc.reason, err, tc.err)
				}
				if strings.Contains(err.Error(), secret) {
					t.Errorf("%s\nAuthFromEnv: the error shows the secret: %v", tc.reason, err)
				}
				return
			}
			assert.Check(t, is.DeepEqual(tc.want, got, cmpopts.EquateEmpty()), "%s\nAuthFromEnv", tc.reason)
		})
	}
}

func TestAuthMethod(t *testing.T) {
	t.Setenv("SSH_AUTH_SOCK", "")
	knownHosts := writeFile(t, "known_hosts", "")
	key := sshKey(t, "")
	cases := map[string]struct {
		reason string
		auth   Auth
		url    string
		want   any // *githttp.BasicAuth, *githttp.TokenAuth, string (ssh user) or nil
		err    string
	}{
		"None": {
			reason: "No credentials, no auth.",
			url:    "https://github.com/org/repo",
		},
		"Token": {
			reason: "A token is the basic auth password of x-access-token.",
			auth:   Auth{Token: "tok", Hosts: []string{"github.com"}},
			url:    "https://github.com/org/repo",
			want:   &githttp.BasicAuth{Username: "x-access-token", Password: "tok"},
		},
		"TokenWithUser": {
			reason: "A token with an explicit user.",
			auth:   Auth{Token: "tok", Username: "oauth2", Hosts: []string{"gitlab.com"}},
			url:    "https://gitlab.com/org/repo",
			want:   &githttp.BasicAuth{Username: "oauth2", Password: "tok"},
		},
		"Bearer": {
			reason: "A bearer token.",
			auth:   Auth{BearerToken: "tok", Hosts: []string{"dev.azure.com"}},
			url:    "https://dev.azure.com/org/repo",
			want:   &githttp.TokenAuth{Token: "tok"},
		},
		"NoHosts": {
			reason: "Credentials without hosts go nowhere (and New refuses them).",
			auth:   Auth{Token: "tok"},
			url:    "https://github.com/org/repo",
		},
		"URLWins": {
			reason: "Credentials in the URL win.",
			auth:   Auth{Token: "tok"},
			url:    "https://me:pw@github.com/org/repo",
			want:   &githttp.BasicAuth{Username: "me", Password: "pw"},
		},
		"HostMatchesWithPort": {
			reason: "A host without port matches any port.",
			auth:   Auth{Token: "tok", Hosts: []string{"GitHub.com"}},
			url:    "https://github.com:443/org/repo",
			want:   &githttp.BasicAuth{Username: "x-access-token", Password: "tok"},
		},
		"HostMismatch": {
			reason: "Credentials are not sent to other hosts.",
			auth:   Auth{Token: "tok", Hosts: []string{"github.com"}},
			url:    "https://evil.example.com/org/repo",
		},
		"PortMismatch": {
			reason: "A host with a port matches that port only.",
			auth:   Auth{Token: "tok", Hosts: []string{"git.example.com:8443"}},
			url:    "https://git.example.com/org/repo",
		},
		"SSHKey": {
			reason: "An ssh key, the user from the URL.",
			auth:   Auth{SSHKey: key, KnownHostsFiles: []string{knownHosts}},
			url:    "deploy@git.example.com:org/repo",
			want:   "deploy",
		},
		"SSHDefaultUser": {
			reason: "ssh users default to git.",
			auth:   Auth{SSHKey: key, KnownHostsFiles: []string{knownHosts}},
			url:    "ssh://git.example.com/org/repo",
			want:   "git",
		},
		"SSHNoKeyNoAgent": {
			reason: "ssh needs a key or an agent.",
			auth:   Auth{KnownHostsFiles: []string{knownHosts}},
			url:    "git@github.com:org/repo",
			err:    "no ssh key: set KUDO_RENDER_SSH_KEY_FILE or start an ssh-agent",
		},
		"SSHMissingKnownHosts": {
			reason: "Host keys are always checked.",
			auth:   Auth{SSHKey: key, KnownHostsFiles: []string{"/nonexistent/known_hosts"}},
			url:    "git@github.com:org/repo",
			err:    "ssh known_hosts",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, err := parseEndpoint(tc.url, Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := tc.auth.method(e)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("%s\nmethod(%s): %v, want an error containing %q", tc.reason, tc.url, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nmethod(%s): %v", tc.reason, tc.url, err)
			}
			var got any = m
			if pk, ok := m.(*gitssh.PublicKeys); ok {
				got = pk.User
				if pk.HostKeyCallback == nil {
					t.Errorf("%s\nmethod(%s): no host key check", tc.reason, tc.url)
				}
			}
			if m == nil {
				got = nil
			}
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nmethod(%s)", tc.reason, tc.url)
		})
	}
}
