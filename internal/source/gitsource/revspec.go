package gitsource

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// revSpec is a revision in the subset of git's syntax (gitrevisions(7))
// that kudo-render resolves exactly as git does: a base, then ~N (the
// Nth first-parent ancestor; ~ is ~1) and ^N (the Nth parent; ^ is ^1, ^0
// the commit itself), in any number.
type revSpec struct {
	text  string
	base  string // HEAD (or @), a commit id, a ref name
	steps []revStep
}

type revStep struct {
	op byte // '~' or '^'
	n  int
}

// maxRevStep bounds N in ~N and ^N.
const maxRevStep = 1_000_000

// revForms is what the error of a refused spec says is accepted.
const revForms = "a commit id (full, or abbreviated to at least 4 digits), HEAD, or a branch or tag name (refs/... too), optionally followed by ~N or ^N"

// parseRevision reads rev. Everything else git accepts is refused, not
// read as something else: reflog entries and upstreams (HEAD@{5},
// @{upstream}, @{-1}), REV:path, peeling and searches (^{tree},
// ^{/fix}, :/fix), ranges (a..b, a^!), pseudo-refs (FETCH_HEAD,
// ORIG_HEAD).
func parseRevision(rev string) (revSpec, error) {
	s := revSpec{text: rev}
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		i = len(rev)
	}
	s.base = rev[:i]
	if err := checkRevBase(s.base); err != nil {
		return s, refused(rev, err.Error())
	}
	for rest := rev[i:]; rest != ""; {
		op := rest[0]
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n := 1
		if j > 1 {
			var err error
			if n, err = strconv.Atoi(rest[1:j]); err != nil || n > maxRevStep {
				return s, refused(rev, fmt.Sprintf("%c%s: at most %c%d", op, rest[1:j], op, maxRevStep))
			}
		}
		if j < len(rest) && rest[j] != '~' && rest[j] != '^' {
			return s, refused(rev, fmt.Sprintf("%q after %c", rest[j:], op))
		}
		s.steps = append(s.steps, revStep{op: op, n: n})
		rest = rest[j:]
	}
	return s, nil
}

// checkRevBase says why base is not one of the forms resolved.
func checkRevBase(base string) error {
	switch {
	case base == "":
		return errors.New("no commit, branch or tag before ~ or ^")
	case strings.Contains(base, "@{"):
		return errors.New("@{...} (a reflog entry, an upstream or a previous branch)")
	case strings.Contains(base, ":"):
		return errors.New("a path or a search (REV:path, :/text)")
	case strings.Contains(base, ".."):
		return errors.New("a range (a..b)")
	case base == "HEAD", base == "@":
		return nil
	case isPseudoRef(base):
		return errors.New("a pseudo-ref other than HEAD (FETCH_HEAD, ORIG_HEAD, ...)")
	}
	if err := checkRefName(base); err != nil {
		return fmt.Errorf("not a branch or tag name: %v", err)
	}
	return nil
}

// isPseudoRef tells whether name is one of git's pseudo-refs (files of
// .git such as FETCH_HEAD, which git reads before any branch or tag).
func isPseudoRef(name string) bool {
	if strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
		return false
	}
	return strings.HasSuffix(name, "_HEAD") || name == "AUTO_MERGE"
}

func refused(rev, why string) error {
	return errorf(ErrInvalid, "revision %q: %s is not supported; give %s (git rev-parse %q prints its commit id)", rev, why, revForms, rev)
}

// resolve finds the commit s names in repo, as git does.
func (s revSpec) resolve(repo *git.Repository) (*object.Commit, error) {
	h, err := s.resolveBase(repo)
	if err != nil {
		return nil, err
	}
	c, err := peelCommit(repo.Storer, h, s.base)
	if err != nil {
		return nil, err
	}
	name := s.base
	for _, st := range s.steps {
		if c, err = step(c, st, name); err != nil {
			return nil, err
		}
		name += string(st.op) + strconv.Itoa(st.n)
	}
	return c, nil
}

