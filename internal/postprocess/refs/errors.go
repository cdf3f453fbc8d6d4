package refs

import (
	"errors"
	"fmt"
	"github.com/kudo-render/kudo-render/internal/diag"
	"strings"
)

// Ref says where a reference is and what it looks for. Every error about
// one reference embeds it, so its message starts with
// "<object>: <field>: getValueFrom <wanted>: ".
type Ref struct {
	// Object is the referencing object, e.g. `ConfigMap app/settings`, with
	// `(spec.template of Composable ns/name)` for an expanded Composable.
	Object string
	// Field is the field path of the reference inside Object, e.g.
	// `data.port` or `spec.ports[0].port`.
	Field string
	// Wanted is the reference as written, in YAML flow style, e.g.
	// `{kind: Service, name: db, path: '{.spec.ports[0].port}'}`. It is
	// empty when getValueFrom is not even a mapping.
	Wanted string
	// Resource identifies Object for diagnostics, when it has a kind.
	Resource *diag.Resource
}

// diagnostics makes the one diagnostic of an error of r whose message is
// msg (prefix included).
func (r Ref) diagnostics(msg string) []*diag.Diagnostic {
	d := &diag.Diagnostic{Resource: r.Resource, Field: r.Field, Msg: msg}
	if r.Resource != nil {
		d.Msg = strings.TrimPrefix(msg, r.Object+": "+r.Field+": ")
	}
	return []*diag.Diagnostic{d}
}

// resourceOf identifies an object for diagnostics.
func resourceOf(m map[string]any) *diag.Resource {
	kind, _ := m["kind"].(string)
	if kind == "" {
		return nil
	}
	av, _ := m["apiVersion"].(string)
	md, _ := m["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	return &diag.Resource{APIVersion: av, Kind: kind, Namespace: ns, Name: name}
}

func (r Ref) prefix() string {
	s := r.Object + ": " + r.Field + ": "
	if r.Wanted != "" {
		s += "getValueFrom " + r.Wanted + ": "
	}
	return s
}

// IllFormedRefError: the reference itself is wrong (unknown or missing
// field, both or neither of name and labels, bad path or transformer
// name, an ambiguous kind or more than one matching object, ...). No
// content of the other objects can fix it.
type IllFormedRefError struct {
	Ref
	Reason string
}

func (e *IllFormedRefError) Error() string {
	return e.prefix() + "ill-formed reference: " + e.Reason
}

// KindNotFoundError: no built-in kind, CustomResourceDefinition of the
// render or object of the render has the kind (or plural, singular or
// short name) the reference names, in the group of its apiVersion when it
// has one.
type KindNotFoundError struct {
	Ref
	Kind       string
	APIVersion string // "" when the reference has none
}

func (e *KindNotFoundError) Error() string {
	where := ""
	if e.APIVersion != "" {
		where = fmt.Sprintf(" with apiVersion %s", e.APIVersion)
	}
	return fmt.Sprintf("%skind not found: no kind, plural, singular or short name %q%s among the built-in kinds, the CustomResourceDefinitions and the objects of the render",
		e.prefix(), e.Kind, where)
}

// ObjectNotFoundError: the kind exists but no object of the render (or of
// the lookup objects) has the name, or the labels, in the namespace.
type ObjectNotFoundError struct {
	Ref
	Kind      string            // the kind the reference resolved to, e.g. `Service (core group)`
	Namespace string            // "" for a cluster-scoped kind
	Name      string            // "" when selecting by labels
	Labels    map[string]string // nil when selecting by name
	Hint      string            // why, when it is not just absent
}

func (e *ObjectNotFoundError) Error() string {
	var b strings.Builder
	b.WriteString(e.prefix())
	b.WriteString("object not found: no ")
	b.WriteString(e.Kind)
	if e.Labels != nil {
		b.WriteString(" with labels ")
		b.WriteString(labelString(e.Labels))
	} else {
		fmt.Fprintf(&b, " named %q", e.Name)
	}
	if e.Namespace != "" {
		fmt.Fprintf(&b, " in namespace %q", e.Namespace)
	}
	if e.Hint != "" {
		b.WriteString(" (" + e.Hint + ")")
	}
	return b.String()
}

// ValueNotFoundError: the object exists but the path selects nothing: a
// missing field, an index out of range, a filter that matches nothing, a
// null value, or a path that does not fit the object's shape.
type ValueNotFoundError struct {
	Ref
	Source string // the referenced object, e.g. `Service app/db`
	Path   string
	Reason string
}

func (e *ValueNotFoundError) Error() string {
	return fmt.Sprintf("%svalue not found: %s in %s: %s", e.prefix(), e.Path, e.Source, e.Reason)
}

// TransformError: a format transformer cannot convert the value it was
// given (Composable silently produced null).
type TransformError struct {
	Ref
	Index       int    // position in format-transformers
	Transformer string // its name
	Err         error
}

func (e *TransformError) Error() string {
	return fmt.Sprintf("%sformat-transformers[%d] %s: %v", e.prefix(), e.Index, e.Transformer, e.Err)
}

func (e *TransformError) Unwrap() error { return e.Err }

// CycleError: references that depend on each other. Refs lists the
// references of the cycle in dependency order, the first one repeated at
// the end.
type CycleError struct {
	Refs []Ref
}

func (e *CycleError) Error() string {
	parts := make([]string, len(e.Refs))
	for i, r := range e.Refs {
		parts[i] = r.Object + " " + r.Field
	}
	return "reference cycle: " + strings.Join(parts, " -> ")
}

// Objects returns the objects of the cycle, each once, in cycle order.
func (e *CycleError) Objects() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range e.Refs {
		if !seen[r.Object] {
			seen[r.Object] = true
			out = append(out, r.Object)
		}
	}
	return out
}

