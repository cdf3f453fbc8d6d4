package hostile_test

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// The secrets of the cases below: a port a Secret holds, and passwords.
const (
	secretPort = "99817"
	password   = "p@ss: w0rd#1"
	password2  = "hunter2-correct-horse"
)

// secretApp is a KUDO package (pkg) whose template t.yaml is given, with
// a PASSWORD parameter (default "x"), the config render.yaml of instance
// inst in ns (its PASSWORD as given), and kudo-render.yaml, the same for
// the Argo CD plugin.
func secretApp(t *testing.T, dir, template, pw string) {
	t.Helper()
	write(t, dir, pkgFiles(map[string]string{"t.yaml": template}, map[string]string{
		"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: PASSWORD\n    default: x\n",
	}))
	cfg := strings.Replace(renderConfig, "path: fw", "path: pkg", 1) + "  params:\n    PASSWORD: '" + strings.ReplaceAll(pw, "'", "''") + "'\n"
	write(t, dir, map[string]string{"render.yaml": cfg, "kudo-render.yaml": cfg})
}

// The templates of the cases: a port copied out of a Secret that
// validation refuses; a fail that quotes the password; the password on a
// line that is not YAML once rendered (as the corpus mysql writes it).
const (
	copiedPort = `apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {port: "` + secretPort + `"}
---
apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  ports:
    - port: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.port}', format-transformers: [StringToInt]}}
`
	failQuotes = "{{ fail (printf \"PASSWORD %s is too short\" .Params.PASSWORD) }}\n"
	yamlQuotes = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: db}\nspec:\n  template:\n    spec:\n      containers:\n        - name: db\n          env:\n            - name: MYSQL_ROOT_PASSWORD\n              value: {{ .Params.PASSWORD }}\n"
)

// TestSecretsInMessages (issue 35.4): a value known to be secret (a
// Secret's, one copied out of one, a secret parameter's) is hidden in
// every message, whichever stage raises it, on every entry point: render,
// the Argo CD plugin, diff, and the KRM function's results.
func TestSecretsInMessages(t *testing.T) {
	type variant struct {
		template, pw, stderr string
		forbid               []string
	}
	variants := map[string]variant{
		"CopiedPortRefused":         {copiedPort, "x", `spec\.ports\[0\]\.port: Invalid value: \(secret value hidden\): must be between 1 and 65535`, []string{secretPort}},
		"FailQuotesPassword":        {failQuotes, password2, `error calling fail: PASSWORD \(secret value hidden\) is too short`, []string{password2, "hunter2"}},
		"InvalidYAMLQuotesPassword": {yamlQuotes, password, `templates/t\.yaml:11: invalid YAML after rendering: mapping values are not allowed in this context \(rendered line 11: "\s+value: \(secret value hidden\)"\)`, []string{password, "w0rd"}},
	}
	cases := map[string]hostileCase{}
	for name, v := range variants {
		cases[name+"Render"] = hostileCase{
			class: "secrets", reason: name + ": render", stderr: v.stderr, forbid: v.forbid,
			setup: func(t *testing.T, dir string) []string {
				secretApp(t, dir, v.template, v.pw)
				return []string{"render", filepath.Join(dir, "render.yaml"), "--output-dir", "{out}"}
			},
		}
		cases[name+"Plugin"] = hostileCase{
			class: "secrets", reason: name + ": cmp generate, what Argo CD's UI shows", stderr: v.stderr, forbid: v.forbid,
			setup: func(t *testing.T, dir string) []string {
				secretApp(t, dir, v.template, v.pw)
				return []string{"cmp", "generate"}
			},
			env: []string{"ARGOCD_APP_NAME=inst", "ARGOCD_APP_NAMESPACE=ns"},
		}
		cases[name+"Diff"] = hostileCase{
			class: "secrets", reason: name + ": diff, either side", stderr: v.stderr, forbid: v.forbid, exit: 2,
			setup: func(t *testing.T, dir string) []string {
				secretApp(t, dir, v.template, v.pw)
				cfg := filepath.Join(dir, "render.yaml")
				return []string{"diff", cfg, cfg, "-o", "markdown"}
			},
		}
	}
	runCases(t, cases)
}

// TestSecretsInKRMResults: the KRM function's results and its stderr
// hide a secret parameter's value (the functionConfig it echoes is the
// caller's own input).
func TestSecretsInKRMResults(t *testing.T) {
	dir := t.TempDir()
	secretApp(t, dir, failQuotes, password2)
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n  kind: FrameworkRender\n" +
		"  metadata: {name: inst, namespace: ns}\n  spec:\n    framework: {path: pkg}\n    params: {PASSWORD: " + password2 + "}\n"
	r := runCase(t, dir, "", nil, nil, []byte(in))
	tc := hostileCase{class: "secrets", reason: "a template's fail in the KRM function's results"}
	checkBounds(t, tc, r)
	_, results, ok := strings.Cut(r.stdout, "\nresults:\n")
	if r.code != 1 || !ok || !strings.Contains(results, "PASSWORD (secret value hidden) is too short") {
		t.Fatalf("%s: exit %d, want 1 with a result:\n%s%s", tc.reason, r.code, head(r.stdout), head(r.stderr))
	}
	for name, text := range map[string]string{"results": results, "stderr": r.stderr} {
		if strings.Contains(text, "hunter2") {
			t.Errorf("%s: the %s hold the password:\n%s", tc.reason, name, head(text))
		}
	}
}

