package diff

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// CopiedSecret is the value a getValueFrom reference copied from a Secret
// into field (as refs writes paths: spec.x[0].value) of o, or "" when
// there is none. Give such values to Options.SecretValues: a Secret's
// value copied into a ConfigMap or an env var is masked there too.
func CopiedSecret(o *object.Object, field string) string {
	p, err := parsePath(field)
	if err != nil {
		return ""
	}
	var v any = o.Map
	for _, e := range p {
		switch x := v.(type) {
		case map[string]any:
			v = x[e.Key]
		case []any:
			if e.Key != "" || e.Match != "" || e.Index >= len(x) {
				return ""
			}
			v = x[e.Index]
		default:
			return ""
		}
	}
	switch x := v.(type) {
	case nil, map[string]any, []any:
		return ""
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}

// minContained is the shortest secret value masked where another value
// contains it; shorter ones are masked only where they are the whole
// value (a secret "1" must not hide every 1).
const minContained = 6

// hasSecretValue reports whether text is, or contains, a secret value.
func hasSecretValue(text string, secrets []string) bool {
	if text == "" {
		return false
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		if text == s || len(s) >= minContained && strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// maskValues replaces every string of v that holds a secret value.
func maskValues(v any, secrets []string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = maskValues(e, secrets)
		}
	case []any:
		for i, e := range x {
			x[i] = maskValues(e, secrets)
		}
	case string:
		if hasSecretValue(x, secrets) {
			return Hidden
		}
	default:
		if x != nil && hasSecretValue(fmt.Sprint(x), secrets) {
			return Hidden
		}
	}
	return v
}
