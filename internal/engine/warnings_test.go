package engine_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
)

// warnPkg is a KUDO package whose render warns: a policy/v1beta1
// PodDisruptionBudget (converted), a Deployment field apps/v1 does not
// have (removed), a value copied out of a Secret into a ConfigMap, and,
// when typo is set, a field of params.yaml KUDO ignored. The ConfigMap
// "plain" writes kudo-render's warnings key itself.
func warnPkg(typo bool) fstest.MapFS {
	params := "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    default: \"1\"\n"
	if typo {
		params += "    descripton: a typo\n"
	}
	return fstest.MapFS{
		"operator.yaml": {Data: []byte(`apiVersion: kudo.dev/v1beta1
name: w
operatorVersion: "1.0.0"
tasks:
  - name: app
    kind: Apply
    spec:
      resources: [pdb.yaml, deploy.yaml, plain.yaml, copy.yaml]
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: app
            tasks: [app]
`)},
		"params.yaml": {Data: []byte(params)},
		"templates/pdb.yaml": {Data: []byte(`apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: {{ .Name }}-pdb}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: w}}
`)},
		"templates/deploy.yaml": {Data: []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Name }}}
spec:
  replica: {{ .Params.REPLICAS }}
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
      containers: [{name: w, image: nginx}]
`)},
		"templates/plain.yaml": {Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Name }}-plain
  annotations: {kudorender.dev/warnings: "forged"}
data: {a: b}
`)},
		"templates/copy.yaml": {Data: []byte(`apiVersion: v1
kind: Secret
metadata: {name: {{ .Name }}-db}
stringData: {password: hunter2-hunter2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Name }}-copy}
data:
  pw: {getValueFrom: {kind: Secret, name: {{ .Name }}-db, path: '{.stringData.password}'}}
`)},
	}
}

// TestWarningsOnObjects: each warning of a render is carried on the object
// it is about (kudorender.dev/warnings), a package's warning on every
// object of its instance, masked; an object without warnings carries
// none, whatever its template wrote (issue 33.3).
func TestWarningsOnObjects(t *testing.T) {
	b, err := bundle.Load(warnPkg(true), "w")
	assert.NilError(t, err)
	objs, err := engine.Render(engine.Request{Bundle: b, Instance: render.Instance{Name: "a", Namespace: "ns"}})
	assert.NilError(t, err)
	got := map[string]string{}
	for _, o := range objs {
		got[o.Kind()+"/"+o.Name()] = o.String("metadata", "annotations", engine.AnnWarnings)
	}
	typo := `params.yaml:5: parameters[0].descripton: unknown field "descripton"; did you mean "description"?` + diag.Tolerated + "\n"
	want := map[string]string{
		"PodDisruptionBudget/a-pdb": typo + "templates/pdb.yaml:1: converted policy/v1beta1 PodDisruptionBudget to policy/v1: policy/v1beta1 PodDisruptionBudget is removed in Kubernetes 1.25 (target 1.37)\n",
		"Deployment/a":              typo + "templates/deploy.yaml:5: spec.replica: removed: apps/v1 Deployment has no such field (the API server refuses it with strict field validation; KUDO dropped it)\n",
		"ConfigMap/a-plain":         typo,
		"Secret/a-db":               typo,
		"ConfigMap/a-copy":          typo + "templates/copy.yaml:10: data.pw: getValueFrom {kind: Secret, name: a-db, path: '{.stringData.password}'}: value copied out of Secret ns/a-db into a non-Secret object, where it is stored in clear text\n",
	}
	assert.DeepEqual(t, want, got)
	for _, o := range objs {
		assert.Check(t, !strings.Contains(o.String("metadata", "annotations", engine.AnnWarnings), "hunter2"), "a Secret's value in %s's warnings", o.Name())
	}

	b, err = bundle.Load(warnPkg(false), "w")
	assert.NilError(t, err)
	objs, err = engine.Render(engine.Request{Bundle: b, Instance: render.Instance{Name: "a", Namespace: "ns"}})
	assert.NilError(t, err)
	for _, o := range objs {
		_, has := o.MapAt("metadata", "annotations")[engine.AnnWarnings]
		assert.Check(t, has == (o.Kind() != "Secret" && o.Name() != "a-plain"), "%s %s: warnings %v", o.Kind(), o.Name(), has)
	}
}

