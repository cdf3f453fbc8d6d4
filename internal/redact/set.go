package redact

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Hidden replaces a secret value in every output.
const Hidden = "(secret value hidden)"

const (
	// MinContained is the shortest form found inside other texts; a
	// shorter one only where it is the whole value or quoted whole (a
	// secret "1" must not hide every 1).
	MinContained = 8
	// MinRun is the shortest run of bytes a text must share with a form
	// to be hidden for it (an abbreviated quote of a long secret).
	MinRun = 64
	// gramLen is the length of the substrings of long forms indexed, one
	// every gramLen bytes: every shared run of 2*gramLen-1 bytes contains
	// one of them.
	gramLen = MinRun / 2
	// MinToken is the shortest copied form found where it stands alone in
	// a text (no letter or digit on either side: "Invalid value: 99817:
	// must be ..."), when it is shorter than MinContained.
	MinToken = 4
)

// Set is a set of secret values and the forms they are found in. The zero
// value is not usable: call New.
type Set struct {
	// exact are all forms: whole values, and quoted in messages.
	exact map[string]struct{}
	// prefix are the forms found inside other texts, by their first
	// MinContained bytes.
	prefix map[string][]string
	// grams are substrings of the forms of MinRun bytes or more, one
	// every gramLen bytes, with where they lie.
	grams map[string]gramAt
	forms []string
	// tokens are the copied forms of MinToken to MinContained-1 bytes,
	// found where they stand alone in a text; tokenLens has bit n set
	// when one is n bytes long.
	tokens    map[string]struct{}
	tokenLens uint
}

// gramAt is where an indexed substring lies: forms[form][pos:].
type gramAt struct {
	form int
	pos  int
}

// New is an empty set.
func New() *Set {
	return &Set{exact: map[string]struct{}{}, prefix: map[string][]string{}, grams: map[string]gramAt{}, tokens: map[string]struct{}{}}
}

// Empty reports whether the set holds no value.
func (s *Set) Empty() bool { return s == nil || len(s.exact) == 0 }

// AddCopied adds a value copied out of a Secret: every leaf of v (a
// string, number or boolean, or the leaves of a map or list) in every
// form, found inside other texts when long enough.
func (s *Set) AddCopied(v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			s.AddCopied(e)
		}
	case []any:
		for _, e := range x {
			s.AddCopied(e)
		}
	case nil:
	case string:
		s.addLeaf(x, true, true)
	default:
		s.addLeaf(fmt.Sprint(x), true, true)
	}
}

// AddSecret adds the values of a Secret object's data (base64: the text
// it decodes to) and stringData. With raw, the values themselves are
// found where quoted whole or in long runs; their encoded and digested
// forms always, like copied values.
func (s *Set) AddSecret(m map[string]any, raw bool) {
	if data, ok := m["data"].(map[string]any); ok {
		for _, v := range data {
			b, ok := v.(string)
			if !ok {
				continue
			}
			if d, err := base64.StdEncoding.DecodeString(b); err == nil {
				s.addLeaf(string(d), raw, false)
				s.addDigests(b) // of the base64 text as written
			} else {
				s.addLeaf(b, raw, false)
			}
		}
	}
	if sd, ok := m["stringData"].(map[string]any); ok {
		for _, v := range sd {
			switch x := v.(type) {
			case nil, map[string]any, []any:
			case string:
				s.addLeaf(x, raw, false)
			default:
				s.addLeaf(fmt.Sprint(x), raw, false)
			}
		}
	}
}

// AddSecrets adds every Secret of objs (AddSecret).
func (s *Set) AddSecrets(objs []*object.Object, raw bool) {
	for _, o := range objs {
		if o != nil && IsSecret(o) {
			s.AddSecret(o.Map, raw)
		}
	}
}

// IsSecret reports whether o is a core Secret.
func IsSecret(o *object.Object) bool { return o.Group() == "" && o.Kind() == "Secret" }

// addLeaf adds one secret text: with raw, the text and its quoted forms
// (found inside other texts only when copied); always its encodings and
// digests.
func (s *Set) addLeaf(v string, raw, copied bool) {
	if v == "" {
		return
	}
	if raw {
		s.add(v, copied)
		if j, err := json.Marshal(v); err == nil {
			s.add(string(j[1:len(j)-1]), copied)
		}
		q := strconv.Quote(v)
		s.add(q[1:len(q)-1], copied)
	}
	b64 := base64.RawStdEncoding.EncodeToString([]byte(v))
	s.add(b64, true)
	if strings.ContainsAny(b64, "+/") {
		s.add(base64.RawURLEncoding.EncodeToString([]byte(v)), true)
	}
	if std := base64.StdEncoding.EncodeToString([]byte(v)); std != b64 {
		s.exact[std] = struct{}{} // contained: found through b64, its prefix
	}
	s.addDigests(v)
}

// addDigests adds the hex digests of v.
func (s *Set) addDigests(v string) {
	m, s1, s256, s512 := md5.Sum([]byte(v)), sha1.Sum([]byte(v)), sha256.Sum256([]byte(v)), sha512.Sum512([]byte(v))
	for _, d := range [][]byte{m[:], s1[:], s256[:], s512[:]} {
		s.add(hex.EncodeToString(d), true)
	}
}

// add adds one form: always a whole value; inside other texts when
// contained and long enough, standing alone when contained and shorter;
// in long runs when it is long.
func (s *Set) add(f string, contained bool) {
	if f == "" {
		return
	}
	if contained && len(f) >= MinToken && len(f) < MinContained {
		s.tokens[f] = struct{}{}
		s.tokenLens |= 1 << len(f)
	}
	if _, ok := s.exact[f]; ok {
		if contained && len(f) >= MinContained && !s.hasPrefixForm(f) {
			s.prefix[f[:MinContained]] = append(s.prefix[f[:MinContained]], f)
		}
		return
	}
	s.exact[f] = struct{}{}
	if contained && len(f) >= MinContained {
		s.prefix[f[:MinContained]] = append(s.prefix[f[:MinContained]], f)
	}
	if len(f) >= MinRun {
		i := len(s.forms)
		s.forms = append(s.forms, f)
		for p := 0; p+gramLen <= len(f); p += gramLen {
			if _, ok := s.grams[f[p:p+gramLen]]; !ok {
				s.grams[f[p:p+gramLen]] = gramAt{form: i, pos: p}
			}
		}
	}
}

func (s *Set) hasPrefixForm(f string) bool {
	for _, g := range s.prefix[f[:MinContained]] {
		if g == f {
			return true
		}
	}
	return false
}
