package versions

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// typed converts an object of a removed API version with Kubernetes' own
// code: old external → internal → new external.
type typed struct {
	s                  *runtime.Scheme
	old, new, internal schema.GroupVersionKind
	normalize          func(internal runtime.Object) // makes internal forms comparable (CRD), or nil
	oldName, newName   string                        // "extensions/v1beta1 Deployment", "apps/v1"
}

func newTyped(s *runtime.Scheme, oldAPIVersion, newAPIVersion, kind string) (*typed, error) {
	oldGV, err := schema.ParseGroupVersion(oldAPIVersion)
	if err != nil {
		return nil, err
	}
	newGV, err := schema.ParseGroupVersion(newAPIVersion)
	if err != nil {
		return nil, err
	}
	t := &typed{
		s:        s,
		old:      oldGV.WithKind(kind),
		new:      newGV.WithKind(kind),
		internal: schema.GroupVersionKind{Group: newGV.Group, Version: runtime.APIVersionInternal, Kind: kind},
		oldName:  oldAPIVersion + " " + kind,
		newName:  newAPIVersion,
	}
	for _, gvk := range []schema.GroupVersionKind{t.old, t.new, t.internal} {
		if !s.Recognizes(gvk) {
			return nil, fmt.Errorf("no Go type for %s", gvk)
		}
	}
	return t, nil
}

// decode reads m strictly into the Go type of gvk: a field the type does
// not have is a refusal.
func (t *typed) decode(m map[string]any, gvk schema.GroupVersionKind) (runtime.Object, *refusal, error) {
	obj, err := t.s.New(gvk)
	if err != nil {
		return nil, nil, err
	}
	err = runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(m, obj, true)
	if err == nil {
		return obj, nil, nil
	}
	name := gvk.GroupVersion().String() + " " + gvk.Kind
	if runtime.IsStrictDecodingError(err) {
		var fields []string
		for _, e := range err.(interface{ Errors() []error }).Errors() {
			fields = append(fields, strings.TrimPrefix(strings.TrimSuffix(e.Error(), `"`), `unknown field "`))
		}
		return nil, &refusal{field: fields[0], msg: fmt.Sprintf("%s has no field %s: remove %s", name, strings.Join(fields, ", "), plural(len(fields), "it", "them"))}, nil
	}
	return nil, &refusal{msg: fmt.Sprintf("cannot be read as %s: %v", name, err)}, nil
}

// convert converts a copy of in to gvk (the copy, since conversions share
// memory between their input and output).
func (t *typed) convert(in runtime.Object, gvk schema.GroupVersionKind) (runtime.Object, error) {
	out, err := t.s.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := t.s.Convert(in.DeepCopyObject(), out, nil); err != nil {
		return nil, err
	}
	out = out.DeepCopyObject()
	if gvk.Version != runtime.APIVersionInternal {
		out.GetObjectKind().SetGroupVersionKind(gvk)
	}
	return out, nil
}

// toNew converts an old external object to the new external version.
func (t *typed) toNew(old runtime.Object) (runtime.Object, error) {
	in, err := t.convert(old, t.internal)
	if err != nil {
		return nil, err
	}
	return t.convert(in, t.new)
}

// defaulted returns a copy of obj with the defaults of its version.
func (t *typed) defaulted(obj runtime.Object) runtime.Object {
	d := obj.DeepCopyObject()
	t.s.Default(d)
	return d
}

// run converts m (of the old version) and returns the new object as
// plain values, tidied and with the defaults of the old version that the
// new one changed written out (listed in pinned). written is the object
// as the input wrote it, whose spelling the output keeps (m, unless m is
// a rewrite of it).
func (t *typed) run(m, written map[string]any) (out map[string]any, pinned []string, ref *refusal, err error) {
	old, ref, err := t.decode(m, t.old)
	if ref != nil || err != nil {
		return nil, nil, ref, err
	}
	a, err := t.toNew(old)
	if err != nil {
		return nil, nil, &refusal{msg: fmt.Sprintf("Kubernetes' conversion to %s fails: %v", t.newName, err)}, nil
	}
	a, added, ref, err := t.lossless(old, a, m)
	if ref != nil || err != nil {
		return nil, nil, ref, err
	}
	am, err := plain(a)
	if err != nil {
		return nil, nil, nil, err
	}
	out, err = t.tidy(am, written)
	if err != nil {
		return nil, nil, nil, err
	}
	pinned, ref, err = t.pin(old, out, added, written)
	return out, pinned, ref, err
}

