package refs

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Composable's API: an input item of this group and kind wraps an object
// with references in spec.template.
const (
	ComposableGroup      = "ibmcloud.ibm.com"
	ComposableAPIVersion = ComposableGroup + "/v1alpha1"
	ComposableKind       = "Composable"
)

// ExpandComposables replaces each item of kind Composable (apiVersion
// ibmcloud.ibm.com/v1alpha1) by its spec.template placed in the
// Composable's namespace (none for a cluster-scoped kind), then resolves
// the references of every item as Resolve(result, lookup, opts) does. It
// returns new objects, in the order of items; items are not modified.
//
// A Composable must have a spec with a template (a mapping) and nothing
// else; another version of the API is an error. Errors about a reference in
// a template name the Composable it came from.
func ExpandComposables(items, lookup []*object.Object, opts Options) ([]*object.Object, error) {
	out := make([]*object.Object, 0, len(items))
	origins := map[*object.Object]string{}
	var errs []error
	for _, it := range items {
		if it == nil {
			continue
		}
		if it.Kind() != ComposableKind || it.Group() != ComposableGroup {
			out = append(out, it.DeepCopy())
			continue
		}
		t, err := expand(it)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		origins[t] = "spec.template of " + describeObject(it)
		out = append(out, t)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	r, err := resolve(out, lookup, origins, opts)
	if err != nil {
		return nil, err
	}
	for t := range origins {
		k, ok := gkOf(t.Map)
		if ki := r.kinds.byGK[k]; ok && ki != nil && !ki.namespaced {
			if md, ok := t.Map["metadata"].(map[string]any); ok {
				delete(md, "namespace")
			}
		}
	}
	return out, nil
}

// expand returns a copy of the template of the Composable c, in c's
// namespace.
func expand(c *object.Object) (*object.Object, error) {
	fail := func(field, format string, args ...any) error {
		return &IllFormedRefError{Ref: Ref{Object: describeObject(c), Resource: resourceOf(c.Map), Field: field}, Reason: fmt.Sprintf(format, args...)}
	}
	if av := c.APIVersion(); av != ComposableAPIVersion {
		return nil, fail("apiVersion", "unsupported Composable version %q; only %s is supported", av, ComposableAPIVersion)
	}
	spec, ok := c.Map["spec"].(map[string]any)
	if !ok {
		return nil, fail("spec", "a Composable needs a spec with a template")
	}
	var extra []string
	for k := range spec {
		if k != "template" {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fail("spec", "unknown field %s (a Composable's spec has only template)", strings.Join(extra, ", "))
	}
	tmpl, ok := spec["template"].(map[string]any)
	if !ok {
		return nil, fail("spec.template", "the template must be a mapping (an object), got %s", describe(spec["template"]))
	}
	for _, f := range []string{"apiVersion", "kind"} {
		if _, ok := tmpl[f]; !ok {
			return nil, fail("spec.template", "the template has no %s", f)
		}
	}
	t := object.New(copyValue(tmpl).(map[string]any))
	if ns := c.Namespace(); ns != "" {
		md, ok := t.Map["metadata"].(map[string]any)
		if t.Map["metadata"] == nil {
			md, ok = map[string]any{}, true
			t.Map["metadata"] = md
		}
		if _, isRef := md["getValueFrom"]; !ok || isRef {
			return nil, fail("spec.template.metadata", "the template's metadata must be a mapping, not %s", describe(t.Map["metadata"]))
		}
		md["namespace"] = ns
	}
	return t, nil
}

// describeObject names an object for messages: `Composable app/db`.
func describeObject(o *object.Object) string {
	name := o.Name()
	if name == "" {
		name = "(no name)"
	}
	if ns := o.Namespace(); ns != "" {
		name = ns + "/" + name
	}
	kind := o.Kind()
	if kind == "" {
		kind = "object"
	}
	return kind + " " + name
}

// AnyReference reports whether one of objs holds a getValueFrom
// reference (or is a Composable).
func AnyReference(objs []*object.Object) bool {
	for _, o := range objs {
		if o.Kind() == ComposableKind && o.Group() == ComposableGroup || HasReference(o.Map) {
			return true
		}
	}
	return false
}

// HasReference reports whether a getValueFrom key appears anywhere in v.
func HasReference(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["getValueFrom"]; ok {
			return true
		}
		for _, x := range t {
			if HasReference(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if HasReference(x) {
				return true
			}
		}
	}
	return false
}
