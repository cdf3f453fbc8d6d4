package migrate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// reader reads fields of an unstructured object and keeps the problems,
// each with its field path.
type reader struct {
	obj      map[string]any
	problems []string
}

func (r *reader) fail(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// errors returns the problems, each naming what.
func (r *reader) errors(where, what string) []error {
	var errs []error
	for _, p := range r.problems {
		errs = append(errs, fmt.Errorf("%s: %s: %s", where, what, p))
	}
	return errs
}

// get returns the value at path, or nil; a non-map on the way is a
// problem.
func (r *reader) get(path ...string) any {
	var v any = r.obj
	for i, k := range path {
		if v == nil {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			r.fail("%s: want an object, got %s", strings.Join(path[:i], "."), typeName(v))
			return nil
		}
		v = m[k]
	}
	return v
}

// str returns the text at path ("" when absent).
func (r *reader) str(path ...string) string {
	v := r.get(path...)
	s, ok := v.(string)
	if v != nil && !ok {
		r.fail("%s: want a string, got %s", strings.Join(path, "."), typeName(v))
	}
	return s
}

// strMap returns the map of text at path.
func (r *reader) strMap(path ...string) map[string]string {
	v := r.get(path...)
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.fail("%s: want a map of strings, got %s", strings.Join(path, "."), typeName(v))
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			r.fail("%s.%s: want a string, got %s", strings.Join(path, "."), visible.Escape(k), typeName(m[k]))
			continue
		}
		out[k] = s
	}
	return out
}

func (r *reader) list(path ...string) []any {
	v := r.get(path...)
	l, ok := v.([]any)
	if v != nil && !ok {
		r.fail("%s: want a list, got %s", strings.Join(path, "."), typeName(v))
	}
	return l
}

func (r *reader) object(path ...string) map[string]any {
	v := r.get(path...)
	m, ok := v.(map[string]any)
	if v != nil && !ok {
		r.fail("%s: want an object, got %s", strings.Join(path, "."), typeName(v))
	}
	return m
}

// typeName names the type of a decoded YAML value.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case bool:
		return "a boolean"
	case int, int64, uint64, float64:
		return fmt.Sprintf("a number (%v)", v)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func (r *reader) instance(ns, name string) *Instance {
	in := &Instance{
		Namespace: ns, Name: name,
		OperatorVersion: r.str("spec", "operatorVersion", "name"),
		Operator:        r.str("metadata", "labels", "kudo.dev/operator"),
		Params:          r.strMap("spec", "parameters"),
	}
	if in.OperatorVersion == "" {
		r.fail("spec.operatorVersion.name: is required")
	}
	for plan, st := range r.object("status", "planStatus") {
		if m, ok := st.(map[string]any); ok && m["status"] != nil && m["status"] != "NEVER_RUN" {
			in.PlansRun = append(in.PlansRun, plan)
		}
	}
	slices.Sort(in.PlansRun)
	for i, o := range r.list("metadata", "ownerReferences") {
		ref, ok := o.(map[string]any)
		if !ok {
			r.fail("metadata.ownerReferences[%d]: want an object, got %s", i, typeName(o))
			continue
		}
		sub := reader{obj: ref}
		if sub.str("kind") == kindInstance && sub.str("apiVersion") == kudoAPIVersion {
			in.Parent = sub.str("name")
		}
		for _, p := range sub.problems {
			r.fail("metadata.ownerReferences[%d].%s", i, p)
		}
	}
	return in
}

func (r *reader) operatorVersion(ns, name string) *OperatorVersion {
	ov := &OperatorVersion{
		Namespace: ns, Name: name,
		Operator:   r.str("spec", "operator", "name"),
		Version:    r.str("spec", "version"),
		AppVersion: r.str("spec", "appVersion"),
		Templates:  r.strMap("spec", "templates"),
		Tasks:      r.list("spec", "tasks"),
		Plans:      r.object("spec", "plans"),
	}
	if ov.Operator == "" {
		r.fail("spec.operator.name: is required")
	}
	if ov.Version == "" {
		r.fail("spec.version: is required")
	}
	for i, p := range r.list("spec", "parameters") {
		m, ok := p.(map[string]any)
		if !ok {
			r.fail("spec.parameters[%d]: want an object, got %s", i, typeName(p))
			continue
		}
		ov.Params = append(ov.Params, r.param(i, m))
	}
	return ov
}

// param reads spec.parameters[i] of an OperatorVersion.
func (r *reader) param(i int, m map[string]any) Param {
	sub := reader{obj: m}
	p := Param{
		Name: sub.str("name"), DisplayName: sub.str("displayName"), Description: sub.str("description"),
		Trigger: sub.str("trigger"), Type: sub.str("value-type"),
		Required: sub.boolPtr("required"), Immutable: sub.boolPtr("immutable"),
	}
	if v, ok := m["default"]; ok && v != nil {
		d := sub.str("default")
		p.Default = &d
	}
	for j, e := range sub.list("enum") {
		s, ok := e.(string)
		if !ok {
			sub.fail("enum[%d]: want a string, got %s", j, typeName(e))
		}
		p.Enum = append(p.Enum, s)
	}
	if p.Name == "" {
		sub.fail("name: is required")
	}
	for _, msg := range sub.problems {
		r.fail("spec.parameters[%d].%s", i, msg)
	}
	return p
}

func (r *reader) boolPtr(path ...string) *bool {
	v := r.get(path...)
	if v == nil {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		r.fail("%s: want a boolean, got %s", strings.Join(path, "."), typeName(v))
		return nil
	}
	return &b
}

func (r *reader) operator(ns, name string) *Operator {
	return &Operator{
		Namespace: ns, Name: name,
		Description:       r.str("spec", "description"),
		KudoVersion:       r.str("spec", "kudoVersion"),
		KubernetesVersion: r.str("spec", "kubernetesVersion"),
		URL:               r.str("spec", "url"),
		Maintainers:       r.list("spec", "maintainers"),
	}
}
