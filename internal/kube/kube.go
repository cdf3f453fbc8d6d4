package kube

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Options of Normalize.
type Options struct {
	// Strict makes fields the API type does not have an error.
	Strict bool
	// Where names an object in messages (its template); nil names none.
	Where func(i int) string
}

// Normalize types the ambiguous scalars of objs and removes the fields of
// built-in kinds that their API type does not have. It returns one warning
// per removed field (errors when strict).
func Normalize(objs []*object.Object, opts Options) ([]*diag.Diagnostic, error) {
	each, err := NormalizeEach(objs, opts)
	var found []*diag.Diagnostic
	for _, ds := range each {
		found = append(found, ds...)
	}
	return found, err
}

// NormalizeEach is Normalize, with the warnings of each object apart
// (those of objs[i] at i), so that each can be told to its object.
func NormalizeEach(objs []*object.Object, opts Options) ([][]*diag.Diagnostic, error) {
	crds := crdSchemas(objs)
	// Objects are typed on all cores (each only reads the schemas);
	// diagnostics keep object order.
	each := make([][]*diag.Diagnostic, len(objs))
	// An object listed twice is typed twice, in order.
	par.DoIf(par.Distinct(objs), len(objs), func(i int) { each[i] = normalizeOne(objs[i], i, crds, opts) })
	if opts.Strict {
		var found []*diag.Diagnostic
		for _, ds := range each {
			for _, d := range ds {
				d.Severity = diag.SeverityError
				found = append(found, d)
			}
		}
		if len(found) > 0 {
			return nil, &diag.Error{Head: "strict: objects have fields their API type does not have", List: found}
		}
	}
	return each, nil
}

// normalizeOne types the YAML 1.1 booleans of object o (the i-th) and
// prunes the fields its built-in type lacks, reporting each.
func normalizeOne(o *object.Object, i int, crds crdTable, opts Options) []*diag.Diagnostic {
	t := builtinType(o)
	for _, p := range o.Bool11 {
		typeBool11(o, p, t, crds)
	}
	if t == noType {
		return nil
	}
	var removed []string
	prune(o.Map, t, nil, &removed)
	found := make([]*diag.Diagnostic, 0, len(removed))
	for _, f := range removed {
		d := &diag.Diagnostic{
			Severity: diag.SeverityWarning,
			Resource: &diag.Resource{APIVersion: o.APIVersion(), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()},
			Field:    f,
			Msg:      fmt.Sprintf("removed: %s %s has no such field (the API server refuses it with strict field validation; KUDO dropped it)", o.APIVersion(), o.Kind()),
		}
		if opts.Where != nil {
			d.File = opts.Where(i)
		}
		found = append(found, d)
	}
	return found
}

// builtinType is the type of a built-in kind, noType for other kinds.
func builtinType(o *object.Object) typeID { return kindType(o.APIVersion(), o.Kind()) }

// prune removes from v every key its type t does not have; removed gets
// their field paths.
func prune(v any, t typeID, path []string, removed *[]string) {
	switch ty := &apiTypes[t]; ty.c {
	case tStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		var buf [16]string
		for _, k := range sortedKeys(m, buf[:0]) {
			ft, ok := field(t, k)
			if !ok {
				*removed = append(*removed, fieldPath(append(path, k)))
				delete(m, k)
				continue
			}
			prune(m[k], ft, append(path, k), removed)
		}
	case tList:
		l, _ := v.([]any)
		for i, x := range l {
			prune(x, ty.elem, append(path, "["+strconv.Itoa(i)+"]"), removed)
		}
	case tMap:
		m, _ := v.(map[string]any)
		var buf [16]string
		for _, k := range sortedKeys(m, buf[:0]) {
			prune(m[k], ty.elem, append(path, k), removed)
		}
	}
}

// sortedKeys appends the keys of m to buf, sorted (buf on the caller's
// stack saves an allocation per map).
func sortedKeys(m map[string]any, buf []string) []string {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// fieldPath writes a path as spec.containers[0].name.
func fieldPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if !strings.HasPrefix(p, "[") && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
