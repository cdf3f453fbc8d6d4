package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// item is an engine item of the YAML object doc in wave w.
func item(t *testing.T, doc string, w int, hook bool) engine.Item {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return engine.Item{Obj: object.New(m), Wave: w, Hook: hook,
		First: engine.StepRef{Instance: "i", Plan: "deploy", Phase: "main", Step: fmt.Sprint("s", w)}}
}

const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  annotations:
    kudorender.dev/resource-version: sha256:aaa
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: app
        image: app:1
      - name: sidecar
        image: proxy:1
`

func edit(doc string, pairs ...string) string {
	return strings.NewReplacer(pairs...).Replace(doc)
}

// summary is a compact view of a report for table tests.
func summary(r *Report) []string {
	var out []string
	for _, o := range r.Objects {
		s := string(o.Status) + " " + o.Key.String()
		for _, m := range o.Moves {
			s += " | " + m.What + ":" + m.From + "->" + m.To
		}
		for _, f := range o.Fields {
			s += " | " + string(f.Op) + " " + f.Path.String()
			if f.Lines == nil {
				s += "=" + f.From + "->" + f.To
			}
		}
		if o.HiddenFields > 0 {
			s += fmt.Sprintf(" | hidden %d", o.HiddenFields)
		}
		out = append(out, s)
	}
	return out
}

func TestCompare(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: prod}\ndata: {a: \"1\"}\n"
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, namespace: prod}\n"
	cases := []struct {
		reason   string
		from, to func(t *testing.T) []engine.Item
		opts     Options
		want     []string
		changes  bool
	}{
		{
			reason:  "an object only in the new render is added, one only in the old is removed",
			from:    func(t *testing.T) []engine.Item { return []engine.Item{item(t, cm, 0, false)} },
			to:      func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			want:    []string{"added Deployment.apps prod/web", "removed ConfigMap prod/cfg"},
			changes: true,
		},
		{
			reason: "a changed field is reported with its path; list entries are found by name",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "replicas: 3", "replicas: 5", "proxy:1", "proxy:2"), 1, false)}
			},
			want:    []string{"changed Deployment.apps prod/web | changed spec.replicas=3->5 | changed spec.template.spec.containers[name=sidecar].image=proxy:1->proxy:2"},
			changes: true,
		},
		{
			reason: "an apiVersion bump is a field change of the same object, not a removal and an addition",
			from: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "apps/v1", "apps/v1beta2"), 1, false)}
			},
			to:      func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			want:    []string{"changed Deployment.apps prod/web | changed apiVersion=apps/v1beta2->apps/v1"},
			changes: true,
		},
		{
			reason:  "a move to an earlier wave and into a hook is a change of its own",
			from:    func(t *testing.T) []engine.Item { return []engine.Item{item(t, job, 2, false)} },
			to:      func(t *testing.T) []engine.Item { return []engine.Item{item(t, job, 0, true)} },
			want:    []string{"changed Job.batch prod/migrate | wave:2->0 | hook:false->true | step:i/deploy/main/s2->i/deploy/main/s0"},
			changes: true,
		},
		{
			reason: "an object changed only in bookkeeping annotations is not listed and not a change",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "sha256:aaa", "sha256:bbb"), 1, false)}
			},
		},
		{
			reason: "--show-bookkeeping shows them",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "sha256:aaa", "sha256:bbb"), 1, false)}
			},
			opts:    Options{ShowBookkeeping: true},
			want:    []string{`changed Deployment.apps prod/web | changed metadata.annotations["kudorender.dev/resource-version"]=sha256:aaa->sha256:bbb`},
			changes: true,
		},
		{
			reason: "an --ignore rule with a kind and a wildcard hides the field; the object is suppressed",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "app:1", "app:2"), 1, false)}
			},
			opts: Options{Ignore: []Rule{mustRule(t, "Deployment:spec.template.spec.containers[*].image")}},
			want: []string{"suppressed Deployment.apps prod/web | hidden 1"},
		},
		{
			reason: "an --ignore rule for another kind hides nothing",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "app:1", "app:2"), 1, false)}
			},
			opts:    Options{Ignore: []Rule{mustRule(t, "StatefulSet:spec")}},
			want:    []string{"changed Deployment.apps prod/web | changed spec.template.spec.containers[name=app].image=app:1->app:2"},
			changes: true,
		},
		{
			reason: "a map added whole is reported key by key",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, job, 0, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, job+"spec: {backoffLimit: 2, suspend: true}\n", 0, false)}
			},
			want:    []string{"changed Job.batch prod/migrate | added spec.backoffLimit=->2 | added spec.suspend=->true"},
			changes: true,
		},
		{
			reason: "a number that becomes a string shows the type change",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "replicas: 3", `replicas: "3"`), 1, false)}
			},
			want:    []string{`changed Deployment.apps prod/web | changed spec.replicas=3->"3"`},
			changes: true,
		},
		{
			reason: "a template's Argo CD hook annotations are not bookkeeping: the object becomes a one-shot hook, a change and a move",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "    kudorender.dev/resource-version: sha256:aaa\n",
					"    kudorender.dev/resource-version: sha256:bbb\n    argocd.argoproj.io/hook: PreSync\n    argocd.argoproj.io/hook-delete-policy: HookSucceeded\n"), 1, false)}
			},
			want: []string{`changed Deployment.apps prod/web | hook:false->true | added metadata.annotations["argocd.argoproj.io/hook"]=->PreSync | ` +
				`added metadata.annotations["argocd.argoproj.io/hook-delete-policy"]=->HookSucceeded | hidden 1`},
			changes: true,
		},
		{
			reason: "Helm's hook annotation, which Argo CD honours, makes a hook too",
			from:   func(t *testing.T) []engine.Item { return []engine.Item{item(t, deploy, 1, false)} },
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(deploy, "sha256:aaa", "sha256:aaa\n    helm.sh/hook: pre-install"), 1, false)}
			},
			want:    []string{`changed Deployment.apps prod/web | hook:false->true | added metadata.annotations["helm.sh/hook"]=->pre-install`},
			changes: true,
		},
		{
			reason: "kudo-render's own hook and wave annotations are bookkeeping (the moves report them); a template's sync wave or a kudorender.dev/ key it invented is not",
			from: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, edit(job, "name: migrate,", "annotations: {argocd.argoproj.io/sync-wave: \"2\"}, name: migrate,"), 2, false)}
			},
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{
					item(t, edit(job, "name: migrate,", "annotations: {argocd.argoproj.io/sync-wave: \"0\", argocd.argoproj.io/hook: Sync, argocd.argoproj.io/hook-delete-policy: HookSucceeded}, name: migrate,"), 0, true),
					item(t, edit(cm, "name: cfg,", "annotations: {argocd.argoproj.io/sync-wave: \"-5\", kudorender.dev/mine: x}, name: cfg,"), 0, false),
				}
			},
			want: []string{
				"changed Job.batch prod/migrate | wave:2->0 | hook:false->true | step:i/deploy/main/s2->i/deploy/main/s0 | hidden 3",
				`added ConfigMap prod/cfg`,
			},
			changes: true,
		},
		{
			reason: "identical renders report nothing",
			from: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, deploy, 1, false), item(t, cm, 0, false)}
			},
			to: func(t *testing.T) []engine.Item {
				return []engine.Item{item(t, deploy, 1, false), item(t, cm, 0, false)}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			r, err := Compare(tc.from(t), tc.to(t), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			assert.Check(t, is.DeepEqual(tc.want, summary(r)), "%s", tc.reason)
			if r.HasChanges() != tc.changes {
				t.Errorf("HasChanges() = %t, want %t", r.HasChanges(), tc.changes)
			}
		})
	}
}

func mustRule(t *testing.T, s string) Rule {
	t.Helper()
	r, err := ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLongStringLineByLine: a long multi-line string shows only the
// changed lines with a little context.
func TestLongStringLineByLine(t *testing.T) {
	var old []string
	for i := range 40 {
		old = append(old, fmt.Sprintf("line %d", i))
	}
	nw := append([]string{}, old...)
	nw[20] = "line twenty"
	doc := func(ls []string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  conf: |\n    " + strings.Join(ls, "\n    ") + "\n"
	}
	r, err := Compare([]engine.Item{item(t, doc(old), 0, false)}, []engine.Item{item(t, doc(nw), 0, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range r.Objects[0].Fields[0].Lines {
		got = append(got, l.String())
	}
	want := []string{"  …", "  line 18", "  line 19", "- line 20", "+ line twenty", "  line 21", "  line 22", "  …"}
	assert.Check(t, is.DeepEqual(want, got))
}

// TestLinesLongTexts: texts too long for Myers' algorithm are compared
// by their common first and last lines, the same every time.
func TestLinesLongTexts(t *testing.T) {
	a := strings.Repeat("x\n", maxMyersLines) + "old\n" + strings.Repeat("y\n", 10)
	b := strings.Repeat("x\n", maxMyersLines) + "new\n" + strings.Repeat("y\n", 10)
	var got []string
	for _, l := range lines(a, b, 1) {
		got = append(got, l.String())
	}
	want := []string{"  …", "  x", "- old", "+ new", "  y", "  …"}
	assert.Check(t, is.DeepEqual(want, got))
}

func TestParseRule(t *testing.T) {
	cases := []struct {
		in, want string
		kind     string
		err      bool
	}{
		{in: "spec.replicas", want: "spec.replicas"},
		{in: "Deployment:spec.template.spec.containers[*].image", kind: "Deployment", want: "spec.template.spec.containers[*].image"},
		{in: `metadata.annotations["example.com/build"]`, want: `metadata.annotations["example.com/build"]`},
		{in: "spec.containers[name=app].env[0]", want: "spec.containers[name=app].env[0]"},
		{in: `metadata.annotations["unterminated]`, err: true},
		{in: "spec[", err: true},
		{in: "", err: true},
		{in: "spec[bad]", err: true},
	}
	for _, tc := range cases {
		r, err := ParseRule(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ParseRule(%q) error = %v, want error %t", tc.in, err, tc.err)
			continue
		}
		if err == nil && (r.Path.String() != tc.want || r.Kind != tc.kind) {
			t.Errorf("ParseRule(%q) = %q %q, want %q %q", tc.in, r.Kind, r.Path, tc.kind, tc.want)
		}
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"spec.replicas", "Deployment:spec.x[*].y", `a["b.c"][3][name=x]`, "[", `["`, "a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			return
		}
		// What a rule prints reads back as the same rule.
		again, err := parsePath(r.Path.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, r.Path.String(), err)
		}
		if r.Path.String() != again.String() {
			t.Fatalf("%q: %q then %q", s, r.Path.String(), again.String())
		}
	})
}

