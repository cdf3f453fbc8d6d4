package gitsource

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	cryptossh "golang.org/x/crypto/ssh"
)

// Environment variables read by [AuthFromEnv]. Each secret may instead be
// given as a file (a mounted Kubernetes Secret): the variable name with the
// suffix _FILE names it, and the file's content without its trailing newline
// is the value. Setting both a variable and its _FILE is an error.
const (
	// EnvGitToken: an https access token, sent as the password of HTTP basic
	// auth with the user EnvGitUsername (default "x-access-token"), as
	// GitHub, GitLab, Gitea and Bitbucket accept.
	EnvGitToken = "KUDO_RENDER_GIT_TOKEN"
	// EnvGitUsername and EnvGitPassword: HTTP basic auth.
	EnvGitUsername = "KUDO_RENDER_GIT_USERNAME"
	EnvGitPassword = "KUDO_RENDER_GIT_PASSWORD"
	// EnvGitBearerToken: sent as "Authorization: Bearer <token>" (Azure
	// DevOps, Bitbucket Server HTTP access tokens).
	EnvGitBearerToken = "KUDO_RENDER_GIT_BEARER_TOKEN"
	// EnvGitHosts: comma-separated hosts (host or host:port) that receive the
	// https credentials above, and no other host; required with them.
	EnvGitHosts = "KUDO_RENDER_GIT_HOSTS"
	// EnvSSHKeyFile: a private key file for ssh URLs (PEM or OpenSSH format).
	EnvSSHKeyFile = "KUDO_RENDER_SSH_KEY_FILE"
	// EnvSSHKeyPassphrase: the passphrase of an encrypted key.
	EnvSSHKeyPassphrase = "KUDO_RENDER_SSH_KEY_PASSPHRASE"
	// EnvKnownHosts: a known_hosts file checked for ssh host keys. Unset:
	// $SSH_KNOWN_HOSTS, else ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts.
	EnvKnownHosts = "KUDO_RENDER_KNOWN_HOSTS"
)

// defaultTokenUser is the basic auth user sent with a token.
const defaultTokenUser = "x-access-token"

// Auth holds the credentials of a [Fetcher]. Credentials written in a URL's
// user info (https://user:token@host/...) take precedence for that URL.
type Auth struct {
	// Hosts are the hosts the https credentials are for (host or
	// host:port; a host without port matches every port): they are sent
	// to no other host, whatever URL a FunctionConfig or a base names.
	// Required with https credentials ([New] fails without). Credentials
	// are never sent over http:// unless Options.AllowInsecureHTTP.
	Hosts []string
	// Username and Password: HTTP basic auth.
	Username, Password string
	// Token: HTTP basic auth with Username (default "x-access-token") and the
	// token as password.
	Token string
	// BearerToken: "Authorization: Bearer".
	BearerToken string
	// SSHKey is a private key (PEM or OpenSSH format) for ssh URLs; without
	// one, ssh URLs use the ssh-agent at $SSH_AUTH_SOCK.
	SSHKey []byte
	// SSHKeyPassphrase decrypts SSHKey.
	SSHKeyPassphrase string
	// KnownHostsFiles are checked for ssh host keys. Empty: $SSH_KNOWN_HOSTS,
	// else ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts. Host keys are
	// always checked.
	KnownHostsFiles []string
}

// AuthFromEnv reads credentials from the environment variables Env* (see
// the constants), through getenv (os.Getenv in production).
func AuthFromEnv(getenv func(string) string) (*Auth, error) {
	var errs []error
	get := func(name string) string {
		v, err := envOrFile(getenv, name)
		if err != nil {
			errs = append(errs, err)
		}
		return v
	}
	a := &Auth{
		Username:         get(EnvGitUsername),
		Password:         get(EnvGitPassword),
		Token:            get(EnvGitToken),
		BearerToken:      get(EnvGitBearerToken),
		SSHKeyPassphrase: get(EnvSSHKeyPassphrase),
	}
	for _, h := range strings.Split(getenv(EnvGitHosts), ",") {
		if h = strings.TrimSpace(h); h != "" {
			a.Hosts = append(a.Hosts, h)
		}
	}
	if f := getenv(EnvSSHKeyFile); f != "" {
		key, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: cannot read the ssh key: %w", EnvSSHKeyFile, causeOf(err)))
		}
		a.SSHKey = key
	}
	if f := getenv(EnvKnownHosts); f != "" {
		if _, err := os.Stat(f); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", EnvKnownHosts, causeOf(err)))
		}
		a.KnownHostsFiles = []string{f}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return a, nil
}

// envOrFile reads NAME or the file named by NAME_FILE.
func envOrFile(getenv func(string) string, name string) (string, error) {
	v, f := getenv(name), getenv(name+"_FILE")
	switch {
	case v != "" && f != "":
		return "", fmt.Errorf("set %s or %s_FILE, not both", name, name)
	case f != "":
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("%s_FILE: cannot read: %w", name, causeOf(err))
		}
		return strings.TrimRight(string(data), "\r\n"), nil
	}
	return v, nil
}

