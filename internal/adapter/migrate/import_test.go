package migrate_test

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// shopExport is a KUDO install of testdata/operators/shop in namespace
// web with non-default parameters of every type, and the cache instance
// its KudoOperator task made, as one YAML stream of two Lists.
func shopExport(t testing.TB) []byte {
	shop := kudotest.Export(t, "testdata/operators/shop", "web", kudotest.Instance{Name: "shop", Params: map[string]string{
		"REPLICAS": "3", "DEBUG": "true", "IMAGE": "shop:5.1.0", "RATIO": "0.75", "TIER": "silver",
		"HOSTS": "- a.example.com\n- b.example.com\n", "LABELS": "team: shop\n", "PASSWORD": "s3cret",
	}})
	cache := kudotest.Export(t, "testdata/operators/cache/1.2.0", "web", kudotest.Instance{Name: "shop-cache", Params: map[string]string{"SIZE": "128Mi"}, Parent: "shop"})
	return slices.Concat(shop, []byte("---\n"), cache)
}

func importBytes(t testing.TB, data []byte, opts migrate.Options) (*migrate.Result, error) {
	var exp migrate.Export
	if err := migrate.Parse("export.yaml", data, &exp); err != nil {
		return nil, err
	}
	return migrate.Import(&exp, opts)
}

// TestImportGolden compares the tree Import lays out with
// testdata/golden/<case>/ (go test -update rewrites it).
func TestImportGolden(t *testing.T) {
	out, err := filepath.Abs("testdata/out")
	if err != nil {
		t.Fatal(err)
	}
	ops, _ := filepath.Abs("testdata/operators")
	cases := []struct {
		name, reason string
		opts         migrate.Options
	}{
		{"argocd", "packages rebuilt from the OperatorVersions, an Application per top-level instance, the dependency in its parent", migrate.Options{}},
		{"flux", "a Flux Kustomization instead, and spec.target flux", migrate.Options{Target: migrate.TargetFlux}},
		{"operators", "packages found in --operators are referenced, not rebuilt", migrate.Options{Operators: ops}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.OutDir = out
			c.opts.RepoURL, c.opts.Revision = "https://git.example.com/gitops.git", "main"
			res, err := importBytes(t, shopExport(t), c.opts)
			if err != nil {
				t.Fatalf("%s: %v", c.reason, err)
			}
			checkTree(t, filepath.Join("testdata/golden", c.name), res.Files)
			again, _ := importBytes(t, shopExport(t), c.opts)
			if !maps.EqualFunc(res.Files, again.Files, bytes.Equal) {
				t.Errorf("%s: a second import differs", c.reason)
			}
		})
	}
}

// checkTree compares files with the tree of dir (below testdata).
func checkTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if golden.FlagUpdate() {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	rel, _ := filepath.Rel("testdata", dir)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		golden.Assert(t, string(files[p]), filepath.Join(rel, filepath.FromSlash(p)))
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s is no longer written (go test -update removes it)", p)
		}
		return nil
	})
}

