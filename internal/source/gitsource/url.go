package gitsource

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/lazy"
)

// URL kinds accepted by [ValidateURL].
const (
	kindHTTPS = "https"
	kindHTTP  = "http"
	kindSSH   = "ssh" // ssh://[user@]host[:port]/path
	kindSCP   = "scp" // [user@]host:path
	kindLocal = "local"
)

// endpoint is a validated repository URL.
type endpoint struct {
	kind string
	// raw is the URL as given, credentials included: only handed to go-git.
	raw string
	// scrubbed has no credentials: used in messages and cache keys.
	scrubbed string
	host     string // host[:port], lower case; empty for local
	user     string
	password string // from the URL's user info (https)
	dir      string // local: the repository folder
}

// scpLike matches git's scp-like syntax [user@]host:path, where host has no
// slash (git treats "a/b:c" as a local path).
var scpLike = lazy.Regexp(`^(?:([^@/:\[\]]+)@)?([^@/:\[\]]+|\[[0-9A-Fa-f:.]+\]):(.*)$`)

// bracketed matches IPv6 address literals.
var bracketed = lazy.Regexp(`\[[0-9A-Fa-f:.]*\]`)

// hostname is a DNS name or an IPv4 address.
var hostname = lazy.Regexp(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// ValidateURL checks a repository URL against the rules of [Fetcher]:
// https://, ssh:// and scp-like [user@]host:path are accepted; http:// only
// with opts.AllowInsecureHTTP; file:// and absolute local paths only with
// opts.AllowLocal. Remote helpers (ext::, fd::, ...), git://, option-like
// URLs (starting with '-', or whose host, user or path does), query strings,
// fragments, control characters and anything else are rejected. The error
// never contains credentials.

// localHint says how local repositories are allowed.
const localHint = "a repository on this machine is read only with --allow-local (for local work and tests)"

func ValidateURL(raw string, opts Options) error {
	_, err := parseEndpoint(raw, opts)
	return err
}

func parseEndpoint(raw string, opts Options) (*endpoint, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("invalid git URL %q: %s", Scrub(raw), fmt.Sprintf(format, args...))
	}
	if i := strings.Index(raw, "::"); i > 0 && !strings.ContainsAny(raw[:i], "/@:[") {
		return nil, bad("remote helper transports such as %q are not allowed", raw[:i]+"::")
	}
	// "::" has no business elsewhere either, except in an IPv6 address.
	if strings.Contains(bracketed().ReplaceAllString(raw, ""), "::") {
		return nil, bad(`"::" is only allowed in an IPv6 address`)
	}
	switch {
	case raw == "":
		return nil, errors.New("invalid git URL: empty")
	case strings.HasPrefix(raw, "-"):
		return nil, bad("looks like a command-line option")
	case strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' || r == '\\' }):
		return nil, bad("contains spaces, backslashes or control characters")
	case !isASCII(raw):
		return nil, bad("contains non-ASCII characters")
	}
	if i := strings.Index(raw, "://"); i >= 0 {
		return parseSchemeURL(raw, opts, bad)
	}
	if strings.HasPrefix(raw, "/") {
		if !opts.AllowLocal {
			return nil, bad("local repositories are not allowed here: " + localHint)
		}
		return localEndpoint(raw, raw, bad)
	}
	if m := scpLike().FindStringSubmatch(raw); m != nil {
		user, host, p := m[1], m[2], m[3]
		if len(host) == 1 {
			return nil, bad("a one-letter host looks like a drive letter")
		}
		if err := checkHost(host, true); err != nil {
			return nil, bad("%v", err)
		}
		if err := checkUser(user); err != nil {
			return nil, bad("%v", err)
		}
		if err := checkRepoPath(p); err != nil {
			return nil, bad("%v", err)
		}
		if strings.ContainsAny(p, "?#") {
			return nil, bad("query strings and fragments are not supported")
		}
		return &endpoint{kind: kindSCP, raw: raw, scrubbed: raw, host: strings.ToLower(host), user: user}, nil
	}
	if strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") || raw == "." || raw == ".." {
		return nil, bad("a local path must be absolute")
	}
	return nil, bad("not a URL: use https://host/org/repo, ssh://host/org/repo or git@host:org/repo")
}