// SecretCopyError: with Options.FailOnSecretCopy, a value copied out of a
// Secret (directly or through other references) into a non-Secret object.
type SecretCopyError struct {
	Ref
	Secret string // e.g. `Secret app/db`
}

func (e *SecretCopyError) Error() string { return e.prefix() + secretCopyMsg(e.Secret) }

func secretCopyMsg(secret string) string {
	return "value copied out of " + secret + " into a non-Secret object, where it is stored in clear text"
}

// RefNotFound is implemented by the "not found" classes (kind, object and
// value), as Composable's IsRefNotFound: errors.As(err, new(RefNotFound)).
// defaultValue applies to exactly these.
type RefNotFound interface {
	error
	refNotFound()
}

func (*KindNotFoundError) refNotFound()   {}
func (*ObjectNotFoundError) refNotFound() {}
func (*ValueNotFoundError) refNotFound()  {}

// IsIllFormedRef reports whether err is or wraps an *IllFormedRefError.
func IsIllFormedRef(err error) bool { return is[*IllFormedRefError](err) }

// IsKindNotFound reports whether err is or wraps a *KindNotFoundError.
func IsKindNotFound(err error) bool { return is[*KindNotFoundError](err) }

// IsObjectNotFound reports whether err is or wraps an *ObjectNotFoundError.
func IsObjectNotFound(err error) bool { return is[*ObjectNotFoundError](err) }

// IsValueNotFound reports whether err is or wraps a *ValueNotFoundError.
func IsValueNotFound(err error) bool { return is[*ValueNotFoundError](err) }

// IsRefNotFound reports whether err is or wraps a kind, object or value
// not found error.
func IsRefNotFound(err error) bool { return is[RefNotFound](err) }

func is[T error](err error) bool {
	var t T
	return errors.As(err, &t)
}

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *IllFormedRefError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *KindNotFoundError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *ObjectNotFoundError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *ValueNotFoundError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *TransformError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the referencing object and field.
func (e *SecretCopyError) Diagnostics() []*diag.Diagnostic { return e.diagnostics(e.Error()) }

// Diagnostics implements diag.Carrier: the first object of the cycle.
func (e *CycleError) Diagnostics() []*diag.Diagnostic {
	if len(e.Refs) == 0 {
		return []*diag.Diagnostic{{Msg: e.Error()}}
	}
	return []*diag.Diagnostic{{Resource: e.Refs[0].Resource, Field: e.Refs[0].Field, Msg: e.Error()}}
}