// TestImportErrors: bad input fails with a message naming the object and
// the field, and returns no file.
func TestImportErrors(t *testing.T) {
	ok := string(shopExport(t))
	ops, _ := filepath.Abs("testdata/operators")
	cases := []struct {
		reason, input string
		opts          migrate.Options
		want          string
	}{
		{"an Instance whose OperatorVersion is missing", strings.Replace(ok, "name: shop-5.1.0-0.2.0\n", "name: shop-5.1.0-0.1.0\n", 1), migrate.Options{},
			"Instance web/shop: spec.operatorVersion.name: the OperatorVersion web/shop-5.1.0-0.2.0 is not in the exported files"},
		{"a package version not in --operators", strings.ReplaceAll(ok, "version: 1.2.0", "version: 1.3.0"), migrate.Options{Operators: ops},
			"package cache version 1.3.0 is not in --operators"},
		{"a parameter the package does not define", strings.Replace(ok, "DEBUG: \"true\"", "DEBUGG: \"true\"", 1), migrate.Options{},
			"Instance web/shop: spec.parameters.DEBUGG: is not defined by the package shop 0.2.0; did you mean DEBUG?"},
		{"an array parameter that is not YAML", strings.Replace(ok, "HOSTS: |\n", "HOSTS: |\n          [\n", 1), migrate.Options{},
			`Instance web/shop: spec.parameters.HOSTS: "[\n- a.example.com\n- b.example.com\n" is not an array: line 2: did not find expected node content (a render would refuse it)`},
		{"a parameter value that is not text", strings.Replace(ok, "REPLICAS: \"3\"", "REPLICAS: 3", 1), migrate.Options{},
			"Instance web/shop: spec.parameters.REPLICAS: want a string, got a number (3)"},
		{"a template that leaves templates/", strings.Replace(ok, "config.yaml: |", "../../../x.yaml: |", 1), migrate.Options{},
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.templates["../../../x.yaml"]: ".." is invalid: must not be '..'`},
		{"an operator name that is a path", strings.Replace(ok, "operator:\n        kind: Operator\n        name: shop\n", "operator:\n        kind: Operator\n        name: ../../etc\n", 1), migrate.Options{},
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.operator.name: "../../etc" is invalid: a lowercase RFC 1123 subdomain`},
		{"an instance name that is not a DNS name", strings.Replace(ok, "name: shop\n      namespace: web\n      resourceVersion: \"2000\"", "name: Shop_1\n      namespace: web\n      resourceVersion: \"2000\"", 1), migrate.Options{},
			`Instance web/Shop_1: metadata.name:`},
		{"spec.parameters that is a list", strings.Replace(ok, "parameters:\n        DEBUG: \"true\"", "parameters: [DEBUG]\n      other:\n        DEBUG: \"true\"", 1), migrate.Options{},
			"Instance web/shop: spec.parameters: want a map of strings, got a list"},
		{"an object given twice", ok + "---\n" + ok, migrate.Options{}, "is given twice"},
		{"no Instance", "apiVersion: v1\nkind: List\nitems: []\n", migrate.Options{}, "no kudo.dev/v1beta1 Instance to import"},
		{"no Instance in the namespace", ok, migrate.Options{Namespace: "db"}, "no kudo.dev/v1beta1 Instance to import in namespace db"},
		{"not YAML", "items: [", migrate.Options{}, "export.yaml: document 1:"},
		{"a document that is not an object", "- a\n", migrate.Options{}, "export.yaml: document 1: not an object"},
		{"a namespace whose folder collides with a rebuilt package", strings.ReplaceAll(strings.ReplaceAll(ok, "namespace: web", "namespace: operators"), "version: 0.2.0", "version: kudo-render.yaml"), migrate.Options{},
			"operators/shop/kudo-render.yaml would be both a file and the folder of operators/shop/kudo-render.yaml/operator.yaml"},
		{"two Flux Kustomizations of one name", ok + "---\n" + strings.ReplaceAll(ok, "namespace: web", "namespace: shop2"), migrate.Options{Target: migrate.TargetFlux},
			"Instance web/shop: its flux would be named shop, as that of Instance shop2/shop"},
		{"an unknown target", ok, migrate.Options{Target: "helm"}, `--target "helm": want argocd or flux`},
	}
	for _, c := range cases {
		res, err := importBytes(t, []byte(c.input), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one containing %q", c.reason, err, c.want)
		}
		if res != nil {
			t.Errorf("%s: files returned with an error", c.reason)
		}
	}
}

// FuzzImport: no input makes Parse or Import panic; every path Import
// returns is made of safe segments (letters, digits, '-', '_' and '.';
// never "..", ".git" or a control character), and every FrameworkRender
// it writes reads back as one document naming its instance, whatever
// names the export gave (no name ends a comment).
func FuzzImport(f *testing.F) {
	f.Add(shopExport(f))
	f.Add([]byte("apiVersion: kudo.dev/v1beta1\nkind: Instance\nmetadata: {name: a, namespace: b}\nspec: {operatorVersion: {name: x}}\n"))
	f.Add([]byte("apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nmetadata: {name: x, namespace: b}\nspec: {operator: {name: o}, version: '1', templates: {'../a': b}, parameters: [{name: P, value-type: array, default: '['}]}\n"))
	f.Add([]byte("kind: List\nitems: [1, {kind: Instance, apiVersion: kudo.dev/v1beta1, metadata: {ownerReferences: [3]}}]\n"))
	f.Add([]byte("kind: List\nitems:\n- {apiVersion: kudo.dev/v1beta1, kind: Instance, metadata: {name: a, namespace: b}, spec: {operatorVersion: {name: \"x\\n---\\nkind: FrameworkRender\"}}}\n" +
		"- {apiVersion: kudo.dev/v1beta1, kind: OperatorVersion, metadata: {name: \"x\\n---\\nkind: FrameworkRender\", namespace: b}, spec: {operator: {name: .git}, version: \"1\\e\", templates: {a.yaml: b}}}\n"))
	safe := regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
	f.Fuzz(func(t *testing.T, data []byte) {
		var exp migrate.Export
		if err := migrate.Parse("fuzz.yaml", data, &exp); err != nil {
			return
		}
		res, err := migrate.Import(&exp, migrate.Options{OutDir: "/out"})
		if err != nil {
			return
		}
		for p, data := range res.Files {
			for _, seg := range strings.Split(p, "/") {
				if !safe.MatchString(seg) || seg == "." || seg == ".." || strings.EqualFold(seg, ".git") {
					t.Fatalf("path %q holds the segment %q", p, seg)
				}
			}
			if path.Base(p) == migrate.ConfigFile {
				checkOneRender(t, p, data)
			}
		}
	})
}

