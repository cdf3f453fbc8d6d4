package versions

import (
	"fmt"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// A CustomResourceDefinition of apiextensions.k8s.io/v1beta1 keeps unknown
// fields of its resources unless spec.preserveUnknownFields is false (the
// default is true), and needs no schema. apiextensions.k8s.io/v1 refuses
// preserveUnknownFields: true and needs a structural schema for every
// version. crdBefore rewrites the v1beta1 object into the equivalent one
// v1 accepts, still in v1beta1 (so that the conversion and its checks
// compare like with like):
//
//   - no schema (with unknown fields kept): each version gets
//     {type: object, x-kubernetes-preserve-unknown-fields: true}, which
//     accepts any content and keeps it, as v1beta1 did;
//   - a schema with unknown fields kept: every object of the schema (the
//     root, properties, items, additionalProperties; not the value
//     validations allOf, anyOf, oneOf, not) gets
//     x-kubernetes-preserve-unknown-fields: true, so that nothing is
//     pruned, as v1beta1 did, and validation stays as written;
//
// and spec.preserveUnknownFields becomes false. crdAfter then refuses
// schemas v1 would refuse (not structural).

// permissiveSchema accepts and keeps anything.
func permissiveSchema() map[string]any {
	return map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
}

// crdBefore returns the v1beta1 CustomResourceDefinition m rewritten as
// v1 needs it, and notes on what it rewrote.
func crdBefore(m map[string]any) (map[string]any, []string) {
	out := deepCopyMap(m)
	spec := mapOf(out["spec"])
	if spec == nil {
		return out, nil
	}
	var notes []string
	if note := approve(out, spec); note != "" {
		notes = append(notes, note)
	}
	keep, isBool := spec["preserveUnknownFields"].(bool)
	if _, set := spec["preserveUnknownFields"]; set && !isBool || isBool && !keep {
		return out, notes // pruning already (or not a boolean: the decoder says so)
	}
	roots, missing := crdSchemas(spec)
	nodes := 0
	for _, root := range roots {
		if _, typed := root["type"]; !typed {
			root["type"] = "object"
		}
		// The root's metadata is the API server's ObjectMeta: a v1 schema
		// may say nothing of it but its type (and name or generateName),
		// and unknown fields of it were never kept.
		props := mapOf(root["properties"])
		md, hasMD := props["metadata"]
		if hasMD {
			delete(props, "metadata")
		}
		nodes += preserveUnknown(root)
		if hasMD {
			props["metadata"] = md
		}
	}
	if nodes > 0 {
		notes = append(notes, fmt.Sprintf("spec.preserveUnknownFields was true (the v1beta1 default), which apiextensions.k8s.io/v1 refuses: set x-kubernetes-preserve-unknown-fields: true on %d %s of the schema instead, which keeps unknown fields as v1beta1 did", nodes, plural(nodes, "object", "objects")))
	}
	for _, fill := range missing {
		fill(permissiveSchema())
	}
	if len(missing) > 0 {
		notes = append(notes, "a version had no schema, which apiextensions.k8s.io/v1 needs: wrote {type: object, x-kubernetes-preserve-unknown-fields: true}, which accepts and keeps any content, as v1beta1 did")
	}
	spec["preserveUnknownFields"] = false
	return out, notes
}

// unapproved is the API approval a converted definition of a protected
// group gets: apiextensions.k8s.io/v1beta1 did not ask for one.
const unapproved = "unapproved, converted from apiextensions.k8s.io/v1beta1, which did not require an approval"

// approve gives a definition of a protected API group (k8s.io,
// kubernetes.io and their subdomains) without the approval annotation,
// which apiextensions.k8s.io/v1 requires, the "unapproved" one the API
// server accepts; it returns the note, "" when nothing changed.
func approve(crd, spec map[string]any) string {
	group, _ := spec["group"].(string)
	if !apihelpers.IsProtectedCommunityGroup(group) {
		return ""
	}
	md := mapOf(crd["metadata"])
	if md == nil {
		return ""
	}
	ann := mapOf(md["annotations"])
	if _, set := ann[apiextensionsv1.KubeAPIApprovedAnnotation]; set {
		return ""
	}
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann[apiextensionsv1.KubeAPIApprovedAnnotation] = unapproved
	return fmt.Sprintf("%s is a protected API group, whose definitions apiextensions.k8s.io/v1 refuses without the annotation %s: wrote %q (the API server accepts it and marks the definition not approved)", group, apiextensionsv1.KubeAPIApprovedAnnotation, unapproved)
}

// crdSchemas returns the schemas of a v1beta1 CRD spec, and setters of
// the schema of each version that has none.
func crdSchemas(spec map[string]any) (roots []map[string]any, missing []func(map[string]any)) {
	if s := mapOf(mapOf(spec["validation"])["openAPIV3Schema"]); s != nil {
		return []map[string]any{s}, nil
	}
	versions := asList(spec["versions"])
	if len(versions) == 0 {
		if _, ok := spec["version"].(string); ok {
			missing = append(missing, func(s map[string]any) { spec["validation"] = map[string]any{"openAPIV3Schema": s} })
		}
		return nil, missing
	}
	for _, v := range versions {
		vm := mapOf(v)
		if vm == nil {
			continue
		}
		if s := mapOf(mapOf(vm["schema"])["openAPIV3Schema"]); s != nil {
			roots = append(roots, s)
			continue
		}
		missing = append(missing, func(s map[string]any) { vm["schema"] = map[string]any{"openAPIV3Schema": s} })
	}
	return roots, missing
}

// preserveUnknown sets x-kubernetes-preserve-unknown-fields on node and
// the objects below it (and on nodes without a type, which accept
// anything), and returns how many nodes it set.
func preserveUnknown(node map[string]any) int {
	n := 0
	t, _ := node["type"].(string)
	_, hasAdditional := node["additionalProperties"]
	if (t == "object" || t == "" && node["x-kubernetes-int-or-string"] != true) && !hasAdditional && node["x-kubernetes-preserve-unknown-fields"] != true {
		node["x-kubernetes-preserve-unknown-fields"] = true
		n++
	}
	for _, p := range mapOf(node["properties"]) {
		if pm := mapOf(p); pm != nil {
			n += preserveUnknown(pm)
		}
	}
	if items := mapOf(node["items"]); items != nil {
		n += preserveUnknown(items)
	}
	for _, items := range asList(node["items"]) {
		if im := mapOf(items); im != nil {
			n += preserveUnknown(im)
		}
	}
	if ap := mapOf(node["additionalProperties"]); ap != nil {
		n += preserveUnknown(ap)
	}
	return n
}

// crdNormalize puts an internal CRD in one form whichever version it came
// from: per-version schemas, subresources, columns and selectable fields
// (v1 has no other place for them), and version set to the first one.
func crdNormalize(obj runtime.Object) {
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return
	}
	s := &crd.Spec
	if len(s.Versions) == 0 && s.Version != "" {
		s.Versions = []apiextensions.CustomResourceDefinitionVersion{{Name: s.Version, Served: true, Storage: true}}
	}
	for i := range s.Versions {
		v := &s.Versions[i]
		if v.Schema == nil && s.Validation != nil {
			v.Schema = s.Validation.DeepCopy()
		}
		if v.Subresources == nil && s.Subresources != nil {
			v.Subresources = s.Subresources.DeepCopy()
		}
		if v.AdditionalPrinterColumns == nil && s.AdditionalPrinterColumns != nil {
			v.AdditionalPrinterColumns = append([]apiextensions.CustomResourceColumnDefinition(nil), s.AdditionalPrinterColumns...)
		}
		if v.SelectableFields == nil && s.SelectableFields != nil {
			v.SelectableFields = append([]apiextensions.SelectableField(nil), s.SelectableFields...)
		}
	}
	s.Validation, s.Subresources, s.AdditionalPrinterColumns, s.SelectableFields = nil, nil, nil, nil
	if len(s.Versions) > 0 {
		s.Version = s.Versions[0].Name
	}
}

