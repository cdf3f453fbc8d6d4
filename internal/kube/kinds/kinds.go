package kinds

import "sync"

// Kind is one built-in kind.
type Kind struct {
	Group      string
	Kind       string
	Plural     string
	Short      []string
	Namespaced bool
}

// GK is an API group and a kind.
type GK struct{ Group, Kind string }

// byGK indexes Builtin, on first use.
var byGK = sync.OnceValue(func() map[GK]Kind {
	m := make(map[GK]Kind, len(Builtin))
	for _, k := range Builtin {
		m[GK{k.Group, k.Kind}] = k
	}
	return m
})

// Lookup returns the built-in kind of group and kind.
func Lookup(group, kind string) (Kind, bool) {
	k, ok := byGK()[GK{group, kind}]
	return k, ok
}

// ClusterScoped reports whether group and kind is a built-in kind without
// namespace.
func ClusterScoped(group, kind string) bool {
	k, ok := byGK()[GK{group, kind}]
	return ok && !k.Namespaced
}
