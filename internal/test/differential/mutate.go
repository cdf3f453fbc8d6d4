package differential

import (
	"fmt"
	"strings"
)

// A mutation is one change to a seed, made when it is judged: the
// changed object (a copy of the seed), and the text added to its
// document (a key written twice, which an object cannot hold).
type mutation struct {
	op   string // the class of change: delete, empty, long, type, enum, ...
	desc string // "delete spec.replicas"
	make func() (obj map[string]any, text []byte)
}

// at is a mutation setting (or deleting) the value at p of seed.
func at(op, desc string, seed map[string]any, p path, v any, del bool) mutation {
	return mutation{op: op, desc: desc, make: func() (map[string]any, []byte) { return with(seed, p, deepCopy(v), del), nil }}
}

// quantities are values given to every quantity field: valid, refused,
// and at the edges of what resource.ParseQuantity reads.
var quantities = []string{"0", "1", "-1", "0.5", "100m", "0.1m", "1e3", "1E", "1.5Gi", "1Qi", "Gi", "2 cores", "1.0000000001", "999999999999999999999", "1e-3", "+1", ".5", "5.", "1Ki", "0x10"}

// names are given to metadata.name: the limits of DNS labels (63) and
// subdomains (253), and characters they refuse.
var names = []string{strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 253), strings.Repeat("a", 254),
	strings.Repeat("a", 60) + ".b", "Upper", "a.b", "a-", "-a", "a_b", "a:b", "a%b", "..", "."}

// labels are given to metadata.labels: keys and values at and over their
// limits.
var labels = map[string]string{
	"example.com/" + strings.Repeat("k", 63): "v",
	"example.com/" + strings.Repeat("k", 64): "v",
	strings.Repeat("p", 254) + "/k":          "v",
	"k":                                      strings.Repeat("v", 63),
	"k2":                                     strings.Repeat("v", 64),
	"a/b/c":                                  "v",
	"k3":                                     "bad value",
	"k4":                                     "",
	"-k":                                     "v",
	"example.com/k":                          "-v",
	"kubernetes.io/" + strings.Repeat("k", 10):     "v",
	"app.kubernetes.io/name":                       "v.1_x",
	strings.Repeat("p", 253) + "/" + "k":           "v",
	"Example.com/k":                                "v",
	"example.com/" + strings.Repeat("k", 62) + "-": "v",
	// Pod Security admission reads these of a Namespace
	"pod-security.kubernetes.io/enforce":         "strict",
	"pod-security.kubernetes.io/warn":            "restricted",
	"pod-security.kubernetes.io/enforce-version": "1.37",
	"pod-security.kubernetes.io/audit-version":   "v1.37",
}

// fixed are the fields no mutation touches: what names the object to
// the server (its kind, name and namespace are the case's identity).
func fixed(p path) bool {
	return p.is("apiVersion") || p.is("kind") || p.is("metadata") || p.is("metadata", "name") || p.is("metadata", "namespace")
}

// mutations lists the changes made to seed, in a fixed order; sch is its
// kind's schema (nil: no enum values, no added fields).
func mutations(seed map[string]any, sch *Schema) []mutation {
	var out []mutation
	for _, n := range walk(seed) {
		if fixed(n.at) {
			continue
		}
		ns := sch.At(n.at)
		if _, isItem := n.at[len(n.at)-1].(int); isItem {
			out = append(out, at("delete", "remove "+n.at.String(), seed, n.at, nil, true))
		} else {
			out = append(out, at("delete", "delete "+n.at.String(), seed, n.at, nil, true))
		}
		for _, m := range valueMutations(n.v, ns) {
			out = append(out, at(m.op, fmt.Sprintf("%s: %s", n.at, m.desc), seed, n.at, m.v, false))
		}
		if m, ok := n.v.(map[string]any); ok {
			for _, a := range added(m, ns) {
				p := append(n.at, a.key)
				out = append(out, at("add", fmt.Sprintf("%s: %s", p, a.desc), seed, p, a.v, false))
			}
		}
	}
	return append(out, metadataMutations(seed)...)
}

// change is a new value with what it is.
type change struct {
	op, desc string
	v        any
}

