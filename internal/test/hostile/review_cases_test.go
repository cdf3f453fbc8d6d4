package hostile_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The passwords of the old and new side of the diffs below: none of their
// forms may reach any output.
const oldPW, newPW = "old-hunter2-password", "new-hunter2-password"

// secretForms are the forms of the passwords a leak would show.
func secretForms() []string {
	var out []string
	for _, pw := range []string{oldPW, newPW} {
		sum := sha256.Sum256([]byte(pw))
		out = append(out, pw, base64.StdEncoding.EncodeToString([]byte(pw))[:16], hex.EncodeToString(sum[:]))
	}
	return out
}

// leakyPkg is a package whose Secret's password reaches other objects by
// every road: a whole map copied ({.stringData}), JSON and base64
// transforms, a chain of ConfigMaps, a template's digest of it, and the
// pods' dependencies hash.
func leakyPkg(t *testing.T, dir string) string {
	ref := func(kind, name, path, tr string) string {
		return "{getValueFrom: {kind: " + kind + ", name: " + name + ", path: '" + path + "'" + tr + "}}"
	}
	return pkg(t, dir, map[string]string{
		"secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: {{ .Params.PASSWORD | quote }}, user: app}\n",
		"copies.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: whole}\ndata: " + ref("Secret", "db", "{.stringData}", "") +
			"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: json}\ndata:\n  j: " + ref("Secret", "db", "{.stringData}", ", format-transformers: [ObjectToJson]") +
			"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: chain}\ndata:\n  b: " + ref("ConfigMap", "whole", "{.data.password}", ", format-transformers: [StringToBase64]") + "\n",
		"deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {checksum/password: {{ .Params.PASSWORD | sha256sum }}}
    spec:
      containers: [{name: web, image: "web:1"}]
      volumes: [{name: s, secret: {secretName: db}}]
`,
	}, map[string]string{"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: PASSWORD\n    default: x\n"})
}

// TestSecretsInReview: a value derived from a Secret stays hidden in
// every output of diff and graph, and in errors.
func TestSecretsInReview(t *testing.T) {
	diffCase := func(format string) hostileCase {
		return hostileCase{
			class: "secrets", succeed: true, forbid: secretForms(),
			reason: "diff -o " + format + " hides the password in every form and object it reached, and still reports the changes",
			setup: func(t *testing.T, dir string) []string {
				p := leakyPkg(t, dir)
				return []string{"diff", p, "--name", "inst", "-n", "ns", "--from-param", "PASSWORD=" + oldPW, "--to-param", "PASSWORD=" + newPW,
					"-o", format, "--graph", "--color", "always", "--exit-code=false"}
			},
			check: func(t *testing.T, _, stdout string) {
				for _, f := range []string{"stringData.password", "data.password", "data.j", "data.b", "checksum/password", "kudo.dev/dependencies-hash"} {
					if !strings.Contains(stdout, f) {
						t.Errorf("the change of %s is not reported:\n%s", f, head(stdout))
					}
				}
			},
		}
	}
	runCases(t, map[string]hostileCase{
		"DiffText":     diffCase("text"),
		"DiffMarkdown": diffCase("markdown"),
		"DiffJSON":     diffCase("json"),
		"DiffBookkeeping": {
			class: "secrets", succeed: true, forbid: secretForms(),
			reason: "--show-bookkeeping shows no digest of secret data either",
			setup: func(t *testing.T, dir string) []string {
				return []string{"diff", leakyPkg(t, dir), "--name", "inst", "--from-param", "PASSWORD=" + oldPW, "--to-param", "PASSWORD=" + newPW,
					"--show-bookkeeping", "--exit-code=false"}
			},
			check: func(t *testing.T, _, stdout string) {
				if strings.Contains(stdout, "sha256:") {
					t.Errorf("a digest over secret data is shown:\n%s", head(stdout))
				}
			},
		},
		"ErrorQuotesCopy": {
			class: "secrets", forbid: []string{oldPW},
			reason: "the API server's refusal of a label copied out of a Secret does not quote it",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: \"" + oldPW + "!\"}\n---\n" +
					"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {x: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}'}}}\n"}, nil)
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `ConfigMap default/c: metadata.labels: Invalid value: "\(secret value hidden\)"`,
		},
		"ErrorQuotesTransform": {
			class: "secrets", forbid: []string{oldPW, oldPW[:12]},
			reason: "a transformer failing on a Secret's value does not quote it",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: " + oldPW + "}\n---\n" +
					"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  n: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}', format-transformers: [StringToInt]}}\n"}, nil)
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `StringToInt: "\(secret value hidden\)" is not an integer`,
		},
		"GraphName": {
			class: "secrets", succeed: true, forbid: []string{"hunter2-secret-name"},
			reason: "graph draws an object whose name was copied out of a Secret with the name hidden",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {n: hunter2-secret-name}\n---\n" +
					"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.n}'}}\n"}, nil)
				return []string{"graph", p, "--name", "inst"}
			},
			check: func(t *testing.T, _, stdout string) {
				if !strings.Contains(stdout, "ConfigMap<br/>(secret value hidden)") {
					t.Errorf("the object is not drawn:\n%s", stdout)
				}
			},
		},
	})
}

// evil holds, in YAML's double-quoted escapes, what a name or a value
// can do to a terminal or a markdown comment: carriage returns ending the
// HTML block or the fence, a heading, an OSC 8 link, a bidirectional
// override, a Mermaid directive and backticks.
const evil = `x\r\r### Approved\r\e]8;;https://evil.example\e\\click\e]8;;\e\\ \u202eevil %%{init: {\"securityLevel\": \"loose\"}}%% ` + "````"

// widgetPkg renders a Widget (a kind kudo-render cannot validate, so any
// name goes) whose name and data hold evil.
func widgetPkg(t *testing.T, dir string) string {
	return pkg(t, dir, map[string]string{"w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: \"w" + evil + "\"}\ndata: {v: \"{{ .Params.X }}" + evil + "\"}\n"}, nil)
}

// TestReviewIntegrity: a reviewer sees every change and nothing else.
func TestReviewIntegrity(t *testing.T) {
	raw := []string{"\r", "\x1b", "\u202e"}
	runCases(t, map[string]hostileCase{
		"ControlCharsText": {
			class: "review integrity", succeed: true, forbid: raw,
			reason: "diff writes names and values with control characters as escapes on a terminal",
			setup: func(t *testing.T, dir string) []string {
				return []string{"diff", widgetPkg(t, dir), "--name", "inst", "--from-param", "X=1", "--to-param", "X=2", "--color", "never", "--exit-code=false"}
			},
			check: func(t *testing.T, _, stdout string) {
				if !strings.Contains(stdout, `\r### Approved\r\x1b]8;;https://evil.example`) {
					t.Errorf("the escapes are not shown:\n%s", stdout)
				}
			},
		},
		"ControlCharsMarkdown": {
			class: "review integrity", succeed: true, forbid: raw,
			reason: "the pull-request comment and its graph hold no carriage return, heading, link or directive from a package",
			setup: func(t *testing.T, dir string) []string {
				return []string{"diff", widgetPkg(t, dir), "--name", "inst", "--from-param", "X=1", "--to-param", "X=2", "-o", "markdown", "--graph", "--exit-code=false"}
			},
			check: func(t *testing.T, _, stdout string) {
				for _, l := range strings.Split(stdout, "\n") {
					if strings.HasPrefix(l, "#") && l != "### kudo-render diff" {
						t.Errorf("a heading was injected: %q", l)
					}
				}
				_, graph, ok := strings.Cut(stdout, "```mermaid\n")
				graph, _, closed := strings.Cut(graph, "```\n")
				if !ok || !closed || strings.Contains(graph, "%%{") || strings.Contains(graph, "`") {
					t.Errorf("the graph holds a directive or a backtick, or its fence is broken:\n%s", graph)
				}
			},
		},
		"TemplateHook": {
			class: "review integrity", succeed: true,
			reason: "a template that turns an object into a one-shot Argo CD hook is a change and a move, not bookkeeping",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n" +
					"  {{ if eq .Params.X \"2\" }}annotations: {argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/hook-delete-policy: HookSucceeded}{{ end }}\n"}, nil)
				return []string{"diff", p, "--name", "inst", "--from-param", "X=1", "--to-param", "X=2", "--exit-code=false"}
			},
			check: func(t *testing.T, _, stdout string) {
				for _, want := range []string{"moved: now a hook", `argocd.argoproj.io/hook"]: PreSync`, "0 to add, 1 to change"} {
					if !strings.Contains(stdout, want) {
						t.Errorf("missing %q:\n%s", want, stdout)
					}
				}
			},
		},
		"GraphIDCollision": {
			class: "review integrity", succeed: true,
			reason: "two objects whose names were found offline to share a 24-bit graph id are both drawn",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x-y-y.y.y.y.y-y.y-y.y.y.y.y.y.y.y}\n---\n" +
					"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x-y.y-y.y.y.y.y.y.y.y-y.y.y.y.y.y}\n"}, nil)
				return []string{"graph", p, "--name", "inst", "-n", "ns"}
			},
			check: func(t *testing.T, _, stdout string) {
				ids := map[string]bool{}
				for _, l := range strings.Split(stdout, "\n") {
					if l = strings.TrimSpace(l); strings.HasPrefix(l, "o__ConfigMap") {
						ids[strings.SplitN(l, "[", 2)[0]] = true
					}
				}
				if len(ids) != 2 {
					t.Errorf("want two nodes, got %v:\n%s", ids, stdout)
				}
			},
		},
		"FluxStepCollision": {
			class: "review integrity", succeed: true,
			reason: "two steps found offline to share the old 32-bit Flux hash keep two Kustomizations, one per wave",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"a.yaml": cm, "b.yaml": strings.Replace(cm, "-cm", "-cm2", 1)}, map[string]string{"operator.yaml": twoSteps(
					"s_x_x.x.x.x.x_x.x_x_x_x_x_x.x.x_x_x_x", "s.x.x.x_x.x_x_x.x_x_x.x_x.x_x_x_x.x_x")})
				return []string{"render", p, "--name", "kafka", "--target", "flux", "--output-dir", "{out}"}
			},
			check: func(t *testing.T, dir, _ string) {
				var steps []string
				for _, n := range fluxNames(t, filepath.Join(dir, "out")) {
					if !strings.HasPrefix(n, "kafka-common-") { // the namespace's
						steps = append(steps, n)
					}
				}
				if len(steps) != 2 {
					t.Errorf("want two Kustomizations of steps, got %v", steps)
				}
			},
		},
		"FluxNamespaces": {
			class: "review integrity", succeed: true,
			reason: "one instance name in two namespaces gets other Flux names (they share flux-system)",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				return []string{"render", p, "--name", "kafka", "-n", "team-a", "--target", "flux", "--output-dir", "{out}"}
			},
			check: func(t *testing.T, dir, _ string) {
				other := filepath.Join(dir, "other")
				r := runCase(t, dir, "", []string{"render", filepath.Join(dir, "pkg"), "--name", "kafka", "-n", "team-b", "--target", "flux", "--output-dir", other}, nil, nil)
				if r.code != 0 {
					t.Fatalf("second render: exit %d: %s", r.code, r.stderr)
				}
				a, b := fluxNames(t, filepath.Join(dir, "out")), fluxNames(t, other)
				for _, n := range a {
					if strings.Contains(strings.Join(b, " "), n) {
						t.Errorf("both namespaces get the Kustomization %s", n)
					}
				}
			},
		},
	})
}

// twoSteps is an operator.yaml applying a.yaml and b.yaml in two steps
// of the given names.
func twoSteps(a, b string) string {
	return `apiVersion: kudo.dev/v1beta1
name: hostile
operatorVersion: 0.1.0
tasks:
  - {name: a, kind: Apply, spec: {resources: [a.yaml]}}
  - {name: b, kind: Apply, spec: {resources: [b.yaml]}}
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - {name: "` + a + `", tasks: [a]}
          - {name: "` + b + `", tasks: [b]}
`
}

// fluxNames are the Kustomizations of a Flux layout.
func fluxNames(t *testing.T, out string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, "flux", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" {
			names = append(names, strings.TrimSuffix(b, ".yaml"))
		}
	}
	sort.Strings(names)
	return names
}