// lossless refuses a conversion that drops data: the new object, back in
// the internal version, must hold what the old one held there, and the
// conversion must not have kept a field in an annotation (the new API does
// not act on it). Annotations the conversion added that keep nothing (a
// templateGeneration of 0) are removed from a; added lists them.
func (t *typed) lossless(old, a runtime.Object, m map[string]any) (runtime.Object, []string, *refusal, error) {
	added, err := addedAnnotations(a, m)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(added) > 0 {
		// Which fields went into the annotations: convert back without them.
		a = a.DeepCopyObject()
		acc, err := meta.Accessor(a)
		if err != nil {
			return nil, nil, nil, err
		}
		anns := acc.GetAnnotations()
		for _, k := range added {
			delete(anns, k)
		}
		if len(anns) == 0 {
			anns = nil
		}
		acc.SetAnnotations(anns)
		fields, err := t.lostFields(old, a)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(fields) > 0 {
			return nil, nil, &refusal{field: fields[0], msg: fmt.Sprintf("%s has no field for %s (Kubernetes' conversion keeps %s only in annotation %s, which %s does not act on): remove %s",
				t.newName, strings.Join(fields, ", "), plural(len(fields), "it", "them"), strings.Join(added, ", "), t.newName, plural(len(fields), "it", "them"))}, nil
		}
	}
	i1, err := t.convert(old, t.internal)
	if err != nil {
		return nil, nil, nil, err
	}
	i2, err := t.convert(a, t.internal)
	if err != nil {
		return nil, nil, nil, err
	}
	if t.normalize != nil {
		t.normalize(i1)
		t.normalize(i2)
	}
	if apiequality.Semantic.DeepEqual(i1, i2) {
		return a, added, nil, nil
	}
	same, err := sameContent(i1, i2)
	if err != nil || same {
		return a, added, nil, err
	}
	fields, err := t.lostFields(old, a)
	if err != nil {
		return nil, nil, nil, err
	}
	return nil, nil, &refusal{field: first(fields), msg: fmt.Sprintf("%s has no field for %s: remove %s", t.newName, orSome(fields), plural(len(fields), "it", "them"))}, nil
}

