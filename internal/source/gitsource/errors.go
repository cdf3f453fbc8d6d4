package gitsource

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Error is the error of every [Fetcher] method. Its message never contains
// credentials: the URL is scrubbed, and so is the text of the cause.
type Error struct {
	// URL is the scrubbed repository URL.
	URL string
	// Ref is the ref or commit as given ("" for the default branch).
	Ref string
	// Msg says what went wrong (scrubbed).
	Msg string
	// Kind is one of the sentinel errors (ErrInvalid, ErrNotCached, ...) or
	// nil; context.Canceled and context.DeadlineExceeded are kept too.
	Kind error
}

func (e *Error) Error() string {
	src := e.URL
	if src == "" {
		src = "(no URL)"
	}
	if e.Ref != "" {
		src += "@" + e.Ref
	}
	if strings.ContainsFunc(src, unicode.IsControl) {
		src = strconv.Quote(src)
	}
	return "git source " + src + ": " + e.Msg
}

// Unwrap returns the sentinel kind, not the underlying error, whose text may
// hold credentials.
func (e *Error) Unwrap() error { return e.Kind }

// kindError is an internal error with a kind and a message to scrub.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// describe turns an error of go-git or the network into a short message and a
// kind. authSent tells whether credentials were offered.
func describe(err error, host string, authSent bool) (string, error) {
	var ke *kindError
	switch {
	case errors.As(err, &ke):
		return ke.msg, ke.kind
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out", context.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return "canceled", context.Canceled
	case errors.Is(err, transport.ErrAuthenticationRequired):
		if authSent {
			return "authentication failed: the server rejected the credentials", ErrAuth
		}
		return "authentication required: set " + EnvGitToken + " (or " + EnvGitUsername + " and " + EnvGitPassword + ") for https, " + EnvSSHKeyFile + " for ssh", ErrAuth
	case errors.Is(err, transport.ErrAuthorizationFailed):
		return "access denied: the credentials have no read access", ErrAuth
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return "repository not found (or no read access)", ErrNotFound
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return "the repository is empty", ErrNotFound
	case errors.Is(err, git.ErrRepositoryNotExists):
		return "not a git repository", ErrNotFound
	case errors.Is(err, syscall.ECONNRESET):
		return "connection to " + host + " reset", nil
	}
	if msg, ok := unreachable(err, host); ok {
		return msg + "; " + offlineHint, nil
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "cannot resolve host " + dns.Name, nil
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out connecting to " + host, context.DeadlineExceeded
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return msg, nil
}

// offlineHint ends the message of a source that could not be fetched for
// want of a network: the cache is the way out.
const offlineHint = "with no network, --offline renders from a cache that already holds the source " +
	"(filled by an earlier run online with the same cache folder: --cache-dir or " + EnvCache + ")"

// unreachable describes an error that says the git server could not be
// reached at all (no network, no route, nobody listening, no name server,
// no answer within the connect timeout), by the errors of the net package
// and the system calls under them, never by their text.
func unreachable(err error, host string) (string, bool) {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ECONNREFUSED:
			return "cannot connect to " + host + ": connection refused", true
		case syscall.ENETUNREACH, syscall.EHOSTUNREACH, syscall.ENETDOWN, syscall.EHOSTDOWN:
			return "cannot reach " + host + ": " + errno.Error(), true
		}
	}
	var ct *connectTimeoutError
	if errors.As(err, &ct) {
		return ct.Error(), true
	}
	// A name that does not exist is a typo rather than a missing network;
	// any other failed look-up (no name server to ask) is the network.
	var dns *net.DNSError
	if errors.As(err, &dns) && !dns.IsNotFound {
		return "cannot resolve host " + dns.Name, true
	}
	return "", false
}
