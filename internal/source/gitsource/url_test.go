package gitsource

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestValidateURL(t *testing.T) {
	all := Options{AllowInsecureHTTP: true, AllowLocal: true}
	cases := map[string]struct {
		reason string
		url    string
		opts   Options
		err    string // "" accepts
	}{
		"HTTPS":             {reason: "https is the default transport.", url: "https://github.com/org/repo"},
		"HTTPSDotGit":       {reason: "A .git suffix is fine.", url: "https://github.com/org/repo.git"},
		"HTTPSPort":         {reason: "A port is fine.", url: "https://git.example.com:8443/org/repo"},
		"HTTPSIPv6":         {reason: "An IPv6 host is fine.", url: "https://[::1]:8443/org/repo"},
		"HTTPSCredentials":  {reason: "Credentials in the URL are accepted (and scrubbed).", url: "https://user:token@github.com/org/repo"},
		"SSH":               {reason: "ssh:// is accepted.", url: "ssh://git@github.com:22/org/repo.git"},
		"SCP":               {reason: "scp-like syntax is accepted.", url: "git@github.com:org/repo.git"},
		"SCPNoUser":         {reason: "scp-like syntax without user.", url: "github.com:org/repo"},
		"HTTPAllowed":       {reason: "http:// with AllowInsecureHTTP.", url: "http://127.0.0.1:8080/org/repo", opts: all},
		"FileAllowed":       {reason: "file:// with AllowLocal.", url: "file:///srv/git/repo", opts: all},
		"LocalPathAllowed":  {reason: "An absolute path with AllowLocal.", url: "/srv/git/repo", opts: all},
		"Empty":             {reason: "Empty.", url: "", err: "empty"},
		"Ext":               {reason: "ext:: runs a command.", url: "ext::sh -c id", err: "remote helper transports"},
		"ExtAllowed":        {reason: "ext:: stays rejected whatever the options.", url: "ext::sh -c id", opts: all, err: "remote helper"},
		"DoubleColon":       {reason: "\"::\" outside an IPv6 address.", url: "https://host/ext::x", err: "only allowed in an IPv6 address"},
		"FD":                {reason: "Other remote helpers too.", url: "fd::17", err: "remote helper"},
		"OptionURL":         {reason: "Option-like URLs.", url: "-oProxyCommand=id", err: "command-line option"},
		"OptionUploadPack":  {reason: "Option-like URLs.", url: "--upload-pack=id", err: "command-line option"},
		"OptionSSHHost":     {reason: "Option-like ssh hosts.", url: "ssh://-oProxyCommand=id/repo", err: "command-line option"},
		"OptionSSHUser":     {reason: "Option-like ssh users.", url: "ssh://-oProxyCommand=id@host/repo", err: "command-line option"},
		"OptionSCPHost":     {reason: "Option-like scp hosts.", url: "-oProxyCommand=id:repo", err: "command-line option"},
		"OptionSCPHost2":    {reason: "Option-like scp hosts after a user.", url: "git@-oProxyCommand=id:repo", err: "command-line option"},
		"OptionSCPPath":     {reason: "Option-like paths.", url: "git@host:-repo", err: "command-line option"},
		"OptionHTTPSPath":   {reason: "Option-like paths.", url: "https://host/-repo", err: "command-line option"},
		"HTTPDenied":        {reason: "http:// without AllowInsecureHTTP.", url: "http://github.com/org/repo", err: "http:// is not allowed"},
		"GitProtocol":       {reason: "git:// is unauthenticated.", url: "git://github.com/org/repo", opts: all, err: "git:// is unauthenticated"},
		"FileDenied":        {reason: "file:// without AllowLocal.", url: "file:///srv/git/repo", err: "file:// is not allowed"},
		"FileRemoteHost":    {reason: "file:// names no host.", url: "file://host/srv/git/repo", opts: all, err: "name no host"},
		"LocalPathDenied":   {reason: "Local paths without AllowLocal.", url: "/srv/git/repo", err: "local repositories are not allowed"},
		"RelativePath":      {reason: "Relative paths are ambiguous.", url: "./repo", opts: all, err: "must be absolute"},
		"NotAURL":           {reason: "A bare word.", url: "repo", opts: all, err: "not a URL"},
		"OtherScheme":       {reason: "Unknown schemes.", url: "ftp://host/repo", err: "unsupported scheme"},
		"Query":             {reason: "Query strings may carry tokens.", url: "https://host/repo?private_token=x", err: "query strings"},
		"Fragment":          {reason: "Fragments.", url: "https://host/repo#main", err: "fragments"},
		"NoPath":            {reason: "A repository needs a path.", url: "https://host/", err: "no repository path"},
		"NoHost":            {reason: "A host is required.", url: "https:///repo", err: "no host"},
		"BadPort":           {reason: "A port is a number.", url: "https://host:99999/repo", err: "bad port"},
		"BadHost":           {reason: "Host names are host names.", url: "https://ho_st!/repo", err: "bad host"},
		"DotDot":            {reason: "No .. in the repository path.", url: "https://host/org/../repo", err: `contains ".."`},
		"Space":             {reason: "No spaces.", url: "https://host/org/my repo", err: "spaces"},
		"Newline":           {reason: "No control characters.", url: "https://host/org/repo\n", err: "control characters"},
		"Backslash":         {reason: "No backslashes.", url: `https://host\org/repo`, err: "backslashes"},
		"NonASCII":          {reason: "No non-ASCII (homoglyph hosts).", url: "https://gïthub.com/org/repo", err: "non-ASCII"},
		"DriveLetter":       {reason: "C:/x is a Windows path, not scp-like.", url: "C:/repo", err: "drive letter"},
		"SecretNotInError":  {reason: "Rejected URLs are scrubbed in the error.", url: "http://user:pa55word@host/repo", err: "http:// is not allowed"},
		"SecretNotInError2": {reason: "Even when malformed.", url: "https://user:pa55word@host:x/repo", err: "cannot parse"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := ValidateURL(tc.url, tc.opts)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%s\nValidateURL(%q): %v, want nil", tc.reason, tc.url, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%s\nValidateURL(%q): %v, want an error containing %q", tc.reason, tc.url, err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), "pa55word") {
				t.Errorf("%s\nValidateURL(%q): the error shows the password: %v", tc.reason, tc.url, err)
			}
		})
	}
}