// crdAfter refuses a converted CRD whose versions v1 would refuse: each
// needs a structural schema.
func crdAfter(t *typed, out map[string]any) (*refusal, error) {
	obj, ref, err := t.decode(out, t.new)
	if ref != nil || err != nil {
		return ref, err
	}
	in, err := t.convert(obj, t.internal)
	if err != nil {
		return nil, err
	}
	crd := in.(*apiextensions.CustomResourceDefinition)
	crdNormalize(crd)
	for i, v := range crd.Spec.Versions {
		at := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return &refusal{field: at.String(), msg: "apiextensions.k8s.io/v1 needs a schema for every version: write spec.versions[*].schema.openAPIV3Schema (or set spec.preserveUnknownFields to true, or leave it out, to accept any content)"}, nil
		}
		st, err := structuralschema.NewStructural(v.Schema.OpenAPIV3Schema)
		var errs field.ErrorList
		if err != nil {
			errs = field.ErrorList{field.Invalid(at, "", err.Error())}
		} else {
			errs = structuralschema.ValidateStructural(at, st)
		}
		if len(errs) > 0 {
			return &refusal{field: errs[0].Field, msg: fmt.Sprintf("apiextensions.k8s.io/v1 needs a structural schema: %s: give every field a type, every array items, and keep types and structure out of allOf, anyOf, oneOf and not (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema); then use apiVersion apiextensions.k8s.io/v1 with the schema under spec.versions[*].schema", structuralErrors(errs))}, nil
		}
	}
	return nil, nil
}

// structuralErrors writes the first errors of errs.
func structuralErrors(errs field.ErrorList) string {
	var s []string
	for i, e := range errs {
		if i == 3 {
			s = append(s, fmt.Sprintf("and %d more", len(errs)-3))
			break
		}
		s = append(s, e.Error())
	}
	return strings.Join(s, "; ")
}
