package cmd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/internal/test/benchinput"
)

// reviewExamples are the examples graphed, with the flags they need.
func reviewExamples(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("../examples/*/render.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../examples/*/*/render.yaml")
	m := map[string][]string{"argocd": {"../examples/argocd/kudo-render.yaml", "--name", "shop", "--namespace", "prod"}}
	for _, f := range append(files, more...) {
		name := strings.ReplaceAll(strings.TrimPrefix(filepath.Dir(f), "../examples/"), "/", "-")
		m[name] = []string{f}
	}
	if len(m) < 9 {
		t.Fatalf("only %d examples found", len(m))
	}
	return m
}

// TestGraphGolden: every example's graph, as Mermaid and as DOT.
func TestGraphGolden(t *testing.T) {
	for name, args := range reviewExamples(t) {
		for _, format := range []string{"mermaid", "dot"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				out, _, err := run(append([]string{"graph", "-o", format}, args...)...)
				if err != nil {
					t.Fatal(err)
				}
				ext := map[string]string{"mermaid": ".mmd", "dot": ".dot"}[format]
				golden.Assert(t, out, filepath.Join("review/graph", name+ext))
				again, _, _ := run(append([]string{"graph", "-o", format}, args...)...)
				if again != out {
					t.Error("two runs differ")
				}
			})
		}
	}
}

// TestGraphDOTIsValid: Graphviz reads every DOT graph (skipped without
// the dot command: apt-get install graphviz).
func TestGraphDOTIsValid(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		if os.Getenv("CI") != "" || os.Getenv("KUDO_RENDER_REQUIRE_TOOLS") == "1" {
			t.Fatal("Graphviz is not installed (apt-get install graphviz); make test and .ci/run install it with .ci/tools.sh")
		}
		t.Skip("Graphviz is not installed (apt-get install graphviz); make test and .ci/run install it")
	}
	files, _ := filepath.Glob("testdata/review/graph/*.dot")
	for _, f := range files {
		c := exec.Command(dot, "-Tsvg", "-o", os.DevNull, f)
		if out, err := c.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("dot %s: %v %s", f, err, out)
		}
	}
}

// TestDiffGolden: the package upgrade of examples/review in each format.
func TestDiffGolden(t *testing.T) {
	for _, format := range []string{"text", "markdown", "json"} {
		t.Run(format, func(t *testing.T) {
			out, errs, err := run("diff", "../examples/review/v1/render.yaml", "../examples/review/v2/render.yaml", "-o", format)
			assertExit(t, err, 1)
			if errs != "" {
				t.Errorf("stderr: %s", errs)
			}
			golden.Assert(t, out, filepath.Join("review/diff", "upgrade."+format))
		})
	}
	// examples/day2: an update the API server refuses (exit 3), and a Job
	// Argo CD recreates
	for _, c := range []struct{ name, from, to, format string }{
		{"day2-disk.text", "DISK=1Gi", "DISK=2Gi", "text"},
		{"day2-disk.markdown", "DISK=1Gi", "DISK=2Gi", "markdown"},
		{"day2-nodes.text", "NODES=3", "NODES=4", "text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, err := run("diff", "../examples/day2/render.yaml", "--from-param", c.from, "--to-param", c.to, "-o", c.format)
			assertExit(t, err, map[bool]int{true: 3, false: 1}[strings.HasPrefix(c.name, "day2-disk")])
			if errs != "" {
				t.Errorf("stderr: %s", errs)
			}
			golden.Assert(t, out, filepath.Join("review/diff", c.name))
		})
	}
}

func assertExit(t *testing.T, err error, code int) {
	t.Helper()
	got := 0
	var ee *ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.Code
	case err != nil:
		got = 1
	}
	if got != code {
		t.Fatalf("exit status %d (%v), want %d", got, err, code)
	}
}

