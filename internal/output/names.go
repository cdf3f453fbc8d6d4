package output

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// MaxNameLen bounds a file name made from an object.
const MaxNameLen = 200

// Names returns the file name of each object of objs (same order).
func Names(objs []*object.Object) []string {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = Sanitize(strings.ToLower(o.Kind()) + "_" + o.Name())
	}
	dedupe(names, func(i int) string {
		o := objs[i]
		return Sanitize(strings.ToLower(o.Kind()) + "_" + o.Namespace() + "_" + o.Name())
	})
	dedupe(names, func(i int) string {
		o := objs[i]
		return withHash(names[i], o.APIVersion()+"\x00"+o.Kind()+"\x00"+o.Namespace()+"\x00"+o.Name())
	})
	// identical identities (the same object twice): number them in order
	seen := map[string]int{}
	for i, n := range names {
		seen[n]++
		if c := seen[n]; c > 1 {
			names[i] = withSuffix(n, "-"+itoa(c))
		}
	}
	for i := range names {
		names[i] += ".yaml"
	}
	return names
}

// dedupe renames every name that appears more than once with alt.
func dedupe(names []string, alt func(int) string) {
	count := map[string]int{}
	for _, n := range names {
		count[n]++
	}
	for i, n := range names {
		if count[n] > 1 {
			names[i] = alt(i)
		}
	}
}

// Sanitize makes s a safe file name stem: lower-case a-z, 0-9, ".", "_"
// and "-" only, no leading dot, not empty, at most MaxNameLen bytes minus
// room for ".yaml" (a longer one is cut and ends in a hash of s).
func Sanitize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
			b.WriteByte(c)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if out == "" {
		out = "-"
	}
	if len(out) > MaxNameLen-len(".yaml") {
		out = withHash(out[:MaxNameLen-len(".yaml")-9], s)
	}
	return out
}

// withHash appends "-" and 8 hex digits of the hash of id.
func withHash(name, id string) string {
	sum := sha256.Sum256([]byte(id))
	return withSuffix(name, "-"+hex.EncodeToString(sum[:4]))
}

// withSuffix appends suffix, cutting name so the result stays in bounds.
func withSuffix(name, suffix string) string {
	if max := MaxNameLen - len(".yaml") - len(suffix); len(name) > max {
		name = name[:max]
	}
	return name + suffix
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