// TestWarningsSaidOnce: the same warning of many instances is reported
// once, with a count, and each object still carries its own.
func TestWarningsSaidOnce(t *testing.T) {
	b, err := bundle.Load(warnPkg(true), "w")
	assert.NilError(t, err)
	var reqs []engine.Request
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		reqs = append(reqs, engine.Request{Bundle: b, Instance: render.Instance{Name: name, Namespace: "ns"}})
	}
	var warned []string
	var noted []*diag.Diagnostic
	items, err := engine.RenderWith(engine.Options{Warn: func(m string) { warned = append(warned, m) }}, reqs...)
	assert.NilError(t, err)
	_, err = engine.RenderWith(engine.Options{Note: func(d *diag.Diagnostic) { noted = append(noted, d) }}, reqs...)
	assert.NilError(t, err)
	want := []string{
		`params.yaml:5: parameters[0].descripton: unknown field "descripton"; did you mean "description"?` + diag.Tolerated,
		"templates/deploy.yaml:5: Deployment a: spec.replica: removed: apps/v1 Deployment has no such field (the API server refuses it with strict field validation; KUDO dropped it) (and 4 more objects: b, c, d, …)",
		"templates/pdb.yaml:1: PodDisruptionBudget ns/a-pdb: converted policy/v1beta1 PodDisruptionBudget to policy/v1: policy/v1beta1 PodDisruptionBudget is removed in Kubernetes 1.25 (target 1.37) (and 4 more objects: ns/b-pdb, ns/c-pdb, ns/d-pdb, …)",
		"templates/copy.yaml:10: ConfigMap ns/a-copy: data.pw: getValueFrom {kind: Secret, name: a-db, path: '{.stringData.password}'}: value copied out of Secret ns/a-db into a non-Secret object, where it is stored in clear text",
	}
	assert.Equal(t, len(warned), 3+5, "each copy names its own Secret: %v", warned)
	assert.DeepEqual(t, want, warned[:4])
	assert.Equal(t, len(noted), len(warned), "Note gets what Warn gets, as diagnostics")
	for i, d := range noted {
		assert.Check(t, is.Equal(warned[i], d.Error()))
	}
	n := 0
	for _, it := range engine.Objects(items) {
		if strings.Contains(it.String("metadata", "annotations", engine.AnnWarnings), "converted policy/v1beta1") {
			n++
		}
	}
	assert.Equal(t, n, 5, "each instance's PodDisruptionBudget carries its conversion")
}

// TestWarningsText: the annotation is bounded in lines and bytes, says
// how many warnings it leaves out, and holds one warning per line.
func TestWarningsText(t *testing.T) {
	cases := map[string]struct {
		reason string
		lines  []string
		check  func(t *testing.T, text string)
	}{
		"Few": {reason: "Few warnings are all written, each on its line.", lines: []string{"a", "b\nc"},
			check: func(t *testing.T, text string) { assert.Equal(t, text, "a\nb c\n") }},
		"ManyLines": {reason: "Past the most lines, the last line counts the rest.", lines: repeat("w", 50),
			check: func(t *testing.T, text string) {
				ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
				assert.Equal(t, len(ls), engine.WarningsMaxLines)
				assert.Equal(t, ls[len(ls)-1], "… and 31 more (see the render's warnings)")
			}},
		"ManyBytes": {reason: "Past the most bytes, the last line counts the rest.", lines: repeat(strings.Repeat("x", 900), 10),
			check: func(t *testing.T, text string) {
				assert.Check(t, len(text) <= engine.WarningsMaxBytes, "%d bytes", len(text))
				assert.Check(t, strings.HasSuffix(text, "… and 6 more (see the render's warnings)\n"), text[len(text)-60:])
			}},
		"LongLine": {reason: "One long warning is cut at a character.", lines: []string{strings.Repeat("é", 2000)},
			check: func(t *testing.T, text string) {
				assert.Check(t, len(text) <= engine.WarningsMaxLineBytes+1)
				assert.Check(t, strings.HasSuffix(text, "é…\n"))
			}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Log(tc.reason)
			tc.check(t, engine.WarningsText(tc.lines))
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