func TestDiff(t *testing.T) {
	v1, v2 := "../examples/review/v1/render.yaml", "../examples/review/v2/render.yaml"
	cases := []struct {
		reason  string
		args    []string
		code    int
		want    []string
		wantErr string
	}{
		{reason: "the same config twice: no change, exit 0", args: []string{v2, v2}, want: []string{"0 to add, 0 to change, 0 to remove"}},
		{reason: "two sets of parameters", args: []string{v2, "--from-param", "replicas=3", "--to-param", "replicas=5"}, code: 1,
			want: []string{"~ StatefulSet.apps shop/orders-db", "spec.replicas: 3 → 5", "0 to add, 1 to change, 0 to remove"}},
		{reason: "-p applies to both sides", args: []string{v2, "-p", "replicas=4", "--to-param", "replicas=5"}, code: 1, want: []string{"spec.replicas: 4 → 5"}},
		{reason: "--exit-code=false exits 0 on changes", args: []string{v1, v2, "--exit-code=false"}, want: []string{"1 to add, 4 to change, 1 to remove"}},
		{reason: "--ignore hides a field; the object changed only there is suppressed", args: []string{v2, "--from-param", "replicas=3", "--to-param", "replicas=5", "--ignore", "StatefulSet:spec.replicas"},
			want: []string{"changed only in ignored fields (--ignore): StatefulSet.apps shop/orders-db\n", "0 to add, 0 to change, 0 to remove (1 changed only in ignored fields)"}},
		{reason: "--show-bookkeeping shows kudo-render's annotations", args: []string{v1, v2, "--show-bookkeeping"}, code: 1, want: []string{`metadata.annotations["kudorender.dev/source"]: orders@1.0 → orders@2.0`}},
		{reason: "--show-secrets shows Secret values", args: []string{v1, v2, "--show-secrets"}, code: 1, want: []string{"stringData.password: s3cr3t-one → s3cr3t-two"}},
		{reason: "an Argo CD application folder (metadata: {}) with --name and --namespace", args: []string{"../examples/argocd/kudo-render.yaml", "../examples/argocd/kudo-render.yaml", "--name", "shop", "--namespace", "prod"},
			want: []string{"0 to add, 0 to change, 0 to remove"}},
		{reason: "--graph adds the new side's graph to the markdown", args: []string{v1, v2, "-o", "markdown", "--graph"}, code: 1,
			want: []string{"```mermaid\n%% kudo-render graph: 5 objects\nflowchart TB", "Job<br/>shop/orders-migrate"}},
		{reason: "an error on the old side", args: []string{v2, "--from-param", "nope=1", "--to-param", "replicas=5"}, code: 2, wantErr: "cannot render the old side"},
		{reason: "an error on the new side", args: []string{v2, "--from-param", "replicas=5", "--to-param", "nope=1"}, code: 2, wantErr: "cannot render the new side"},
		{reason: "nothing to compare with", args: []string{v2}, code: 2, wantErr: "nothing to compare"},
		{reason: "a bad --ignore", args: []string{v1, v2, "--ignore", "spec["}, code: 2, wantErr: "--ignore"},
		{reason: "a bad --output", args: []string{v1, v2, "-o", "yaml"}, code: 2, wantErr: "--output"},
		{reason: "an unknown flag", args: []string{v1, v2, "--nope"}, code: 2, wantErr: "unknown flag"},
		{reason: "--from-rev with two configs", args: []string{v1, v2, "--from-rev", "HEAD"}, code: 2, wantErr: "give one config"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			out, _, err := run(append([]string{"diff"}, tc.args...)...)
			assertExit(t, err, tc.code)
			if tc.code == 2 && out != "" {
				t.Errorf("stdout not empty on error: %q", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%q missing from\n%s", w, out)
				}
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("error %v, want %q", err, tc.wantErr)
			}
			if strings.Contains(out, "s3cr3t") && !strings.Contains(tc.reason, "show-secrets") {
				t.Errorf("a secret value is printed:\n%s", out)
			}
		})
	}
}

