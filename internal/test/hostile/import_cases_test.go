package hostile_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// kudoExport is what `kubectl get instances,operatorversions,operators -A
// -o yaml` prints for one instance "app" in namespace ns of the
// OperatorVersion ov (operator op, version ver) with one template, an
// integer, a boolean and a map parameter; edit changes the text before it
// is written (as an attacker who writes the export would).
func kudoExport(edit func(string) string) string {
	export := `apiVersion: v1
kind: List
items:
  - apiVersion: kudo.dev/v1beta1
    kind: OperatorVersion
    metadata: {name: OVNAME, namespace: NS}
    spec:
      operator: {kind: Operator, name: OPNAME}
      version: VERSION
      parameters:
        - {name: REPLICAS, value-type: integer, default: "1"}
        - {name: DEBUG, value-type: boolean, default: "false"}
        - {name: LABELS, value-type: map, default: "{}"}
      tasks:
        - {name: app, kind: Apply, spec: {resources: [TEMPLATE]}}
      plans:
        deploy:
          strategy: serial
          phases:
            - {name: main, strategy: serial, steps: [{name: app, tasks: [app]}]}
      templates:
        TEMPLATE: |
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: cm}
  - apiVersion: kudo.dev/v1beta1
    kind: Instance
    metadata: {name: app, namespace: NS, labels: {kudo.dev/operator: OPNAME}}
    spec:
      operatorVersion: {name: OVNAME}
      parameters: {REPLICAS: "3", DEBUG: "true", LABELS: "team: a"}
    status: {planStatus: {deploy: {status: COMPLETE}}}
`
	def := strings.NewReplacer("OVNAME", `"app-0.1.0"`, "NS", "ns", "OPNAME", "app", "VERSION", `"0.1.0"`, "TEMPLATE", "cm.yaml")
	if edit != nil {
		export = edit(export)
	}
	return def.Replace(export)
}

// importCase imports the export kudoExport(edit) writes into {out}.
func importCase(reason, stderr string, edit func(string) string, forbid ...string) hostileCase {
	return hostileCase{
		class: "import", reason: reason, stderr: stderr, within: 10 * time.Second, forbid: forbid,
		setup: func(t *testing.T, dir string) []string {
			write(t, dir, map[string]string{"kudo-export.yaml": kudoExport(edit)})
			return []string{"import", "--from", filepath.Join(dir, "kudo-export.yaml"), "--output-dir", "{out}"}
		},
	}
}

// set replaces one placeholder of kudoExport with a YAML double-quoted
// text (the way kubectl writes a name holding control characters).
func set(placeholder, value string) func(string) string {
	return func(s string) string { return strings.ReplaceAll(s, placeholder, strconv.Quote(value)) }
}

// TestImportRewrites: an export is written by whoever controls the
// cluster, and import writes its names into folders, file names, comments
// and the config render obeys. A name that would rewrite that config (a
// line break ending the "# Imported from" comment, followed by a
// FrameworkRender of the attacker's), make a folder .git or hold an escape
// sequence, and a value of the wrong type for its parameter, are each
// refused naming the object and the field: exit 1, nothing written,
// nothing on stdout, no raw control character on stderr.
func TestImportRewrites(t *testing.T) {
	injected := "app-0.1.0\napiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: app, namespace: ns}\nspec: {framework: {path: /etc}}\n---\n#"
	runCases(t, map[string]hostileCase{
		"CommentInjection": importCase("line breaks in the OperatorVersion's name end the header comment and put a FrameworkRender before the real one",
			`Instance ns/app: spec.operatorVersion.name: "app-0.1.0\\napiVersion: kudorender.dev/v1alpha1\\nkind: FrameworkRender.*is invalid: a lowercase RFC 1123 subdomain`,
			set("OVNAME", injected), "\nkind: FrameworkRender"),
		"GitFolder": importCase("an operator named .git makes the rebuilt package's folder operators/.git",
			`OperatorVersion ns/app-0.1.0: spec.operator.name: "\.git" is invalid`,
			set("OPNAME", ".git")),
		"GitHooks": importCase("a template named .git/hooks/post-checkout is written below the package's templates/.git",
			`OperatorVersion ns/app-0.1.0: spec.templates\["\.git/hooks/post-checkout"\]: "\.git" is invalid`,
			set("TEMPLATE", ".git/hooks/post-checkout")),
		"EscapeInVersion": importCase("a version holding an OSC 8 escape sequence becomes a folder name and reaches the terminal",
			`OperatorVersion ns/app-0.1.0: spec.version: "0\.1\.0\\x1b\]8;;https://evil\\a" is invalid`,
			set("VERSION", "0.1.0\x1b]8;;https://evil\a"), "\x1b"),
		"NewlineInTemplate": importCase("a template name with a line break becomes a file name",
			`spec.templates\["cm\\nx\.yaml"\]: "cm\\nx\.yaml" is invalid`,
			set("TEMPLATE", "cm\nx.yaml")),
		"IntegerABC": importCase("an integer parameter given abc is written and only refused by the render",
			`Instance ns/app: spec.parameters.REPLICAS: "abc" is not an integer \(a render would refuse it\)`,
			func(s string) string { return strings.Replace(s, `REPLICAS: "3"`, `REPLICAS: "abc"`, 1) }),
		"BooleanMaybe": importCase("a boolean parameter given maybe",
			`Instance ns/app: spec.parameters.DEBUG: "maybe" is not a boolean`,
			func(s string) string { return strings.Replace(s, `DEBUG: "true"`, `DEBUG: "maybe"`, 1) }),
		"MapGivenList": importCase("a map parameter given a list",
			`Instance ns/app: spec.parameters.LABELS: "\[a, b\]" is not a map`,
			func(s string) string { return strings.Replace(s, `LABELS: "team: a"`, `LABELS: "[a, b]"`, 1) }),
	})
}
