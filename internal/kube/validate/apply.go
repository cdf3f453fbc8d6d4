package validate

//go:generate go test -run ^TestApplySchema$ -update .

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Server-side apply (Argo CD's ServerSideApply=true, Flux's
// kustomize-controller, kubectl apply --server-side) reads the applied
// object against the structured-merge-diff schema of its kind before
// anything else, and refuses what the schema's list types forbid: two
// items of one key in an associative list (two env vars of one name, two
// container ports of one containerPort and protocol), an item without its
// key, a value twice in a set. Validation does not check all of these
// (it only warns of a duplicate env var), so the verdict would differ.
//
// The schema of the built-in kinds is client-go's (applyconfigurations,
// generated from the API server's OpenAPI), compiled into apply_gen.go
// for the kinds Kubernetes ServedVersion serves: parsing client-go's YAML
// of every kind costs a process 400 ms, building this one a fraction of a
// millisecond, on the first object validated.

var (
	applyOnce   sync.Once
	applyParser *typed.Parser
)

// applyRoot is the schema type of a served kind, "" for none.
func applyRoot(apiVersion, kind string) string {
	key := apiVersion + " " + kind
	i, found := slices.BinarySearchFunc(applyRoots[:], key, func(r [2]string, k string) int { return strings.Compare(r[0], k) })
	if !found {
		return ""
	}
	return applyRoots[i][1]
}

// applyType is the structured-merge-diff type of a served built-in kind;
// ok is false for a kind without one.
func applyType(gvk schema.GroupVersionKind) (typed.ParseableType, bool) {
	name := applyRoot(gvk.GroupVersion().String(), gvk.Kind)
	if name == "" {
		return typed.ParseableType{}, false
	}
	applyOnce.Do(func() { applyParser = &typed.Parser{Schema: smdschema.Schema{Types: applyTypes()}} })
	return applyParser.Type(name), true
}

// builtinApplyErrors is what server-side apply refuses in obj, a built-in
// kind's object.
func builtinApplyErrors(gvk schema.GroupVersionKind, obj map[string]any) field.ErrorList {
	t, ok := applyType(gvk)
	if !ok {
		return nil
	}
	_, err := typed.AsTyped(inOrder{value.NewValueInterface(obj)}, t.Schema, t.TypeRef)
	return ApplyErrors(obj, err)
}

// ApplyErrors turns what structured-merge-diff refused in obj (the error
// of a typed.ParseableType's FromUnstructured, or of a managedfields.
// TypeConverter's ObjectToTyped, as the API server's field manager calls
// it on an applied object) into field errors at obj's own field paths
// (list indexes, not keys), each worded as server-side apply refuses it.
// A custom resource is checked by the TypeConverter of its definition's
// schema (managedfields.NewTypeConverter). nil for a nil error.
func ApplyErrors(obj map[string]any, err error) field.ErrorList {
	if err == nil {
		return nil
	}
	var ves typed.ValidationErrors
	if !errors.As(err, &ves) {
		return field.ErrorList{field.Invalid(nil, field.OmitValueType{}, "server-side apply refuses the object: "+err.Error())}
	}
	var out field.ErrorList
	for _, ve := range ves {
		p, rest := smdPath(obj, ve.Path)
		msg := ve.ErrorMessage
		if key, ok := strings.CutPrefix(msg, "duplicate entries for key "); ok {
			if list, isList := at(obj, p).([]any); isList {
				if i := secondMatch(list, key); i >= 0 {
					p = p.Index(i)
				}
			}
		}
		if rest != "" {
			msg = rest + ": " + msg
		}
		out = append(out, field.Invalid(p, field.OmitValueType{}, "server-side apply refuses it (Argo CD, Flux and kubectl --server-side apply so): "+msg))
	}
	return out
}

// smdPath follows a structured-merge-diff path (".spec.ports[port=80,
// protocol=\"TCP\"].name") through obj and returns the field path it
// reaches, with the part it could not follow.
func smdPath(obj map[string]any, p string) (*field.Path, string) {
	var fp *field.Path
	var cur any = obj
	for p != "" {
		switch {
		case p[0] == '.':
			m, ok := cur.(map[string]any)
			key := longestKey(m, p[1:])
			if !ok || key == "" {
				return fp, p
			}
			fp, cur, p = childOf(fp, key), m[key], p[1+len(key):]
		case p[0] == '[':
			end := closing(p)
			l, ok := cur.([]any)
			if end < 0 || !ok {
				return fp, p
			}
			i := matchItem(l, p[1:end])
			if i < 0 {
				return fp, p
			}
			fp, cur, p = fp.Index(i), l[i], p[end+1:]
		default:
			return fp, p
		}
	}
	return fp, ""
}

func childOf(p *field.Path, key string) *field.Path {
	if p == nil {
		return field.NewPath(key)
	}
	return p.Child(key)
}

// longestKey is the longest key of m that starts rest and ends where a
// path element ends (keys may hold dots: app.kubernetes.io/name).
func longestKey(m map[string]any, rest string) string {
	best := ""
	for k := range m {
		if len(k) > len(best) && strings.HasPrefix(rest, k) && (len(rest) == len(k) || rest[len(k)] == '.' || rest[len(k)] == '[') {
			best = k
		}
	}
	return best
}

// closing is the index of the ] that closes the [ at p[0], outside quoted
// strings; -1 when there is none.
func closing(p string) int {
	inQuote := false
	for i := 1; i < len(p); i++ {
		switch {
		case inQuote && p[i] == '\\':
			i++
		case p[i] == '"':
			inQuote = !inQuote
		case !inQuote && p[i] == ']':
			return i
		}
	}
	return -1
}

// matchItem finds the item of l that a path element's inside names: an
// index ("3"), a set value ("=\"a\""), or key values ("name=\"a\"",
// compared as structured-merge-diff writes them; a key an item leaves out
// matches, its default would). -1 when none does.
func matchItem(l []any, inside string) int {
	if i, err := strconv.Atoi(inside); err == nil {
		if i >= 0 && i < len(l) {
			return i
		}
		return -1
	}
	for i := range l {
		if itemMatches(l[i], inside) {
			return i
		}
	}
	return -1
}

// secondMatch is the index of the second item of l that key (a path
// element, "[name=\"A\"]") names: the duplicate; -1 when there is none.
func secondMatch(l []any, key string) int {
	end := closing(key)
	if !strings.HasPrefix(key, "[") || end < 0 {
		return -1
	}
	found := 0
	for i := range l {
		if itemMatches(l[i], key[1:end]) {
			if found++; found == 2 {
				return i
			}
		}
	}
	return -1
}

func itemMatches(item any, inside string) bool {
	if v, ok := strings.CutPrefix(inside, "="); ok {
		return value.ToString(value.NewValueInterface(item)) == v
	}
	m, ok := item.(map[string]any)
	if !ok {
		return false
	}
	for _, kv := range splitKeys(inside) {
		k, v, _ := strings.Cut(kv, "=")
		if x, has := m[k]; has && value.ToString(value.NewValueInterface(x)) != v {
			return false
		}
	}
	return true
}

// splitKeys splits "a=1,b=\"x,y\"" at the commas outside quoted strings.
func splitKeys(s string) []string {
	var out []string
	start, inQuote := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case inQuote && s[i] == '\\':
			i++
		case s[i] == '"':
			inQuote = !inQuote
		case !inQuote && s[i] == ',':
			out, start = append(out, s[start:i]), i+1
		}
	}
	return append(out, s[start:])
}

// at is the value at a field path of obj (nil path: obj).
func at(obj map[string]any, p *field.Path) any {
	if p == nil {
		return obj
	}
	v, _ := lookupField(obj, p.String())
	return v
}

// lookupField is the value at a field path ("a.b[0].c", "m[key]").
func lookupField(m map[string]any, p string) (any, bool) {
	var cur any = m
	for _, seg := range splitField(p) {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
