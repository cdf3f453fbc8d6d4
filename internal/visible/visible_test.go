package visible

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é and → stay":      "plain text, é and → stay",
		`a\b`:                           `a\b`,
		"cr\rhere":                      `cr\rhere`,
		"line\nbreak":                   `line\nbreak`,
		"\x1b]8;;http://x\x1b\\link":    `\x1b]8;;http://x\x1b\\link`,
		"tab\tkept":                     "tab\tkept",
		"nel\u0085":                     `nel\x85`,
		"bidi \u202eevil\u202c":         `bidi \u202eevil\u202c`,
		"zero\u200bwidth":               `zero\u200bwidth`,
		"bad \xff byte":                 `bad \xff byte`,
		"slash \\ and \r":               `slash \\ and \r`,
		"line sep\u2028para sep\u2029x": `line sep\u2028para sep\u2029x`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if again := Escape(Escape(in)); again != Escape(in) {
			t.Errorf("Escape is not idempotent on %q: %q", in, again)
		}
	}
}