// step goes from c (named name) to the commit st names.
func step(c *object.Commit, st revStep, name string) (*object.Commit, error) {
	if st.op == '^' {
		if st.n == 0 {
			return c, nil
		}
		if st.n > c.NumParents() {
			return nil, errorf(ErrNotFound, "%s (commit %s) has %d parents, not %d", name, short(c.Hash.String()), c.NumParents(), st.n)
		}
		return c.Parent(st.n - 1)
	}
	for i := range st.n {
		if c.NumParents() == 0 {
			return nil, errorf(ErrNotFound, "%s~%d: %s has only %d first-parent ancestors (its root commit is %s)", name, st.n, name, i, short(c.Hash.String()))
		}
		p, err := c.Parent(0)
		if err != nil {
			return nil, err
		}
		c = p
	}
	return c, nil
}

// resolveBase applies git's order (get_oid_1 in git's object-name.c): a
// full commit id; HEAD; a ref, tried as refs/<base> for refs/..., else
// as refs/<base>, refs/tags/<base>, refs/heads/<base>,
// refs/remotes/<base>, refs/remotes/<base>/HEAD; the id in describe
// output (v1.2-3-g<id>); an abbreviated id.
func (s revSpec) resolveBase(repo *git.Repository) (plumbing.Hash, error) {
	base := s.base
	if base == "@" {
		base = "HEAD"
	}
	if len(base) == 40 && isHex(base) {
		return plumbing.NewHash(strings.ToLower(base)), nil
	}
	for _, name := range refCandidates(base) {
		if ref, err := repo.Reference(plumbing.ReferenceName(name), true); err == nil {
			return ref.Hash(), nil
		}
	}
	if i := strings.LastIndex(base, "-g"); i >= 1 && len(base)-i-2 >= 4 && isHex(base[i+2:]) {
		return abbrev(repo.Storer, base[i+2:])
	}
	if len(base) >= 4 && isHex(base) {
		return abbrev(repo.Storer, base)
	}
	if base == "HEAD" {
		return plumbing.ZeroHash, errorf(ErrNotFound, "HEAD names no commit (a repository without commits?)")
	}
	return plumbing.ZeroHash, errorf(ErrNotFound, "no commit, branch or tag named %q", base)
}

// refCandidates are git's ref_rev_parse_rules for base.
func refCandidates(base string) []string {
	var out []string
	if base == "HEAD" || strings.HasPrefix(base, "refs/") {
		out = append(out, base)
	}
	if base == "HEAD" {
		return out
	}
	return append(out, "refs/"+base, "refs/tags/"+base, "refs/heads/"+base, "refs/remotes/"+base, "refs/remotes/"+base+"/HEAD")
}

// abbrev resolves an abbreviated id to the one commit (or tag of a
// commit) it starts, as git does where it expects a commit.
func abbrev(st storer.EncodedObjectStorer, prefix string) (plumbing.Hash, error) {
	prefix = strings.ToLower(prefix)
	lister, ok := st.(interface {
		HashesWithPrefix([]byte) ([]plumbing.Hash, error)
	})
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("cannot look up abbreviated ids in this repository")
	}
	even, _ := hex.DecodeString(prefix[:len(prefix)/2*2])
	hashes, err := lister.HashesWithPrefix(even)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var found []plumbing.Hash
	for _, h := range hashes {
		if strings.HasPrefix(h.String(), prefix) && !contains(found, h) {
			if _, err := peelCommit(st, h, prefix); err == nil {
				found = append(found, h)
			}
		}
	}
	switch len(found) {
	case 0:
		return plumbing.ZeroHash, errorf(ErrNotFound, "no commit, branch or tag named %q", prefix)
	case 1:
		return found[0], nil
	}
	return plumbing.ZeroHash, errorf(ErrInvalid, "the abbreviated commit id %s is ambiguous (%d commits start with it): give more digits", prefix, len(found))
}

func contains(hs []plumbing.Hash, h plumbing.Hash) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// peelCommit returns the commit h names, peeling annotated tags.
func peelCommit(st storer.EncodedObjectStorer, h plumbing.Hash, name string) (*object.Commit, error) {
	c, err := peel(st, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, errorf(ErrNotFound, "%s: commit %s is not in the repository", name, short(h.String()))
	}
	if err != nil {
		return nil, err
	}
	obj, err := st.EncodedObject(plumbing.AnyObject, c)
	if err != nil {
		return nil, err
	}
	if obj.Type() != plumbing.CommitObject {
		return nil, errorf(ErrInvalid, "%s names a %s, not a commit", name, obj.Type())
	}
	return object.DecodeCommit(st, obj)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}