func TestScrub(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"Plain":         {reason: "Nothing to scrub.", in: "https://github.com/org/repo", want: "https://github.com/org/repo"},
		"UserPassword":  {reason: "https user info goes entirely.", in: "https://user:pw@github.com/org/repo", want: "https://github.com/org/repo"},
		"TokenAsUser":   {reason: "A token written as the user goes.", in: "https://ghp_abcdef123456@github.com/org/repo", want: "https://github.com/org/repo"},
		"HTTP":          {reason: "http too.", in: "http://u:p@127.0.0.1:8080/r", want: "http://127.0.0.1:8080/r"},
		"SSHKeepsUser":  {reason: "ssh keeps the user, drops a password.", in: "ssh://git:pw@host/org/repo", want: "ssh://git@host/org/repo"},
		"SSHUserOnly":   {reason: "ssh user alone stays.", in: "ssh://git@host/org/repo", want: "ssh://git@host/org/repo"},
		"SCP":           {reason: "scp-like URLs carry no secret.", in: "git@github.com:org/repo.git", want: "git@github.com:org/repo.git"},
		"Query":         {reason: "Queries may carry tokens.", in: "https://host/repo?private_token=abc", want: "https://host/repo"},
		"AtInPath":      {reason: "An @ in the path is not user info.", in: "https://host/org/repo@v1", want: "https://host/org/repo@v1"},
		"AtInPassword":  {reason: "The last @ before the host ends the user info.", in: "https://u:p@ss@host/repo", want: "https://host/repo"},
		"NotAURL":       {reason: "Anything else is returned as is.", in: "not a url", want: "not a url"},
		"EncodedSecret": {reason: "Percent-encoded user info goes too.", in: "https://u%40x:p%3Aw@host/r", want: "https://host/r"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, Scrub(tc.in)), "%s\nScrub(%q)", tc.reason, tc.in)
		})
	}
}