// TestSecretsInCorpusMySQL: the corpus mysql with a password that is not
// YAML once rendered (its template writes value: {{ .Params.PASSWORD }}):
// the error names the line without quoting the password.
func TestSecretsInCorpusMySQL(t *testing.T) {
	mysql := testcorpus.Operators(t)["mysql"]
	if mysql == "" {
		t.Skip("no mysql in the corpus")
	}
	runCases(t, map[string]hostileCase{
		"MySQLPassword": {
			class: "secrets", reason: "the corpus mysql's PASSWORD on a line that is not YAML once rendered",
			forbid: []string{password, "w0rd#1"},
			setup: func(t *testing.T, dir string) []string {
				return []string{"render", mysql, "--name", "inst", "-p", "PASSWORD=" + password, "--output-dir", "{out}"}
			},
			stderr: `templates/mysql\.yaml:50: invalid YAML after rendering: .*\(rendered line 50: "\s+value: \(secret value hidden\)"\)`,
		},
	})
}

// TestSecretsInAdoptReport: adopt check's report (text, markdown, JSON)
// hides a value the render copies out of a Secret into a ConfigMap that
// differs from the live one, as diff does (it was printed).
func TestSecretsInAdoptReport(t *testing.T) {
	kc := kudotest.Setup(t)
	const ns = "shop"
	dir := t.TempDir()
	write(t, dir, pkgFiles(map[string]string{
		"s.yaml":  "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: {{ .Params.PASSWORD | quote }}}\n",
		"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata:\n  pw: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}'}}\n",
	}, map[string]string{"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: PASSWORD\n    default: x\n"}))
	pkg := filepath.Join(dir, "pkg")
	export := kudotest.PackageObjects(t, pkg, ns)
	ov := export[1]["metadata"].(map[string]any)["name"].(string)
	export = append(export, kudotest.InstanceObject(0, kudotest.Instance{Name: "inst", Params: map[string]string{"PASSWORD": "old-password"}}, ns, "hostile", ov))
	labels := map[string]any{"kudo.dev/instance": "inst", "kudo.dev/operator": "hostile", "heritage": "kudo"}
	live := []map[string]any{
		{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "db", "labels": labels}, "data": map[string]any{"password": base64.StdEncoding.EncodeToString([]byte("old-password"))}},
		{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "app", "labels": labels}, "data": map[string]any{"pw": "old-password"}},
	}
	kc.Install(ns, export, live)
	defer kc.Cleanup(ns, live)
	write(t, dir, map[string]string{"render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: inst, namespace: " + ns + "}\n" +
		"spec:\n  framework: {path: pkg}\n  params: {PASSWORD: " + password2 + "}\n"})
	for _, format := range []string{"text", "markdown", "json"} {
		r := runCase(t, dir, "", []string{"adopt", "check", "render.yaml", "--kubeconfig", kc.Kubeconfig, "-o", format}, nil, nil)
		tc := hostileCase{class: "secrets", reason: "adopt check -o " + format + " of a value copied out of a Secret"}
		checkBounds(t, tc, r)
		field := map[string]string{"text": "data.pw", "markdown": "data.pw", "json": `"Key": "pw"`}[format]
		if r.code != 1 || !strings.Contains(r.stdout, field) || !strings.Contains(r.stdout, "(secret value hidden)") {
			t.Errorf("%s: exit %d, want 1 with the change of data.pw hidden:\n%s%s", tc.reason, r.code, head(r.stdout), head(r.stderr))
		}
		checkForbidden(t, hostileCase{reason: tc.reason, forbid: []string{password2, "hunter2", base64.StdEncoding.EncodeToString([]byte(password2))[:16]}}, r)
	}
}

// TestSecretsInPluginParameters: the Argo CD plugin's parameter panel
// says why a value is refused (its kudo-render-error entry, and stderr)
// without quoting a secret parameter's value; the panel still shows the
// Application's own value as the parameter's.
func TestSecretsInPluginParameters(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, pkgFiles(map[string]string{"cm.yaml": cm}, map[string]string{
		"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: API_TOKEN\n    type: integer\n    default: \"1\"\n",
	}))
	write(t, dir, map[string]string{"kudo-render.yaml": strings.Replace(renderConfig, "path: fw", "path: pkg", 1) + "  params: {API_TOKEN: " + password2 + "}\n"})
	r := runCase(t, dir, "", []string{"cmp", "parameters"}, []string{"ARGOCD_APP_NAME=inst", "ARGOCD_APP_NAMESPACE=ns"}, nil)
	tc := hostileCase{class: "secrets", reason: "cmp parameters with a refused secret value"}
	checkBounds(t, tc, r)
	var ann []struct{ Name, Tooltip, String string }
	if err := json.Unmarshal([]byte(r.stdout), &ann); err != nil || r.code != 0 || len(ann) != 2 || ann[0].Name != "kudo-render-error" {
		t.Fatalf("%s: exit %d, %v, want the problem and the parameter:\n%s%s", tc.reason, r.code, err, head(r.stdout), head(r.stderr))
	}
	for name, text := range map[string]string{"the problem's tooltip": ann[0].Tooltip, "the problem's value": ann[0].String, "stderr": r.stderr} {
		if strings.Contains(text, "hunter2") || !strings.Contains(text, "API_TOKEN") {
			t.Errorf("%s: %s: %q", tc.reason, name, text)
		}
	}
}
