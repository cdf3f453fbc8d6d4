package gitsource

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoNetwork: a fetch that fails for lack of network names the source
// (URL and ref), says why in words, and that --offline with a filled cache
// works; Go's raw dial text ("dial tcp ...: connect: ...") stays out.
func TestNoNetwork(t *testing.T) {
	// What go-git's http transport returns when the sidecar has no route.
	dial := func(errno syscall.Errno) error {
		return &url.Error{Op: "Get", URL: "https://git.example.com/org/repo/info/refs?service=git-upload-pack", Err: &net.OpError{
			Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 443},
			Err: os.NewSyscallError("connect", errno),
		}}
	}
	cases := map[string]struct {
		reason string
		err    error
		want   string
	}{
		"NetworkUnreachable": {reason: "no route at all (no network in the sidecar)", err: dial(syscall.ENETUNREACH), want: "cannot reach git.example.com: network is unreachable"},
		"HostUnreachable":    {reason: "no route to the host", err: dial(syscall.EHOSTUNREACH), want: "cannot reach git.example.com: no route to host"},
		"Refused":            {reason: "nothing listens at the port", err: dial(syscall.ECONNREFUSED), want: "cannot connect to git.example.com: connection refused"},
		"ConnectTimeout": {reason: "packets dropped: no answer within --git-connect-timeout", want: "cannot connect to git.example.com within 10s (raise it with --git-connect-timeout",
			err: &url.Error{Op: "Get", URL: "https://git.example.com/", Err: &connectTimeoutError{host: "git.example.com", timeout: 10 * time.Second}}},
		"NoDNS": {reason: "no name server to ask: the host cannot be looked up", want: "cannot resolve host git.example.com",
			err: &url.Error{Op: "Get", URL: "https://git.example.com/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "git.example.com", IsTemporary: true}}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			msg, _ := describe(tc.err, "git.example.com", false)
			e := &Error{URL: "https://git.example.com/org/repo", Ref: "main", Msg: msg}
			got := e.Error()
			for _, w := range []string{"git source https://git.example.com/org/repo@main: " + tc.want, offlineHint} {
				if !strings.Contains(got, w) {
					t.Errorf("%s\ngot  %s\nlacks %s", tc.reason, got, w)
				}
			}
			if strings.Contains(got, "dial tcp") || strings.Contains(got, "connect:") {
				t.Errorf("%s\nthe message is Go's raw dial error: %s", tc.reason, got)
			}
		})
	}
	// A name that does not exist is a typo, not a missing network.
	msg, _ := describe(&net.DNSError{Err: "no such host", Name: "git.exmaple.com", IsNotFound: true}, "git.exmaple.com", false)
	if strings.Contains(msg, "--offline") {
		t.Errorf("a host that does not exist got the --offline hint: %s", msg)
	}
	// Other errors get no hint.
	if msg, _ := describe(errors.New("unexpected EOF"), "h", false); strings.Contains(msg, "--offline") {
		t.Errorf("an unrelated error got the --offline hint: %s", msg)
	}
}

// TestNoNetworkFetch: the same through a real fetch of an address where
// nothing can answer (port 1 of loopback).
func TestNoNetworkFetch(t *testing.T) {
	f, _ := newFetcher(t, Options{})
	_, _, err := f.Open(context.Background(), Ref{URL: "http://127.0.0.1:1/repo.git", Ref: "main"})
	if msg := errCheck(err, nil, "git source http://127.0.0.1:1/repo.git@main: cannot connect to 127.0.0.1:1: connection refused", offlineHint); msg != "" {
		t.Error(msg)
	}
}