func TestScrubText(t *testing.T) {
	in := `Get "https://alice:s3cret@host/r/info/refs": dial tcp; also ssh://git:pw@host/x and token s3cret`
	want := `Get "https://host/r/info/refs": dial tcp; also ssh://git@host/x and token ***`
	if got := scrubText(in, "s3cret", ""); got != want {
		t.Errorf("scrubText:\n got %s\nwant %s", got, want)
	}
}

// FuzzValidateURL checks that validation never panics, that accepted URLs
// are never option-like nor remote helpers, and that Scrub and errors never
// keep an https password.
func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{
		"https://github.com/org/repo", "git@github.com:org/repo.git", "ssh://git@host:22/r",
		"http://u:p@127.0.0.1:1/r", "file:///srv/r", "/srv/r", "ext::sh -c id", "-oProxyCommand=id",
		"ssh://-oProxyCommand=id/r", "https://[::1]:8443/r", "git@-x:r", "fd::3", "https://h/r?x=1",
		"a::b", "x@y:z", "https://host/ext::x", "git@[::1]:r", "[::0]:0", "a.b::c", "::x", "https://u:pw@h:1/%2e%2e/r", "C:/x", "::", "https://-/r",
	} {
		f.Add(s, true, true)
		f.Add(s, false, false)
	}
	f.Fuzz(func(t *testing.T, raw string, insecure, local bool) {
		e, err := parseEndpoint(raw, Options{AllowInsecureHTTP: insecure, AllowLocal: local})
		_ = Scrub(raw)
		if err != nil {
			return
		}
		if strings.HasPrefix(raw, "-") {
			t.Fatalf("accepted an option-like URL %q", raw)
		}
		// git's rule (transport_get): a run of URL scheme characters
		// followed by "::" names a remote helper.
		p := 0
		for p < len(raw) && isSchemeChar(p == 0, raw[p]) {
			p++
		}
		if strings.HasPrefix(raw[p:], "::") {
			t.Fatalf("accepted a remote helper URL %q", raw)
		}
		if strings.Contains(strings.ToLower(raw), "ext::") {
			t.Fatalf("accepted ext:: in %q", raw)
		}
		if strings.HasPrefix(e.host, "-") || strings.HasPrefix(e.user, "-") {
			t.Fatalf("accepted an option-like host or user in %q", raw)
		}
		if !insecure && e.kind == kindHTTP || !local && e.kind == kindLocal {
			t.Fatalf("accepted %q (%s) without the option", raw, e.kind)
		}
		if (e.kind == kindHTTPS || e.kind == kindHTTP) && strings.Contains(e.scrubbed, "@") && strings.Index(e.scrubbed, "@") < strings.Index(e.scrubbed[8:]+"/", "/")+8 {
			t.Fatalf("scrubbed %q of %q keeps user info", e.scrubbed, raw)
		}
		if e.password != "" && len(e.password) >= 4 && strings.Contains(e.scrubbed, e.password) && !strings.Contains(e.host+"/"+raw[strings.LastIndex(raw, "@")+1:], e.password) {
			t.Fatalf("scrubbed %q of %q keeps the password", e.scrubbed, raw)
		}
	})
}

// isSchemeChar is git's is_urlschemechar.
func isSchemeChar(first bool, c byte) bool {
	alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	return alnum || !first && (c == '+' || c == '-' || c == '.')
}
