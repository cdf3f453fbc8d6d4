package validate_test

import (
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// crSweep widens TestCustomResourcesAgree: every pair of mutations of a
// seed, not only each one (several times the cases and the time).
var crSweep = flag.Bool("cr-sweep", false, "TestCustomResourcesAgree: mutate each seed twice over (a longer sweep)")

// definition is a CustomResourceDefinition and custom resources of it
// that the mutations start from.
type definition struct {
	name  string // where it comes from
	crd   map[string]any
	seeds []map[string]any
}

// crCase is one custom resource to compare verdicts on.
type crCase struct {
	def  *definition
	what string // the mutation, for the reproducer
	obj  map[string]any
}

// TestCustomResourcesAgree is the differential test of custom resources:
// from seed resources of definitions (the examples' definitions, and
// definitions of every feature the API extensions server checks: list
// types, CEL rules, embedded resources, int-or-string, formats, defaults,
// subresources, spark's SparkApplication's shapes), it generates
// mutations (unknown fields, nulls, values of the wrong type, bounds,
// enums, formats, CEL rule violations, list-key duplicates, names and
// labels, missing and defaulted fields, a status), and requires
// kudo-render's verdict on each to be the API server's (server-side apply,
// dry run, strict field validation). Every disagreement is a failure with
// the definition, the mutation and the resource. -cr-sweep pairs the
// mutations for a longer sweep.
func TestCustomResourcesAgree(t *testing.T) {
	srv := kubetest.Start(t)
	defs := append(handWrittenDefinitions(t), exampleDefinitions(t)...)
	var total, agreed, refused int
	for _, def := range defs {
		cases := mutate(def, *crSweep)
		n, r := agree(t, srv, def, cases)
		total += len(cases)
		agreed += n
		refused += r
	}
	t.Logf("%d definitions, %d custom resources (the server refuses %d): %d verdicts agree with the API server's", len(defs), total, refused, agreed)
}

// agree compares the verdicts on cases (of one definition) and returns
// how many agree, and how many the server refuses.
func agree(t *testing.T, srv *kubetest.Server, def *definition, cases []crCase) (agreed, refused int) {
	t.Helper()
	objs := []map[string]any{def.crd}
	for _, c := range cases {
		objs = append(objs, c.obj)
	}
	results, err := srv.Apply(context.Background(), objs)
	if err != nil {
		t.Fatal(err)
	}
	if !results[0].Accepted() {
		t.Fatalf("%s: the server refuses the definition: %v", def.name, results[0])
	}
	ours := ourVerdicts(def, cases)
	for i, c := range cases {
		theirs := results[i+1]
		if theirs.Skipped != "" {
			t.Fatalf("%s: %s", def.name, theirs)
		}
		if !theirs.Accepted() {
			refused++
		}
		if (ours[i] == "") == theirs.Accepted() {
			agreed++
			continue
		}
		body, _ := yaml.Marshal(c.obj)
		switch {
		case ours[i] != "":
			t.Errorf("%s, %s: kudo-render refuses what the API server accepts:\n%s\n%s", def.name, c.what, ours[i], body)
		default:
			t.Errorf("%s, %s: kudo-render accepts what the API server refuses:\n%v\n%s", def.name, c.what, theirs.Err, body)
		}
	}
	return agreed, refused
}

// ourVerdicts is kudo-render's verdict on each case: its problems, ""
// when it accepts it.
func ourVerdicts(def *definition, cases []crCase) []string {
	objs := []*object.Object{object.New(def.crd)}
	for _, c := range cases {
		objs = append(objs, object.New(c.obj))
	}
	v := validate.New(objs, validate.Options{})
	out := make([]string, len(cases))
	for i := range cases {
		var msgs []string
		for _, d := range v.Object(objs[i+1]) {
			msgs = append(msgs, d.Error())
		}
		out[i] = strings.Join(msgs, "; ")
	}
	return out
}

// exampleDefinitions are the CustomResourceDefinitions of the examples
// and of the corpus packages, as kudo-render writes them (converted to
// apiextensions.k8s.io/v1), each with a seed made from its schema.
// Templates that need rendering are left out.
func exampleDefinitions(t *testing.T) []*definition {
	t.Helper()
	files, _ := filepath.Glob("../../../examples/*/templates/*.yaml")
	corpus, _ := filepath.Glob("../../../../shared/corpus/kudo-operators/*/templates/*.yaml")
	var defs []*definition
	for _, f := range append(files, corpus...) {
		data, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(data), "kind: CustomResourceDefinition") || strings.Contains(string(data), "{{") {
			continue
		}
		for _, o := range objects(t, string(data)) {
			if o.Kind() != "CustomResourceDefinition" {
				continue
			}
			if _, err := versions.Convert(o, kubeversion.Default); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			def := &definition{name: f + ": " + o.Name(), crd: crJSONMap(t, o.Map)}
			def.seeds = []map[string]any{seedOf(def.crd)}
			defs = append(defs, def)
		}
	}
	if len(defs) == 0 {
		t.Fatal("no definition found in the examples")
	}
	return defs
}

// handWrittenDefinitions are the definitions of this file, with their
// seeds.
func handWrittenDefinitions(t *testing.T) []*definition {
	t.Helper()
	var defs []*definition
	for _, src := range []string{widgetCRD + "---\n" + widgetSeed, gadgetCRD, sparkLikeCRD} {
		objs := objects(t, src)
		def := &definition{name: objs[0].Name(), crd: crJSONMap(t, objs[0].Map)}
		for _, o := range objs[1:] {
			def.seeds = append(def.seeds, crJSONMap(t, o.Map))
		}
		if len(def.seeds) == 0 {
			def.seeds = []map[string]any{seedOf(def.crd)}
		}
		defs = append(defs, def)
	}
	return defs
}

// crJSONMap is m as JSON reads it back (the server's view of numbers).
func crJSONMap(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return normalizeNumbers(out).(map[string]any)
}

// normalizeNumbers makes the float64 of JSON integers int64.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = normalizeNumbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = normalizeNumbers(x)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}

// sortedMapKeys is the keys of m, sorted.
func sortedMapKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