// addedAnnotations lists the annotations of a that m does not have.
func addedAnnotations(a runtime.Object, m map[string]any) ([]string, error) {
	acc, err := meta.Accessor(a)
	if err != nil {
		return nil, err
	}
	had := mapOf(mapOf(m["metadata"])["annotations"])
	var added []string
	for k := range acc.GetAnnotations() {
		if _, ok := had[k]; !ok {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	return added, nil
}

// sameContent compares two objects of one type, status aside, as plain
// values, reading an unset field as its zero value (conversions through
// the internal version turn one into the other).
func sameContent(a, b runtime.Object) (bool, error) {
	ds, err := contentDifferences(a, b)
	return len(ds) == 0, err
}

func contentDifferences(a, b runtime.Object) ([]difference, error) {
	am, err := plain(a)
	if err != nil {
		return nil, err
	}
	bm, err := plain(b)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"status", "Status"} {
		delete(am, k)
		delete(bm, k)
	}
	var ds, out []difference
	differences(am, bm, nil, &ds)
	for _, d := range ds {
		if (!d.aOK || isZero(d.a)) && (!d.bOK || isZero(d.b)) {
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

// lostFields lists the fields of old that a round trip through a (a new
// object) does not give back.
func (t *typed) lostFields(old, a runtime.Object) ([]string, error) {
	in, err := t.convert(a, t.internal)
	if err != nil {
		return nil, err
	}
	back, err := t.convert(in, t.old)
	if err != nil {
		return nil, err
	}
	ds, err := contentDifferences(old, back)
	if err != nil {
		return nil, err
	}
	var fields []string
	for _, d := range ds {
		if d.aOK {
			fields = append(fields, d.at.String())
		}
	}
	return fields, nil
}

// tidy gives back the input's own spelling of values the new version
// holds at the same place (a quantity written 0.5 stays 0.5, not 500m; a
// port written "80" stays "80") and the values it wrote that a typed
// object leaves out (globalDefault: false, args: [], resources: {}), where
// the new version reads them the same. status is left out when the input
// had none.
func (t *typed) tidy(am, m map[string]any) (map[string]any, error) {
	if _, ok := m["status"]; !ok {
		delete(am, "status")
	}
	stripEmbeddedTypes(am, m, nil)
	var ds []difference
	differences(m, am, nil, &ds)
	var fixes []difference
	for _, d := range ds {
		if !d.aOK || len(d.at) == 1 && (d.at[0] == "apiVersion" || d.at[0] == "kind") || d.at[0] == "status" && !d.bOK {
			continue
		}
		if d.bOK && isScalar(d.a) && isScalar(d.b) || !d.bOK && (isScalar(d.a) || zeroTree(d.a)) {
			fixes = append(fixes, d)
		}
	}
	if len(fixes) == 0 {
		return am, nil
	}
	want, err := t.normal(am)
	if err != nil {
		return nil, err
	}
	try := func(out map[string]any, fs []difference) (map[string]any, bool) {
		c := deepCopyMap(out)
		for _, f := range fs {
			if set(c, f.at, deepCopy(f.a)) != nil {
				return out, false
			}
		}
		got, err := t.normal(c)
		if err != nil || !reflect.DeepEqual(got, want) {
			return out, false
		}
		return c, true
	}
	if out, ok := try(am, fixes); ok {
		return out, nil
	}
	out := am
	for _, f := range fixes {
		out, _ = try(out, []difference{f})
	}
	return out, nil
}

// normal decodes m as the new version and writes it back as plain
// values: equal results mean the new version reads them the same.
func (t *typed) normal(m map[string]any) (map[string]any, error) {
	obj, ref, err := t.decode(m, t.new)
	if err != nil {
		return nil, err
	}
	if ref != nil {
		return nil, errors.New(ref.msg)
	}
	return plain(obj)
}

// pin writes into out the defaults of the old version that the new
// version changed: the object then behaves on the new version as the old
// object did. It compares the old object with the old version's defaults,
// converted (less the annotations the conversion added), with out with the
// new version's defaults. It returns the fields it wrote, with their value
// when it is a scalar.
func (t *typed) pin(old runtime.Object, out map[string]any, added []string, m map[string]any) ([]string, *refusal, error) {
	was, err := t.toNew(t.defaulted(old))
	if err != nil {
		return nil, nil, err
	}
	want, err := plain(t.defaulted(was))
	if err != nil {
		return nil, nil, err
	}
	delete(want, "status")
	stripEmbeddedTypes(want, nil, nil)
	if anns := mapOf(mapOf(want["metadata"])["annotations"]); anns != nil {
		for _, k := range added {
			delete(anns, k)
		}
		if len(anns) == 0 {
			delete(mapOf(want["metadata"]), "annotations")
		}
	}
	var pins, overwrote []path
	for range 4 {
		got, err := t.newDefaulted(out)
		if err != nil {
			return nil, nil, err
		}
		var ds []difference
		differences(want, got, nil, &ds)
		if len(ds) == 0 {
			if pins, err = t.minimize(out, want, pins, overwrote, m); err != nil {
				return nil, nil, err
			}
			return describePins(out, pins), nil, nil
		}
		// Pin what the old defaults set; what only the new ones set may
		// go away with those pins (a rollingUpdate defaulted for a
		// RollingUpdate strategy the old version did not default to).
		if !slices.ContainsFunc(ds, func(d difference) bool { return d.aOK }) {
			d := ds[0]
			return nil, &refusal{field: d.at.String(), msg: fmt.Sprintf("%s defaults it to %s, where %s left it unset, and no value means unset: set it to the value the object needs", t.newName, show(d.b), t.oldName)}, nil
		}
		for _, d := range ds {
			if !d.aOK {
				continue
			}
			_, had := get(out, d.at)
			at, err := pinAt(out, want, d.at)
			if err != nil {
				return nil, nil, err
			}
			if !slices.ContainsFunc(pins, func(p path) bool { return p.String() == at.String() }) {
				pins = append(pins, at)
				if had {
					overwrote = append(overwrote, at)
				}
			}
		}
	}
	return nil, &refusal{msg: fmt.Sprintf("writing out the defaults of %s does not make %s behave the same: %s", t.oldName, t.newName, describe(pins))}, nil
}

// describePins writes each pinned field, with its value when a scalar.
func describePins(out map[string]any, pins []path) []string {
	s := make([]string, len(pins))
	for i, p := range pins {
		s[i] = p.String()
		if v, _ := get(out, p); isScalar(v) {
			s[i] += ": " + show(v)
		}
	}
	return s
}

func describe(ps []path) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

// newDefaulted reads m as the new version, applies its defaults and
// writes the result as plain values, without status. (m holds fields of
// the new version only: tidy checked them.)
func (t *typed) newDefaulted(m map[string]any) (map[string]any, error) {
	obj, err := t.s.New(t.new)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, obj); err != nil {
		return nil, err
	}
	t.s.Default(obj)
	got, err := plain(obj)
	if err != nil {
		return nil, err
	}
	delete(got, "status")
	stripEmbeddedTypes(got, nil, nil)
	return got, nil
}

// pinAt writes the value of want at p into out; where out lacks a list
// element on the way, it writes want's whole list. It returns the path it
// wrote.
func pinAt(out, want map[string]any, p path) (path, error) {
	for i, e := range p {
		if _, ok := e.(int); !ok {
			continue
		}
		if l, ok := get(out, p[:i]); !ok || len(asList(l)) <= e.(int) {
			p = p[:i]
			break
		}
	}
	v, _ := get(want, p)
	return p, set(out, p, deepCopy(v))
}

// minimize removes from out the values that the new version's defaults
// give anyway: zero values the input did not have at that place (a
// conversion through the internal version writes port: 0 for an unset
// port, which the new version would take at face value) and the pins
// that overwrote one. (A pin that filled an unset field is needed: unset,
// the field differed.) It returns the pins left.
func (t *typed) minimize(out, want map[string]any, pins, overwrote []path, m map[string]any) ([]path, error) {
	var candidates []path
	var leaves func(x any, at path)
	leaves = func(x any, at path) {
		switch x := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				leaves(x[k], at.with(k))
			}
		case []any:
			for i, e := range x {
				leaves(e, at.with(i))
			}
		default:
			if _, had := get(m, at); !had && isZero(x) {
				candidates = append(candidates, at)
			}
		}
	}
	leaves(out, nil)
	candidates = append(candidates, overwrote...)
	if len(candidates) == 0 {
		return pins, nil
	}
	same := func(trial map[string]any) (bool, error) {
		got, err := t.newDefaulted(trial)
		return err == nil && reflect.DeepEqual(got, want), err
	}
	// All at once first: usually every one of them goes.
	trial := deepCopyMap(out)
	for _, c := range candidates {
		remove(trial, c, m)
	}
	ok, err := same(trial)
	if err != nil {
		return nil, err
	}
	if !ok {
		trial = deepCopyMap(out)
		var kept []path
		for _, c := range candidates {
			try := deepCopyMap(trial)
			if !remove(try, c, m) {
				continue
			}
			if ok, err := same(try); err != nil {
				return nil, err
			} else if ok {
				trial = try
			} else {
				kept = append(kept, c)
			}
		}
		candidates = slices.DeleteFunc(candidates, func(c path) bool {
			return slices.ContainsFunc(kept, func(k path) bool { return k.String() == c.String() })
		})
	}
	for k := range out {
		delete(out, k)
	}
	maps.Copy(out, trial)
	return slices.DeleteFunc(pins, func(p path) bool {
		return slices.ContainsFunc(candidates, func(c path) bool { return c.String() == p.String() })
	}), nil
}

// stripEmbeddedTypes removes apiVersion and kind from the objects embedded
// in x (maps below the root with metadata, such as the
// volumeClaimTemplates of a StatefulSet, which Kubernetes' conversion
// labels v1 PersistentVolumeClaim) where the input (in, at the same
// place) did not write them: the API server ignores them.
func stripEmbeddedTypes(x any, in any, at path) {
	switch t := x.(type) {
	case map[string]any:
		if _, isObject := t["metadata"]; isObject && len(at) > 0 {
			for _, k := range []string{"apiVersion", "kind"} {
				if _, had := get(in, path{k}); !had {
					delete(t, k)
				}
			}
		}
		for k, v := range t {
			sub, _ := get(in, path{k})
			stripEmbeddedTypes(v, sub, at.with(k))
		}
	case []any:
		for i, v := range t {
			sub, _ := get(in, path{i})
			stripEmbeddedTypes(v, sub, at.with(i))
		}
	}
}