// TestJSONIsValid: the JSON report decodes and carries field paths.
func TestJSONIsValid(t *testing.T) {
	r, err := Compare([]engine.Item{item(t, deploy, 1, false)}, []engine.Item{item(t, edit(deploy, "replicas: 3", "replicas: 5"), 1, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary Counts
		Objects []struct {
			Kind   string
			Fields []struct{ Path, From, To string }
		}
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Summary.Changed != 1 || got.Objects[0].Fields[0].Path != "spec.replicas" || got.Objects[0].Fields[0].To != "5" {
		t.Errorf("JSON report: %s", data)
	}
}

// TestSimpleAgreesWithDyff: the linear differ used for objects with very
// long lists reports what dyff reports where lists keep their length.
func TestSimpleAgreesWithDyff(t *testing.T) {
	pairs := [][2]string{
		{deploy, edit(deploy, "replicas: 3", "replicas: 5")},
		{deploy, edit(deploy, "replicas: 3", `replicas: "3"`)},
		{deploy, edit(deploy, "apps/v1", "apps/v1beta2")},
		{"apiVersion: v1\nkind: Job\nmetadata: {name: j}\n", "apiVersion: v1\nkind: Job\nmetadata: {name: j}\nspec: {backoffLimit: 2, suspend: true}\n"},
		{"apiVersion: v1\nkind: C\nmetadata: {name: c}\ndata: {a: x, b: y}\n", "apiVersion: v1\nkind: C\nmetadata: {name: c}\ndata: {a: x}\n"},
	}
	for _, p := range pairs {
		a, b := item(t, p[0], 0, false), item(t, p[1], 0, false)
		d, err := Dyff{}.Changes(a.Obj, b.Obj)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := Simple{}.Changes(a.Obj, b.Obj)
		assert.Check(t, is.DeepEqual(d, s), "%q → %q", p[0], p[1])
	}
}

// TestLongListsCompared: an object with a list longer than dyff handles
// in reasonable time is compared entry by entry.
func TestLongListsCompared(t *testing.T) {
	mk := func(changed int) engine.Item {
		var list []any
		for i := range 5 * maxDyffItems {
			v := fmt.Sprint("v", i)
			if i == changed {
				v = "changed"
			}
			list = append(list, v)
		}
		return engine.Item{Obj: object.New(map[string]any{"apiVersion": "v1", "kind": "X", "metadata": map[string]any{"name": "x"}, "spec": map[string]any{"hosts": list}})}
	}
	r, err := Compare([]engine.Item{mk(-1)}, []engine.Item{mk(2500)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.DeepEqual([]string{"changed X x | changed spec.hosts[2500]=v2500->changed"}, summary(r)))
}

// TestBodyKeepsTemplateAnnotations: an added object's body leaves out
// only what kudo-render wrote (its own wave), never a template's wave or
// a kudorender.dev/ key kudo-render does not write.
func TestBodyKeepsTemplateAnnotations(t *testing.T) {
	cm := func(name, wave string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations: {argocd.argoproj.io/sync-wave: \"" + wave + "\", kudorender.dev/mine: x}\n"
	}
	r, err := Compare(nil, []engine.Item{item(t, cm("own", "3"), 3, false), item(t, cm("template", "-5"), 3, false)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	own, tmpl := r.Objects[0].Body, r.Objects[1].Body
	if strings.Contains(own, "sync-wave") || !strings.Contains(tmpl, `argocd.argoproj.io/sync-wave: "-5"`) {
		t.Errorf("the wave kudo-render wrote must go, the template's stay:\n%s\n%s", own, tmpl)
	}
	if !strings.Contains(own, "kudorender.dev/mine") {
		t.Errorf("an annotation kudo-render does not write is hidden:\n%s", own)
	}
}
