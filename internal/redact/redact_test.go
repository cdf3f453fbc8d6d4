package redact

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// TestForms: a copied value is found in every form it travels in.
func TestForms(t *testing.T) {
	const secret = "pa\"ss\\word-é\n2"
	s := New()
	s.AddCopied(map[string]any{"k": []any{secret}})
	md := md5.Sum([]byte(secret))
	forms := map[string]string{
		"itself":         secret,
		"inside":         "dsn=" + secret + ";",
		"JSON-escaped":   `{"password":"pa\"ss\\word-é\n2"}`,
		"Go-quoted":      "invalid value " + strconv.Quote(secret),
		"base64":         base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 in text": "data: " + base64.StdEncoding.EncodeToString([]byte(secret)) + "\n",
		"base64 url":     base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"md5":            hex.EncodeToString(md[:]),
	}
	for name, text := range forms {
		if !s.Hides(text) {
			t.Errorf("%s: %q not hidden", name, text)
		}
	}
	if s.Hides("password") || s.Hides("pa") {
		t.Error("innocent text hidden")
	}
}

// TestShortValues: a short copied value is hidden where it is the whole
// value or quoted whole in a message, never inside other words.
func TestShortValues(t *testing.T) {
	s := New()
	s.AddCopied(int64(5432))
	s.AddCopied("abc")
	for text, want := range map[string]bool{"5432": true, "abc": true, "abcdef": false, "port 54321": false} {
		if got := s.Hides(text); got != want {
			t.Errorf("Hides(%q) = %t, want %t", text, got, want)
		}
	}
	if got := s.Mask(`port "5432" and 'abc', not abcdef`); got != `port "(secret value hidden)" and '(secret value hidden)', not abcdef` {
		t.Errorf("Mask: %s", got)
	}
}

// TestSecretsOwnValues: the values a Secret stores (not copied) are
// searched for as encodings and digests, and, with raw, where quoted whole
// or in long runs: an ordinary word in a Secret (the user name, which is
// also the instance's name) does not hide every object name.
func TestSecretsOwnValues(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 8) // a 128-byte token
	secret := map[string]any{
		"data":       map[string]any{"token": base64.StdEncoding.EncodeToString([]byte(long))},
		"stringData": map[string]any{"username": "orders"},
	}
	for _, raw := range []bool{false, true} {
		s := New()
		s.AddSecret(secret, raw)
		if s.Hides("orders-config") || s.Mask("ConfigMap shop/orders-config: bad") != "ConfigMap shop/orders-config: bad" {
			t.Errorf("raw %t: an object name holding a Secret's short value is hidden", raw)
		}
		if !s.Hides(base64.StdEncoding.EncodeToString([]byte("orders"))) {
			t.Errorf("raw %t: the base64 of a Secret's value is not hidden", raw)
		}
		quoted := `label "orders" is invalid`
		if got := s.Mask(quoted) != quoted; got != raw {
			t.Errorf("raw %t: a message quoting the value whole is masked: %t", raw, got)
		}
		abbrev := fmt.Sprintf("%q is not an integer", long[:64]+"...")
		if got := s.Mask(abbrev); raw && strings.Contains(got, long[:40]) || !raw && got != abbrev {
			t.Errorf("raw %t: the first 64 bytes of a long value: %s", raw, got)
		}
	}
}

// TestRuns: a text sharing a run of MinRun bytes with a long value is
// hidden wherever the run starts; shorter runs are not.
func TestRuns(t *testing.T) {
	cert := "-----BEGIN CERTIFICATE-----\n" + strings.Repeat("MIIDazCCAlOgAwIBAgIUKx9", 10) + "\n-----END CERTIFICATE-----\n"
	s := New()
	s.AddCopied(cert)
	for off := 0; off < 40; off++ {
		part := cert[off : off+MinRun]
		if !s.Hides("x" + part + "y") {
			t.Fatalf("a run of %d bytes at %d not hidden", MinRun, off)
		}
		if got := s.Mask("x" + part + "y"); got != "x"+Hidden+"y" {
			t.Fatalf("Mask at %d: %q", off, got)
		}
	}
	if s.Hides("-----BEGIN CERTIFICATE-----\nMIIDazCC other") {
		t.Error("a short common run (the PEM header) hides another certificate")
	}
}

