package versions

import (
	"fmt"
	"strings"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Convert converts o in place to the successor of its API version when
// target does not serve that version (see Table), with Kubernetes' own
// conversion and defaulting code, and returns an info diagnostic saying
// so. Where the old version's defaults differ from the successor's, the
// old defaults are written out, so that the object behaves on target as it
// did. It fails with an error diagnostic (a *diag.Diagnostic) naming the
// field, the replacement API and what to change when nothing replaces the
// kind, when the conversion would drop data, or when the successor would
// read the object differently. Objects of other API versions, and of
// versions target still serves, are left untouched (nil, nil). The caller
// fills File and Line.
//
// o should be typed already (package kube): a converted object's Bool11 is
// cleared, since its paths name the old version's fields.
func Convert(o *object.Object, target kubeversion.Version) (*diag.Diagnostic, error) {
	r := lookup(o.APIVersion(), o.Kind())
	if r == nil || r.Removed.Compare(target) > 0 {
		return nil, nil
	}
	res := &diag.Resource{APIVersion: o.APIVersion(), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()}
	removed := fmt.Sprintf("%s %s is removed in Kubernetes %s (target %s)", r.APIVersion, r.Kind, r.Removed, target)
	refuse := func(ref *refusal) error {
		msg := fmt.Sprintf("%s, and %s (or render for a Kubernetes version older than %s, which serves %s)", removed, ref.msg, r.Removed, r.APIVersion)
		return &diag.Diagnostic{Severity: diag.SeverityError, Resource: res, Field: ref.field, Msg: msg}
	}
	succ := r.successor(target)
	if succ == "" {
		return nil, refuse(r.noSuccessor(target))
	}
	if r.check != nil {
		if ref := r.check(o.Map); ref != nil {
			return nil, refuse(ref)
		}
	}
	out, notes, ref, err := r.convert(o.Map, succ)
	if err != nil {
		return nil, fmt.Errorf("%s: converting %s to %s: %w", res, removed, succ, err)
	}
	if ref == nil && r.after != nil {
		ref = r.after(out)
	}
	if ref != nil {
		return nil, refuse(ref)
	}
	o.Map = out
	o.Bool11 = nil
	msg := fmt.Sprintf("converted %s %s to %s: %s", r.APIVersion, r.Kind, succ, removed)
	if len(notes) > 0 {
		msg += "; " + strings.Join(notes, "; ")
	}
	return &diag.Diagnostic{Severity: diag.SeverityInfo, Resource: res, Msg: msg}, nil
}

// noSuccessor says what replaces a kind the target serves no successor of.
func (r *row) noSuccessor(target kubeversion.Version) *refusal {
	msg := "nothing replaces it"
	if len(r.Successors) > 0 {
		var names []string
		for _, s := range r.Successors {
			names = append(names, s.APIVersion)
		}
		msg = fmt.Sprintf("Kubernetes %s serves none of its successors (%s) either", target, strings.Join(names, ", "))
	}
	return &refusal{msg: fmt.Sprintf("%s: use %s instead, and remove the %s", msg, r.Instead, r.Kind)}
}

// convert converts m to apiVersion succ and returns the new content and
// notes on what changed beyond the API version.
func (r *row) convert(m map[string]any, succ string) (map[string]any, []string, *refusal, error) {
	switch r.how {
	case byRename:
		out := deepCopyMap(m)
		out["apiVersion"] = succ
		return out, []string{succ + " has the same fields"}, nil, nil
	case byHPA:
		return convertHPA(m, r.APIVersion, succ)
	}
	s, err := schemeFor(succ)
	if err != nil {
		return nil, nil, nil, err
	}
	t, err := newTyped(s, r.APIVersion, succ, r.Kind)
	if err != nil {
		return nil, nil, nil, err
	}
	var notes []string
	written := m
	if r.before != nil {
		m, notes = r.before(m)
	}
	if r.how == byCRD {
		t.normalize = crdNormalize
	}
	out, pinned, ref, err := t.run(m, written)
	if ref != nil || err != nil {
		return nil, nil, ref, err
	}
	if r.how == byCRD {
		if ref, err := crdAfter(t, out); ref != nil || err != nil {
			return nil, nil, ref, err
		}
	}
	if len(pinned) > 0 {
		notes = append(notes, fmt.Sprintf("wrote out the defaults of %s that %s changed: %s", r.APIVersion, succ, strings.Join(pinned, ", ")))
	}
	return out, notes, nil, nil
}
