package engine

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/schema"
)

// A parameter is secret, and its value hidden in every message (errors,
// warnings and notes, whatever stage raises them, templates included),
// when (a boolean parameter only when marked):
//
//   - params.schema.json marks it `"writeOnly": true` (JSON Schema's mark
//     of a password);
//   - a template that renders a Secret reads it (.Params.NAME, index
//     .Params "NAME"): its value flows into a Secret (unless its name
//     says it names one, below);
//   - its name says it holds one: a word of it is PASSWORD, PASSWD, PASS,
//     PWD, PASSPHRASE, SECRET, TOKEN, CREDENTIAL(S), APIKEY or
//     PRIVATEKEY, or two words are API KEY, PRIVATE KEY, ACCESS KEY or
//     SECRET KEY; unless its last word says it names or points at one
//     (NAME, NAMES, REF, FILE, PATH, DIR, LENGTH, TTL, ...:
//     TLS_SECRET_NAME names a Secret).
var secretParamNames bundle.Memo[map[string]bool]

// secretNames are the names of b's secret parameters.
func secretNames(b *bundle.Bundle) map[string]bool {
	names, _ := secretParamNames.Get(b, func(b *bundle.Bundle) (map[string]bool, error) {
		out := map[string]bool{}
		for _, p := range b.Params {
			if p != nil && secretName(p.Name) {
				out[p.Name] = true
			}
		}
		for _, src := range b.Templates {
			if !rendersSecret.Match(src) {
				continue
			}
			for _, m := range paramRef.FindAllSubmatch(src, -1) {
				if name := string(m[1]) + string(m[2]); !pointsAtSecret(name) {
					out[name] = true
				}
			}
		}
		for _, p := range b.Params {
			if p != nil && p.Type == bundle.TypeBoolean {
				delete(out, p.Name) // true or false is no secret (PASS_THROUGH)
			}
		}
		for _, n := range schema.WriteOnlyParams(b) {
			out[n] = true
		}
		return out, nil
	})
	return names
}

var (
	// rendersSecret matches a template that writes kind: Secret.
	rendersSecret = regexp.MustCompile(`(?m)\bkind:\s*["']?Secret["']?\s*([,}#]|$)`)
	// paramRef matches a template's read of a parameter.
	paramRef = regexp.MustCompile(`\.Params\.([\pL_][\pL\pN_]*)|index\s+\$?\.Params\s+"([^"\\]+)"`)
)

// secretWords are words that make a parameter's name secret, secretPairs
// two words in a row that do; notSecretLast are last words that make a
// name one of a secret's name, file, length or lifetime instead.
var (
	secretWords   = []string{"PASSWORD", "PASSWD", "PASS", "PWD", "PASSPHRASE", "SECRET", "SECRETS", "TOKEN", "CREDENTIAL", "CREDENTIALS", "APIKEY", "PRIVATEKEY"}
	secretPairs   = [][2]string{{"API", "KEY"}, {"PRIVATE", "KEY"}, {"ACCESS", "KEY"}, {"SECRET", "KEY"}}
	notSecretLast = []string{"NAME", "NAMES", "REF", "FILE", "PATH", "DIR", "LENGTH", "LEN", "SIZE", "TTL", "TIMEOUT", "ENABLED", "KEYS"}
)

// secretName reports whether a parameter's name says it holds a secret.
func secretName(name string) bool {
	words := nameWords(name)
	if len(words) == 0 || pointsAtSecret(name) {
		return false
	}
	for i, w := range words {
		if slices.Contains(secretWords, w) {
			return true
		}
		if i > 0 && slices.Contains(secretPairs, [2]string{words[i-1], w}) {
			return true
		}
	}
	return false
}

// pointsAtSecret reports whether a name's last word says it names, points
// at or measures something rather than holds it (TLS_SECRET_NAME).
func pointsAtSecret(name string) bool {
	words := nameWords(name)
	return len(words) > 0 && slices.Contains(notSecretLast, words[len(words)-1])
}

// nameWords splits a name at underscores, dashes, dots and lower-to-upper
// case changes, upper-cased: "dbPassword" and "DB_PASSWORD" are DB
// PASSWORD.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return words
}

// secretValues are the values of the secret parameters of b: as given
// (values, before they are resolved), as resolved, and their defaults.
func secretValues(b *bundle.Bundle, given, resolved map[string]any) []any {
	names := secretNames(b)
	if len(names) == 0 {
		return nil
	}
	var out []any
	for _, p := range b.Params {
		if p == nil || !names[p.Name] {
			continue
		}
		for _, v := range []any{given[p.Name], resolved[p.Name], p.Default} {
			if v != nil {
				out = append(out, v)
			}
		}
	}
	return out
}

// HideSecretParams hides in err the values of the secret parameters of
// b, given (values) or default: for an adapter that reports a problem of
// parameter values without rendering (the Argo CD plugin's parameter
// announcement, import).
func HideSecretParams(b *bundle.Bundle, values map[string]any, err error) error {
	ps := &paramSecrets{}
	ps.add(secretValues(b, values, nil))
	return ps.mask(err)
}