func parseSchemeURL(raw string, opts Options, bad func(string, ...any) error) (*endpoint, error) {
	scheme := strings.ToLower(raw[:strings.Index(raw, "://")])
	switch scheme {
	case "https", "ssh":
	case "http":
		if !opts.AllowInsecureHTTP {
			return nil, bad("http:// is not allowed (credentials and content travel unprotected); use https://")
		}
	case "file":
		if !opts.AllowLocal {
			return nil, bad("file:// is not allowed here: " + localHint)
		}
	case "git":
		return nil, bad("git:// is unauthenticated and unencrypted; use https://")
	default:
		return nil, bad("unsupported scheme %q; use https:// or ssh://", scheme)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, bad("cannot parse")
	}
	if u.Opaque != "" {
		return nil, bad("cannot parse")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.ContainsAny(raw, "?#") {
		return nil, bad("query strings and fragments are not supported")
	}
	if scheme == "file" {
		if u.Host != "" && u.Host != "localhost" {
			return nil, bad("file:// URLs name no host")
		}
		if u.User != nil {
			return nil, bad("file:// URLs carry no user")
		}
		return localEndpoint(raw, u.Path, bad)
	}
	if err := checkHost(u.Host, false); err != nil {
		return nil, bad("%v", err)
	}
	e := &endpoint{kind: scheme, raw: raw, host: strings.ToLower(u.Host)}
	if u.User != nil {
		e.user = u.User.Username()
		e.password, _ = u.User.Password()
		if scheme == "ssh" {
			if err := checkUser(e.user); err != nil {
				return nil, bad("%v", err)
			}
		}
	}
	if err := checkRepoPath(u.Path); err != nil {
		return nil, bad("%v", err)
	}
	// The scrubbed form normalizes the scheme and host spelling, for messages
	// and cache keys; only an ssh user name survives.
	auth := ""
	if scheme == "ssh" && e.user != "" {
		auth = url.User(e.user).String() + "@"
	}
	e.scrubbed = scheme + "://" + auth + e.host + u.EscapedPath()
	return e, nil
}

func localEndpoint(raw, p string, bad func(string, ...any) error) (*endpoint, error) {
	if !strings.HasPrefix(p, "/") {
		return nil, bad("a local path must be absolute")
	}
	clean := path.Clean(p)
	return &endpoint{kind: kindLocal, raw: raw, scrubbed: "file://" + clean, dir: clean}, nil
}

// checkHost accepts a host name or IP address with an optional port (the
// port only when withPort is false: scp-like URLs have none).
func checkHost(hostport string, scp bool) error {
	if hostport == "" {
		return errors.New("no host")
	}
	host, port := hostport, ""
	if !scp {
		if h, p, err := net.SplitHostPort(hostport); err == nil {
			host, port = h, p
		} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
			host = hostport[1 : len(hostport)-1]
		} else if strings.Contains(hostport, ":") {
			return fmt.Errorf("bad host %q", hostport)
		}
	} else if strings.HasPrefix(hostport, "[") {
		host = hostport[1 : len(hostport)-1]
	}
	if strings.HasPrefix(host, "-") {
		return errors.New("the host looks like a command-line option")
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("bad port %q", port)
		}
	}
	if net.ParseIP(host) != nil {
		return nil
	}
	if !hostname().MatchString(host) || strings.Contains(host, "..") {
		return fmt.Errorf("bad host name %q", host)
	}
	return nil
}

func checkUser(user string) error {
	if strings.HasPrefix(user, "-") {
		return errors.New("the user looks like a command-line option")
	}
	return nil
}

func checkRepoPath(p string) error {
	t := strings.TrimPrefix(p, "/")
	switch {
	case t == "":
		return errors.New("no repository path")
	case strings.HasPrefix(t, "-"):
		return errors.New("the repository path looks like a command-line option")
	}
	for _, seg := range strings.Split(t, "/") {
		if seg == ".." {
			return errors.New("the repository path contains \"..\"")
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// userinfo matches the user info of URLs inside any text.
var userinfo = lazy.Regexp(`(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s"'<>]*@`)

// Scrub returns url without credentials: the user info of http(s) URLs
// (https://user:token@host → https://host), the password of other URLs
// (ssh://git:pw@host → ssh://git@host), and the query string (which may
// carry tokens). scp-like URLs (git@host:org/repo) carry no secret and are
// returned as they are. Scrub accepts any string and never fails.
func Scrub(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	scheme := strings.ToLower(raw[:i])
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth, tail := rest[:end], rest[end:]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		user := auth[:at]
		host := auth[at+1:]
		switch {
		case scheme == "ssh" || scheme == "git+ssh" || scheme == "ssh+git":
			if c := strings.Index(user, ":"); c >= 0 {
				user = user[:c]
			}
			auth = user + "@" + host
		default:
			auth = host
		}
	}
	if q := strings.IndexAny(tail, "?#"); q >= 0 {
		tail = tail[:q]
	}
	return raw[:i+3] + auth + tail
}

// scrubText removes the user info of every URL in s and replaces each
// non-empty secret by "***".
func scrubText(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 3 {
			s = strings.ReplaceAll(s, sec, "***")
			if esc := url.QueryEscape(sec); esc != sec {
				s = strings.ReplaceAll(s, esc, "***")
			}
			if esc := url.PathEscape(sec); esc != sec {
				s = strings.ReplaceAll(s, esc, "***")
			}
		}
	}
	return userinfo().ReplaceAllStringFunc(s, func(m string) string {
		scheme := m[:strings.Index(m, "://")+3]
		if strings.HasPrefix(strings.ToLower(scheme), "ssh") {
			user := strings.TrimSuffix(m[len(scheme):], "@")
			if c := strings.Index(user, ":"); c >= 0 {
				user = user[:c]
			}
			return scheme + user + "@"
		}
		return scheme
	})
}