// valueMutations are the values that replace v.
func valueMutations(v any, ns *Schema) []change {
	var out []change
	switch v := v.(type) {
	case string:
		out = append(out,
			change{"empty", `""`, ""},
			change{"long", "64 characters", pad(v, 64)},
			change{"long", "254 characters", pad(v, 254)},
			change{"invalid", `"Not_Valid"`, "Not_Valid"},
			change{"type", "a number", int64(7)},
		)
		for _, e := range ns.Enum() {
			if e != v {
				out = append(out, change{"enum", fmt.Sprintf("%q", e), e})
			}
		}
		if len(ns.Enum()) > 0 {
			out = append(out, change{"enum", `"Bogus"`, "Bogus"})
		}
		if strings.HasSuffix(ns.Ref(), "resource.Quantity") {
			for _, q := range quantities {
				out = append(out, change{"quantity", fmt.Sprintf("%q", q), q})
			}
		}
	case bool:
		out = append(out, change{"type", "a string", fmt.Sprint(v)}, change{"flip", fmt.Sprint(!v), !v})
	case float64:
		out = append(out,
			change{"type", "a string", fmt.Sprint(v)},
			change{"number", "-1", -1.0},
			change{"number", "0", 0.0},
			change{"number", "2147483648", 2147483648.0},
			change{"number", "1.5", 1.5},
		)
	case map[string]any:
		out = append(out, change{"type", "a list", []any{}}, change{"type", "a string", "x"}, change{"null", "null", nil})
		if len(v) > 0 {
			out = append(out, change{"empty", "{}", map[string]any{}})
		}
	case []any:
		out = append(out, change{"type", "an object", map[string]any{}}, change{"null", "null", nil})
		if len(v) > 0 {
			out = append(out,
				change{"empty", "[]", []any{}},
				change{"duplicate", "item 0 twice", append([]any{deepCopy(v[0])}, deepCopy(v).([]any)...)},
			)
		}
	}
	return out
}

// pad lengthens s to n characters (keeping its start) or cuts it.
func pad(s string, n int) string {
	if len(s) >= n {
		return s[:n]
	}
	return s + strings.Repeat("a", n-len(s))
}

// addition is a field a map does not have, with a value.
type addition struct {
	key, desc string
	v         any
}

// added are the fields an object's schema has that m lacks, each with a
// value of its type: an enum's values (at most 8), a string, a number, a
// boolean, an empty object or list.
func added(m map[string]any, ns *Schema) []addition {
	var out []addition
	for _, k := range ns.Properties() {
		if _, ok := m[k]; ok || k == "status" || k == "apiVersion" || k == "kind" {
			continue
		}
		c := ns.Child(k)
		if enum := c.Enum(); len(enum) > 0 {
			if len(enum) > 8 {
				enum = append(enum[:4:4], enum[len(enum)-4:]...)
			}
			for _, e := range enum {
				out = append(out, addition{k, fmt.Sprintf("add %q", e), e})
			}
			continue
		}
		switch {
		case strings.HasSuffix(c.Ref(), "resource.Quantity"):
			out = append(out, addition{k, `add "1"`, "1"})
		case strings.HasSuffix(c.Ref(), "intstr.IntOrString"):
			out = append(out, addition{k, "add 1", 1.0}, addition{k, `add "x"`, "x"})
		}
		switch c.Type() {
		case "string":
			out = append(out, addition{k, `add "x"`, "x"})
		case "integer", "number":
			out = append(out, addition{k, "add 1", 1.0})
		case "boolean":
			out = append(out, addition{k, "add true", true}, addition{k, "add false", false})
		case "object":
			out = append(out, addition{k, "add {}", map[string]any{}})
		case "array":
			out = append(out, addition{k, "add []", []any{}})
		}
	}
	return out
}

// metadataMutations give the object names, labels and annotations at and
// over their limits, and write a key twice.
func metadataMutations(seed map[string]any) []mutation {
	var out []mutation
	for _, n := range names {
		out = append(out, at("name", fmt.Sprintf("metadata.name: %d characters %.12q", len(n), n), seed, path{"metadata", "name"}, n, false))
	}
	for _, k := range sortedKeys(labels) {
		out = append(out, mutation{op: "label", desc: fmt.Sprintf("metadata.labels: %.20q=%.12q (%d/%d)", k, labels[k], len(k), len(labels[k])),
			make: func() (map[string]any, []byte) {
				obj := deepCopy(seed).(map[string]any)
				m := obj["metadata"].(map[string]any)
				l, _ := m["labels"].(map[string]any)
				if l == nil {
					l = map[string]any{}
					m["labels"] = l
				}
				l[k] = labels[k]
				return obj, nil
			}})
	}
	for _, size := range []int{256*1024 - 100, 256*1024 + 1} {
		big := map[string]any{"example.com/big": strings.Repeat("x", size)}
		out = append(out, at("annotation", fmt.Sprintf("metadata.annotations: a value of %d bytes", size), seed, path{"metadata", "annotations"}, big, false))
	}
	if md, ok := seed["metadata"].(map[string]any); ok {
		out = append(out, mutation{op: "duplicate-key", desc: "metadata written twice",
			make: func() (map[string]any, []byte) {
				return seed, []byte(fmt.Sprintf("metadata:\n  name: %v\n", md["name"]))
			}})
	}
	return out
}
