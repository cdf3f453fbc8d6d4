package validate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// TestDefinitionsAgree is the differential test of
// CustomResourceDefinitions themselves: each definition of
// TestCustomResourcesAgree, mutated (a field its type does not declare in
// every object of it, schema keywords of another type or out of their
// range, CEL rules that do not compile or cost more than the server
// allows, names), is applied by server-side apply as a dry run with
// strict field validation, and kudo-render must refuse it exactly when
// the server does. It takes every third mutation, at most 200 of a
// definition (a definition takes the server 20 ms, a large one much
// more); -cr-sweep takes all.
func TestDefinitionsAgree(t *testing.T) {
	srv := kubetest.Start(t)
	client, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	var total, agreed, refused int
	for _, def := range append(handWrittenDefinitions(t), exampleDefinitions(t)...) {
		muts := definitionMutations(def.crd)
		stride := max(3, len(muts)/200) // a large definition's mutations, evenly
		for i, m := range muts {
			if i%stride != 0 && !*crSweep {
				continue
			}
			total++
			c := crCase{what: m.what, obj: mutated(def.crd, m)}
			name := uniqueDefinition(c.obj, total)
			body, _ := json.Marshal(c.obj)
			_, theirs := client.Resource(crdResource).Patch(context.Background(), name, types.ApplyPatchType, body, metav1.PatchOptions{
				FieldManager: kubetest.FieldManager, Force: new(true), FieldValidation: metav1.FieldValidationStrict, DryRun: []string{metav1.DryRunAll},
			})
			if theirs != nil {
				refused++
			}
			ours := validate.Objects([]*object.Object{object.New(c.obj)}, validate.Options{})[0]
			if (len(ours) == 0) == (theirs == nil) {
				agreed++
				continue
			}
			text, _ := yaml.Marshal(c.obj)
			if theirs != nil {
				t.Errorf("%s, mutation %d, %s: kudo-render accepts what the API server refuses:\n%v\n%s", def.name, i, c.what, theirs, text)
			} else {
				t.Errorf("%s, mutation %d, %s: kudo-render refuses what the API server accepts:\n%v\n%s", def.name, i, c.what, ours, text)
			}
		}
	}
	t.Logf("%d definitions (the server refuses %d): %d verdicts agree with the API server's", total, refused, agreed)
}

// uniqueDefinition gives definition crd a group and a name of its own
// (case n) and returns the name.
func uniqueDefinition(crd map[string]any, n int) string {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group := fmt.Sprintf("c%d.crd.example.com", n)
	spec["group"] = group
	md, _ := crd["metadata"].(map[string]any)
	name := fmt.Sprintf("%v.%s", names["plural"], group)
	if md["name"] == "wrong.example.com" {
		return "wrong.example.com"
	}
	md["name"] = name
	return name
}

// definitionMutations are the mutations of a definition: none (the
// definition as written), an unknown field in each of its objects, and
// keywords of its schemas changed.
func definitionMutations(crd map[string]any) []mutation {
	out := []mutation{{what: "as written"}}
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		switch t := v.(type) {
		case map[string]any:
			out = append(out, mutation{what: fieldName(path) + ": an unknown field", path: append(clone(path), "zzUnknown"), value: int64(1)})
			for _, k := range sortedMapKeys(t) {
				walk(t[k], append(clone(path), k))
			}
			if _, isSchema := t["type"]; isSchema && len(path) > 3 {
				out = append(out, keywordMutations(t, path)...)
			}
		case []any:
			for i, x := range t {
				walk(x, append(clone(path), i))
			}
		}
	}
	walk(crd, nil)
	return append(out,
		mutation{what: "metadata.name not plural.group", path: []any{"metadata", "name"}, value: "wrong.example.com"},
		mutation{what: "a plural with capitals", path: []any{"spec", "names", "plural"}, value: "Widgets"},
		mutation{what: "a kind in lower case", path: []any{"spec", "names", "kind"}, value: "widget"},
		mutation{what: "scope unknown", path: []any{"spec", "scope"}, value: "Global"},
	)
}

// keywordMutations change the keywords of one schema node.
func keywordMutations(s map[string]any, path []any) []mutation {
	at := func(what, key string, v any) mutation {
		return mutation{what: fieldName(path) + ": " + what, path: append(clone(path), key), value: v}
	}
	out := []mutation{
		at("a type misspelt", "type", "strin"),
		at("a pattern that does not compile", "pattern", "("),
		at("maxLength negative", "maxLength", int64(-1)),
		at("a rule that does not compile", "x-kubernetes-validations", []any{map[string]any{"rule": "self.nope("}}),
		at("a rule with a message expression that does not compile", "x-kubernetes-validations", []any{map[string]any{"rule": "true", "messageExpression": "1 +"}}),
		at("a rule of a newline message", "x-kubernetes-validations", []any{map[string]any{"rule": "true", "message": "a\nb"}}),
		at("a transition rule", "x-kubernetes-validations", []any{map[string]any{"rule": "self == oldSelf"}}),
	}
	switch s["type"] {
	case "string":
		out = append(out, at("a default of another type", "default", int64(1)), at("an enum of another type", "enum", []any{int64(1)}), at("a format unknown", "format", "colour"))
	case "integer":
		out = append(out, at("a default of another type", "default", "x"), at("a default below its minimum", "minimum", int64(5)))
	case "array":
		out = append(out, at("a list type unknown", "x-kubernetes-list-type", "bag"), at("a rule over the server's cost budget", "x-kubernetes-validations",
			[]any{map[string]any{"rule": "self.all(x, self.all(y, self.all(z, string(x) + string(y) + string(z) != 'a')))"}}))
	case "object":
		out = append(out, at("a required property it does not have", "required", []any{"zzMissing"}), at("a map type unknown", "x-kubernetes-map-type", "loose"))
	}
	return out
}

// mutated is crd mutated by m (nothing for a mutation of no path).
func mutated(crd map[string]any, m mutation) map[string]any {
	obj := deepCopyJSON(crd).(map[string]any)
	if len(m.path) > 0 {
		m.apply(obj)
	}
	return obj
}