// TestDiffFromRev: --from-rev renders the config as it is at a revision
// of its repository and compares it with the working tree; it gives the
// same report as the two configs side by side.
func TestDiffFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	pkg := filepath.Join(repo, "deploy", "orders")
	copyTree(t, "../examples/review/v1", pkg)
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "v1")
	if err := os.RemoveAll(pkg); err != nil {
		t.Fatal(err)
	}
	copyTree(t, "../examples/review/v2", pkg)

	want, _, err := run("diff", "../examples/review/v1/render.yaml", "../examples/review/v2/render.yaml")
	assertExit(t, err, 1)
	got, _, err := run("diff", filepath.Join(pkg, "render.yaml"), "--from-rev", "main")
	assertExit(t, err, 1)
	if got != want {
		t.Errorf("--from-rev main:\n%s\nwant (the two configs):\n%s", got, want)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the checkout goes: it must not stay
	for rev, msg := range map[string]string{
		"no-such-branch": `revision "no-such-branch" in ` + repo,
		"main~5":         `main~5: main has only 0 first-parent ancestors`,
		"HEAD@{1}":       `revision "HEAD@{1}": @{...} (a reflog entry, an upstream or a previous branch) is not supported`,
		"@{upstream}":    `revision "@{upstream}": @{...}`,
		"main:deploy":    `revision "main:deploy": a path or a search (REV:path, :/text) is not supported`,
	} {
		_, _, err = run("diff", filepath.Join(pkg, "render.yaml"), "--from-rev", rev)
		assertExit(t, err, 2)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--from-rev %s: error %v, want %q", rev, err, msg)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("--from-rev %s: %d temporary folders left behind", rev, len(left))
		}
	}
	outside := filepath.Join(t.TempDir(), "render.yaml")
	copyFile(t, "../examples/review/v2/render.yaml", outside)
	_, _, err = run("diff", outside, "--from-rev", "main")
	assertExit(t, err, 2)
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiffMasksCopiedSecrets: a Secret's value that getValueFrom
// references copy into other objects is masked there too, however it got
// there: a single value, the whole stringData map, a JSON or base64
// transform, a chain of ConfigMaps.
func TestDiffMasksCopiedSecrets(t *testing.T) {
	dir := t.TempDir()
	ref := func(kind, name, path, tr string) string {
		return "{getValueFrom: {kind: " + kind + ", name: " + name + ", path: '" + path + "'" + tr + "}}"
	}
	files := map[string]string{
		"framework.yaml":        "name: app\nversion: \"1\"\ntasks:\n  all: {resources: [secret.yaml, cm.yaml]}\nplans:\n  deploy:\n    steps:\n      - {name: all, tasks: [all]}\n",
		"params.yaml":           "password: {default: initial-password-value}\n",
		"templates/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: {{ .Params.password | quote }}, user: app}\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dsn}\ndata:\n  dsn: " + ref("Secret", "db", "{.stringData.password}", "") +
			"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: whole}\ndata: " + ref("Secret", "db", "{.stringData}", "") +
			"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: json}\ndata:\n  j: " + ref("Secret", "db", "{.stringData}", ", format-transformers: [ObjectToJson]") +
			"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: chain}\ndata:\n  b: " + ref("ConfigMap", "whole", "{.data.password}", ", format-transformers: [StringToBase64]") + "\n",
		"render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: app, namespace: ns}\nspec:\n  framework: {path: .}\n  failOnSecretCopy: false\n",
	}
	if err := benchinput.WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "render.yaml")
	for _, format := range []string{"text", "markdown", "json"} {
		out, errs, err := run("diff", cfg, "--from-param", "password=old-password-value", "--to-param", "password=new-password-value", "-o", format)
		assertExit(t, err, 1)
		for _, secret := range []string{"old-password-value", "new-password-value", "b2xkLXBhc3N3b3JkLXZhbHVl", "bmV3LXBhc3N3b3JkLXZhbHVl"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s: the copied secret %q is printed:\n%s", format, secret, out)
			}
		}
		for _, field := range []string{"data.dsn", "stringData.password", "data.password", "data.j", "data.b"} {
			if !strings.Contains(out, field) {
				t.Errorf("%s: the changed field %s is not named:\n%s\n%s", format, field, out, errs)
			}
		}
	}
}

// TestReviewDocShowsGolden: the Mermaid graph in docs/review.md is the
// golden graph of examples/review/v2, so the docs show what the command
// writes.
func TestReviewDocShowsGolden(t *testing.T) {
	doc, err := os.ReadFile("../docs/review.md")
	if err != nil {
		t.Fatal(err)
	}
	g, err := os.ReadFile("testdata/review/graph/review-v2.mmd")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```mermaid\n"+string(g)+"```") {
		t.Error("docs/review.md does not show testdata/review/graph/review-v2.mmd: copy it there")
	}
}
