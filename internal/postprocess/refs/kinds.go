package refs

import (
	"sort"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/internal/kube/kinds"
)

// gk is an API group and a kind.
type gk struct{ group, kind string }

func (g gk) String() string {
	if g.group == "" {
		return g.kind + " (core group)"
	}
	return g.kind + "." + g.group
}

// kindInfo is a kind that references can name.
type kindInfo struct {
	gk
	namespaced bool
}

// kindTable maps every name of a kind (lowercased Kind, plural, singular,
// short names) to the kinds carrying it.
type kindTable struct {
	byName map[string][]*kindInfo
	byGK   map[gk]*kindInfo
}

func newKindTable() *kindTable {
	return &kindTable{byName: map[string][]*kindInfo{}, byGK: map[gk]*kindInfo{}}
}

// add registers a kind under its names. A kind already known keeps its
// first definition (built-in kinds win over CRDs redefining them).
func (t *kindTable) add(k gk, namespaced bool, names ...string) *kindInfo {
	if ki := t.byGK[k]; ki != nil {
		return ki
	}
	ki := &kindInfo{gk: k, namespaced: namespaced}
	t.byGK[k] = ki
	seen := map[string]bool{}
	for _, n := range append(names, k.kind) {
		n = strings.ToLower(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		t.byName[n] = append(t.byName[n], ki)
	}
	return ki
}

// builtinTable is the kind table of the built-in kinds, built on first
// use; every resolver copies it before adding the kinds it learns from the
// render.
var builtinTable = sync.OnceValue(func() *kindTable {
	t := newKindTable()
	for _, b := range kinds.Builtin {
		t.add(gk{b.Group, b.Kind}, b.Namespaced, append([]string{b.Plural}, b.Short...)...)
	}
	return t
})

// kindsOf returns the kind table for docs: the built-in kinds, the kinds of
// the CustomResourceDefinitions among docs (with their plural, singular and
// short names and their scope) and the kinds of the objects themselves.
// The scope of a kind known only from objects is namespaced.
func kindsOf(docs []*doc) *kindTable {
	t := newKindTable()
	for k, v := range builtinTable().byName {
		t.byName[k] = append([]*kindInfo(nil), v...)
	}
	for k, v := range builtinTable().byGK {
		t.byGK[k] = v
	}
	for _, d := range docs {
		if d.gk != (gk{"apiextensions.k8s.io", "CustomResourceDefinition"}) {
			continue
		}
		sp, _ := d.work["spec"].(map[string]any)
		group, _ := sp["group"].(string)
		names, _ := sp["names"].(map[string]any)
		kind, _ := names["kind"].(string)
		if group == "" || kind == "" {
			continue
		}
		scope, _ := sp["scope"].(string)
		var aliases []string
		for _, f := range []string{"plural", "singular"} {
			if s, ok := names[f].(string); ok {
				aliases = append(aliases, s)
			}
		}
		short, _ := names["shortNames"].([]any)
		for _, s := range short {
			if s, ok := s.(string); ok {
				aliases = append(aliases, s)
			}
		}
		t.add(gk{group, kind}, scope != "Cluster", aliases...)
	}
	for _, d := range docs {
		if d.gk.kind != "" {
			t.add(d.gk, true)
		}
	}
	return t
}

// lookup finds the kind a reference names. group is only used when
// hasGroup: a reference with apiVersion restricts the candidates to that
// group; without it a core kind wins and several non-core kinds are
// ambiguous. It returns nil and a reason when no kind or more than one
// matches; ambiguous tells the two apart.
func (t *kindTable) lookup(name string, group string, hasGroup bool) (ki *kindInfo, ambiguous []string) {
	cands := t.byName[strings.ToLower(name)]
	var matches []*kindInfo
	for _, c := range cands {
		if hasGroup && c.group != group {
			continue
		}
		matches = append(matches, c)
	}
	if !hasGroup {
		for _, c := range matches {
			if c.group == "" {
				return c, nil
			}
		}
	}
	switch len(matches) {
	case 0:
		return nil, nil
	case 1:
		return matches[0], nil
	}
	for _, m := range matches {
		ambiguous = append(ambiguous, m.String())
	}
	sort.Strings(ambiguous)
	return nil, ambiguous
}

// isSecret reports whether o is a core Secret.
func isSecret(k gk) bool { return k == gk{"", "Secret"} }

// gkOf returns the group and kind of m, and false when apiVersion or kind
// is not a string (for instance a reference still to resolve).
func gkOf(m map[string]any) (gk, bool) {
	av, ok1 := m["apiVersion"].(string)
	k, ok2 := m["kind"].(string)
	if !ok1 || !ok2 {
		return gk{}, false
	}
	return gk{groupOf(av), k}, true
}

// groupOf returns the group of an apiVersion ("" for "v1").
func groupOf(apiVersion string) string {
	g, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return g
}