// check reports inconsistent credentials and unusable keys. Messages never
// contain a secret.
func (a *Auth) check() error {
	n := 0
	for _, set := range []bool{a.Password != "", a.Token != "", a.BearerToken != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("git credentials: set one of %s, %s and %s", EnvGitPassword, EnvGitToken, EnvGitBearerToken)
	}
	if a.Password != "" && a.Username == "" {
		return fmt.Errorf("git credentials: %s needs %s", EnvGitPassword, EnvGitUsername)
	}
	if err := a.checkHosts(); err != nil {
		return err
	}
	if len(a.SSHKey) > 0 {
		if _, err := a.sshSigner(); err != nil {
			return err
		}
	}
	return nil
}

func (a *Auth) sshSigner() (cryptossh.Signer, error) {
	var (
		s   cryptossh.Signer
		err error
	)
	if a.SSHKeyPassphrase != "" {
		s, err = cryptossh.ParsePrivateKeyWithPassphrase(a.SSHKey, []byte(a.SSHKeyPassphrase))
	} else {
		s, err = cryptossh.ParsePrivateKey(a.SSHKey)
	}
	if err != nil {
		var missing *cryptossh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, fmt.Errorf("ssh key: encrypted, set %s", EnvSSHKeyPassphrase)
		}
		return nil, errors.New("ssh key: cannot parse it (wrong passphrase, or not a private key)")
	}
	return s, nil
}

// secrets lists the values to mask in messages.
func (a *Auth) secrets() []string {
	return []string{a.Password, a.Token, a.BearerToken, a.SSHKeyPassphrase}
}

// hasHTTP tells whether https credentials are configured.
func (a *Auth) hasHTTP() bool {
	return a.Password != "" || a.Token != "" || a.BearerToken != ""
}

// checkHosts requires the hosts of https credentials, each a host or
// host:port (a URL or a path would match nothing).
func (a *Auth) checkHosts() error {
	if a.hasHTTP() && len(a.Hosts) == 0 {
		return fmt.Errorf("git credentials: %s is set but %s is not: list the hosts the credentials are for "+
			"(comma-separated host or host:port, e.g. %s=github.com); they are sent to no other host", a.httpVar(), EnvGitHosts, EnvGitHosts)
	}
	for _, h := range a.Hosts {
		if strings.ContainsAny(h, "/@?#") || strings.TrimSpace(h) != h || h == "" {
			return fmt.Errorf("%s: %q is not a host or host:port (write git.example.com or git.example.com:8443)", EnvGitHosts, h)
		}
	}
	return nil
}

// httpVar names the variable of the https credentials set.
func (a *Auth) httpVar() string {
	switch {
	case a.Token != "":
		return EnvGitToken
	case a.BearerToken != "":
		return EnvGitBearerToken
	}
	return EnvGitPassword
}

// sendsTo tells whether the https credentials go to host (host[:port]).
func (a *Auth) sendsTo(host string) bool {
	hostOnly := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		hostOnly = h
	}
	for _, h := range a.Hosts {
		h = strings.ToLower(h)
		if h == host || h == hostOnly {
			return true
		}
	}
	return false
}

// method returns the go-git auth method for e (nil: none). sent tells
// whether credentials are offered, for messages.
func (a *Auth) method(e *endpoint) (m transport.AuthMethod, sent bool, err error) {
	switch e.kind {
	case kindHTTPS, kindHTTP:
		if e.user != "" || e.password != "" {
			return &githttp.BasicAuth{Username: e.user, Password: e.password}, true, nil
		}
		if !a.hasHTTP() || !a.sendsTo(e.host) {
			return nil, false, nil
		}
		switch {
		case a.BearerToken != "":
			return &githttp.TokenAuth{Token: a.BearerToken}, true, nil
		case a.Token != "":
			user := a.Username
			if user == "" {
				user = defaultTokenUser
			}
			return &githttp.BasicAuth{Username: user, Password: a.Token}, true, nil
		default:
			return &githttp.BasicAuth{Username: a.Username, Password: a.Password}, true, nil
		}
	case kindSSH, kindSCP:
		user := e.user
		if user == "" {
			user = "git"
		}
		hostKeys, err := gitssh.NewKnownHostsCallback(a.KnownHostsFiles...)
		if err != nil {
			return nil, false, fmt.Errorf("ssh known_hosts: %v (set %s)", causeOf(err), EnvKnownHosts)
		}
		if len(a.SSHKey) > 0 {
			signer, err := a.sshSigner()
			if err != nil {
				return nil, false, err
			}
			pk := &gitssh.PublicKeys{User: user, Signer: signer}
			pk.HostKeyCallback = hostKeys
			return pk, true, nil
		}
		agent, err := gitssh.NewSSHAgentAuth(user)
		if err != nil {
			return nil, false, fmt.Errorf("no ssh key: set %s or start an ssh-agent", EnvSSHKeyFile)
		}
		agent.HostKeyCallback = hostKeys
		return agent, true, nil
	}
	return nil, false, nil
}

// causeOf drops the operation and path of a *fs.PathError.
func causeOf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