// TestBudget: crafted periodic values cost linear time; past the budget
// the whole text is hidden.
func TestBudget(t *testing.T) {
	s := New()
	s.AddCopied(strings.Repeat("a", 1<<20) + "b")
	text := strings.Repeat("a", 1<<20)
	start := time.Now()
	if !s.Hides(text) {
		t.Error("a run of a secret not hidden")
	}
	if got := s.Mask(text); got != Hidden {
		t.Errorf("Mask kept %d bytes", len(got))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestMaskValue: leaves of an object that hold a secret are replaced.
func TestMaskValue(t *testing.T) {
	s := New()
	s.AddCopied(map[string]any{"password": "hunter2hunter2", "port": int64(5432)})
	obj := map[string]any{"data": map[string]any{"dsn": "u:hunter2hunter2@h", "port": int64(5432), "other": "x"}, "list": []any{"hunter2hunter2"}}
	s.MaskValue(obj)
	want := map[string]any{"data": map[string]any{"dsn": Hidden, "port": Hidden, "other": "x"}, "list": []any{Hidden}}
	if fmt.Sprint(obj) != fmt.Sprint(want) {
		t.Errorf("got %v", obj)
	}
	if !s.Holds(map[string]any{"a": []any{"hunter2hunter2"}}) || s.Holds(map[string]any{"a": "b"}) {
		t.Error("Holds")
	}
}

// TestError: the message and the diagnostics of an error are masked; the
// wrapped error is still found by type.
func TestError(t *testing.T) {
	s := New()
	s.AddCopied("hunter2hunter2")
	inner := &diag.Error{Head: "refused", List: []*diag.Diagnostic{{
		Field: `data["hunter2hunter2"]`, Msg: `Invalid value: "hunter2hunter2"`,
		Resource: &diag.Resource{Kind: "ConfigMap", Name: "hunter2hunter2"},
	}}}
	err := s.Error(fmt.Errorf("render: %w", inner))
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("message: %s", err)
	}
	for _, d := range diag.From(err) {
		if strings.Contains(d.Error(), "hunter2") {
			t.Errorf("diagnostic: %s", d.Error())
		}
	}
	var de *diag.Error
	if !errors.As(err, &de) {
		t.Error("the wrapped error is not found")
	}
	if New().Error(inner) != error(inner) || s.Error(nil) != nil {
		t.Error("an empty set or a nil error is not left alone")
	}
}

// TestShortValuesAlone: a short copied value (a port, a PIN) is hidden
// where a message writes it standing alone, unquoted ("Invalid value:
// 99817: ..."), never inside a word or a longer number.
func TestShortValuesAlone(t *testing.T) {
	s := New()
	s.AddCopied(map[string]any{"port": "99817", "pin": "@b1!"})
	for text, want := range map[string]string{
		"spec.ports[0].port: Invalid value: 99817: must be between 1 and 65535": "spec.ports[0].port: Invalid value: (secret value hidden): must be between 1 and 65535",
		"99817":                  "(secret value hidden)",
		"port=99817;pin=@b1!":    "port=(secret value hidden);pin=(secret value hidden)",
		"998170 x99817 99817abc": "998170 x99817 99817abc",
		"a@b1!b":                 "a(secret value hidden)b",
		"é99817":                 "é99817",
	} {
		if got := s.Mask(text); got != want {
			t.Errorf("Mask(%q) = %q, want %q", text, got, want)
		}
		if got := s.Hides(text); got != (text != want) {
			t.Errorf("Hides(%q) = %t", text, got)
		}
	}
	// a Secret's own short values are not searched for alone
	own := New()
	own.AddSecret(map[string]any{"stringData": map[string]any{"port": "99817"}}, true)
	if got := own.Mask("Invalid value: 99817: must"); got != "Invalid value: 99817: must" {
		t.Errorf("a Secret's own value is masked alone: %s", got)
	}
}