// checkOneRender fails unless data is one FrameworkRender named after the
// folder of p (<namespace>/<instance>/kudo-render.yaml).
func checkOneRender(t *testing.T, p string, data []byte) {
	t.Helper()
	var docs []map[string]any
	for n, err := range strictyaml.Stream(p, data) {
		if err != nil {
			t.Fatalf("%s does not read back: %v", p, err)
		}
		var m map[string]any
		if err := n.Decode(&m); err != nil {
			t.Fatalf("%s does not read back: %v", p, err)
		}
		docs = append(docs, m)
	}
	md, _ := docs[0]["metadata"].(map[string]any)
	if len(docs) != 1 || docs[0]["kind"] != "FrameworkRender" || md["name"] != path.Base(path.Dir(p)) {
		t.Fatalf("%s holds %d documents, the first %v named %v:\n%s", p, len(docs), docs[0]["kind"], md["name"], data)
	}
}

// TestImportNotesChangedTemplates: a package in --operators whose
// templates differ from the OperatorVersion's is used, with a note.
func TestImportNotesChangedTemplates(t *testing.T) {
	ops, _ := filepath.Abs("testdata/operators")
	changed := strings.Replace(string(shopExport(t)), "- name: shop\n                    image:", "- name: shop-v2\n                    image:", 1)
	if changed == string(shopExport(t)) {
		t.Fatal("the export did not change")
	}
	res, err := importBytes(t, []byte(changed), migrate.Options{OutDir: "/gitops", Operators: ops})
	if err != nil {
		t.Fatal(err)
	}
	want := "OperatorVersion web/shop-5.1.0-0.2.0: the package " + filepath.Join(ops, "shop") + " holds other templates than the cluster's (deployment.yaml)"
	if len(res.Notes) == 0 || !strings.HasPrefix(res.Notes[0], want) {
		t.Errorf("notes %q, want one starting %q", res.Notes, want)
	}
}

// TestFluxParentReflectsSteps: the Kustomization the import writes to
// apply the render's flux/ folder decodes strictly with Flux's own API
// type and waits for the steps (wait: true, within its timeout), so it is
// Ready only when every step is (it reported Ready while its steps
// failed, issue 33); a failure is tried again within a minute.
func TestFluxParentReflectsSteps(t *testing.T) {
	res, err := importBytes(t, shopExport(t), migrate.Options{OutDir: t.TempDir(), Target: migrate.TargetFlux})
	assert.NilError(t, err)
	data, err := yaml.YAMLToJSON(res.Files["web/shop/flux-kustomization.yaml"])
	assert.NilError(t, err)
	var k kustomizev1.Kustomization
	strict, err := sigsjson.UnmarshalStrict(data, &k, sigsjson.DisallowUnknownFields, sigsjson.DisallowDuplicateFields)
	assert.NilError(t, err)
	assert.Check(t, len(strict) == 0, "%v", strict)
	assert.Check(t, k.Spec.Wait, "the parent does not wait for its steps")
	assert.Check(t, is.Equal(k.GetTimeout(), 15*time.Minute))
	assert.Check(t, is.Equal(k.GetRetryInterval(), time.Minute))
	assert.Check(t, is.Equal(k.Spec.Path, "./flux"))
}
