package diff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/lazy"
)

// Elem is one step of a field path: a map key, a list entry found by an
// identifying field (name=app), or a list index.
type Elem struct {
	// Key is the map key; empty for list entries.
	Key string
	// Match identifies a list entry by a field: "name=app".
	Match string
	// Index is the list index when neither Key nor Match is set.
	Index int
}

// Path is a field path, written spec.template.spec.containers[name=app].image,
// with keys that are not plain words quoted: metadata.annotations["a/b"].
type Path []Elem

var word = lazy.Regexp(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.Key != "" && word().MatchString(e.Key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Key)
		case e.Key != "":
			b.WriteString("[" + strconv.Quote(e.Key) + "]")
		case e.Match != "":
			b.WriteString("[" + e.Match + "]")
		default:
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
		}
	}
	return b.String()
}

// under reports whether p is q or lies below it.
func (p Path) under(q Path) bool {
	if len(p) < len(q) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Rule hides field changes: those at or below Path, in objects of Kind
// (any kind when empty). In Path, * matches any map key and [*] any list
// entry.
type Rule struct {
	Kind string
	Path Path
}

// ParseRule reads a rule written [Kind:]path, e.g. spec.replicas,
// Deployment:spec.template.spec.containers[*].image or
// metadata.annotations["example.com/build"].
func ParseRule(s string) (Rule, error) {
	var r Rule
	rest := s
	if k, p, ok := strings.Cut(s, ":"); ok && word().MatchString(k) && !strings.ContainsAny(k, ".[\"") {
		r.Kind, rest = k, p
	}
	p, err := parsePath(rest)
	if err != nil {
		return Rule{}, fmt.Errorf("--ignore %q: %w", s, err)
	}
	r.Path = p
	return r, nil
}

// parsePath reads a path written as Path.String writes it.
func parsePath(s string) (Path, error) {
	var p Path
	for i := 0; i < len(s); {
		switch {
		case s[i] == '.' && i > 0:
			i++
		case s[i] == '[':
			e, n, err := bracket(s[i:])
			if err != nil {
				return nil, err
			}
			p, i = append(p, e), i+n
		default:
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("empty field name at offset %d", i)
			}
			p, i = append(p, Elem{Key: s[i:j]}), j
		}
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("empty path")
	}
	return p, nil
}

// bracket reads one [...] element at the start of s and its length.
func bracket(s string) (Elem, int, error) {
	if strings.HasPrefix(s, `["`) {
		q, err := strconv.QuotedPrefix(s[1:])
		if err != nil || !strings.HasPrefix(s[1+len(q):], "]") {
			return Elem{}, 0, fmt.Errorf("unterminated [\"key\"] in %q", s)
		}
		k, _ := strconv.Unquote(q)
		return Elem{Key: k}, len(q) + 2, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return Elem{}, 0, fmt.Errorf("unterminated [ in %q", s)
	}
	in := s[1:end]
	if n, err := strconv.Atoi(in); err == nil && n >= 0 {
		return Elem{Index: n}, end + 1, nil
	}
	if in == "*" || strings.Contains(in, "=") {
		return Elem{Match: in}, end + 1, nil
	}
	return Elem{}, 0, fmt.Errorf("[%s]: want an index, [field=value], [*] or [\"key\"]", in)
}

// matches reports whether the rule hides a change at p of an object of kind.
func (r Rule) matches(kind string, p Path) bool {
	if r.Kind != "" && r.Kind != kind || len(p) < len(r.Path) {
		return false
	}
	for i, e := range r.Path {
		switch {
		case e.Key == "*" && p[i].Key != "":
		case e.Match == "*" && p[i].Key == "":
		case e != p[i]:
			return false
		}
	}
	return true
}
