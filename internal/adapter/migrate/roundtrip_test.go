package migrate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	sigsyaml "sigs.k8s.io/yaml"
	"strconv"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/cmd"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// run runs kudo-render with args.
func run(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	c := cmd.New(strings.NewReader(""), &out, &errb)
	c.SetArgs(args)
	err = c.Execute()
	return out.String(), errb.String(), err
}

// TestCorpusRoundTrip installs corpus packages as kubectl kudo install
// would (an OperatorVersion holding the package), imports the export, and
// renders the imported config: the objects must be those of the original
// package rendered with the same parameters.
func TestCorpusRoundTrip(t *testing.T) {
	ops := testcorpus.Operators(t) // skips when ../shared/corpus is absent
	// A parameter given its default value is left out by the import: the
	// objects are the same, and so are their processed-by markers, which
	// digest each object, not the values given.
	cases := []struct {
		reason, pkg, name string
		params            map[string]string
	}{
		{"defaults only: no spec.params", "zookeeper", "zk", nil},
		{"non-default parameters are carried over", "zookeeper", "zk-big", map[string]string{"NODE_COUNT": "5", "MEMORY": "2Gi"}},
		{"a parameter given its default value is left out", "zookeeper", "zk-same", map[string]string{"NODE_COUNT": "5", "CPUS": "250m"}},
		{"kafka's 200 parameters, defaults only", "kafka", "kafka", nil},
		{"kafka with non-default parameters", "kafka", "kafka-tuned", map[string]string{"BROKER_COUNT": "5", "ZOOKEEPER_URI": "zk-cs.data:2181"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := ops[c.pkg]
			tmp := t.TempDir()
			export := filepath.Join(tmp, "export.yaml")
			if err := os.WriteFile(export, kudotest.Export(t, dir, "data", kudotest.Instance{Name: c.name, Params: c.params}), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(tmp, "gitops")
			if _, stderr, err := run("import", "--from", export, "--output-dir", out); err != nil {
				t.Fatalf("%s: import: %v\n%s", c.reason, err, stderr)
			}
			if _, err := bundle.LoadDir(filepath.Join(out, "operators", c.pkg)); err == nil {
				t.Errorf("%s: operators/%s/ must hold versions, not a package", c.reason, c.pkg)
			}
			// The original is rendered with the pipe artifacts the import
			// found KUDO made (the deploy plan ran), as the import is.
			original := filepath.Join(tmp, "original.yaml")
			pipes, ssa := importedSpec(t, filepath.Join(out, "data", c.name, "kudo-render.yaml"))
			if ssa == nil || !*ssa {
				t.Errorf("%s: the import does not ask Argo CD for server-side apply (spec.serverSideApply)", c.reason)
			}
			if c.pkg == "kafka" && pipes["certificate"] != strings.ReplaceAll(c.name, "-", "")+".deploy.deploykafka.generatetlscertificates.generatetlscertificates.certificate" {
				t.Errorf("%s: spec.pipes %v, want KUDO's artifact of the deploy plan for certificate", c.reason, pipes)
			}
			if err := os.WriteFile(original, originalConfig(t, dir, c.name, pipes, ssa), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"render", original}
			for k, v := range c.params {
				args = append(args, "-p", k+"="+v)
			}
			want, _, err := run(args...)
			if err != nil {
				t.Fatalf("%s: render of the original: %v", c.reason, err)
			}
			got, stderr, err := run("render", filepath.Join(out, "data", c.name, "kudo-render.yaml"))
			if err != nil {
				t.Fatalf("%s: render of the import: %v\n%s", c.reason, err, stderr)
			}
			if got != want {
				t.Errorf("%s: the imported instance renders differently:\n%s", c.reason, firstDiff(want, got))
			}
			// With --operators the package is referenced, not rebuilt.
			ref := filepath.Join(tmp, "ref")
			if _, stderr, err := run("import", "--from", export, "--output-dir", ref, "--operators", filepath.Dir(dir)); err != nil {
				t.Fatalf("%s: import --operators: %v\n%s", c.reason, err, stderr)
			}
			if _, err := os.Stat(filepath.Join(ref, "operators")); err == nil {
				t.Errorf("%s: import --operators rebuilt packages", c.reason)
			}
			got, stderr, err = run("render", filepath.Join(ref, "data", c.name, "kudo-render.yaml"))
			if err != nil || got != want {
				t.Errorf("%s: with --operators the imported instance renders differently (%v):\n%s", c.reason, err, firstDiff(want, got))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + la[i] + "\n  got:  " + lb[i]
		}
	}
	return "lengths differ: " + strconv.Itoa(len(la)) + " and " + strconv.Itoa(len(lb)) + " lines"
}

// TestDependencyRoundTrip: an instance whose KudoOperator task made a
// child instance renders from the import (rebuilt packages, the child's
// package found through spec.repositories) as the original package does,
// and the child gets no application of its own.
func TestDependencyRoundTrip(t *testing.T) {
	tmp := t.TempDir()
	export := filepath.Join(tmp, "export.yaml")
	if err := os.WriteFile(export, shopExport(t), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "gitops")
	stdout, stderr, err := run("import", "--from", export, "--output-dir", out)
	if err != nil || stdout != "" {
		t.Fatalf("import: %v, stdout %q\n%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "Instance web/shop-cache: a dependency of Instance web/shop") {
		t.Errorf("stderr does not say the child is rendered by its parent:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "web", "shop-cache")); err == nil {
		t.Errorf("the child instance has a folder of its own")
	}
	got, stderr, err := run("render", filepath.Join(out, "web", "shop", "kudo-render.yaml"))
	if err != nil {
		t.Fatalf("render of the import: %v\n%s", err, stderr)
	}
	want, _, err := run("render", "testdata/operators/shop", "--name", "shop", "--namespace", "web", "-p", "REPLICAS=3", "-p", "DEBUG=true",
		"-p", "RATIO=0.75", "-p", "HOSTS=[a.example.com, b.example.com]", "-p", "LABELS={team: shop}", "-p", "PASSWORD=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	// The import asks Argo CD for server-side apply (the command line
	// cannot): each object says so.
	const ssa = "    argocd.argoproj.io/sync-options: ServerSideApply=true\n"
	if strings.Count(got, ssa) != strings.Count(got, "\nkind: ") {
		t.Errorf("not every object of the import asks for server-side apply:\n%s", got)
	}
	got = strings.ReplaceAll(got, ssa, "")
	// The resource versions and processed-by markers digest the sync
	// options: only they may differ.
	digests := regexp.MustCompile(`(?m)^\s+kudorender.dev/(resource-version|processed-by): .*\n`)
	got, want = digests.ReplaceAllString(got, ""), digests.ReplaceAllString(want, "")
	if got != want {
		t.Errorf("the imported instance renders differently:\n%s", firstDiff(want, got))
	}
}

// TestImportWritesNothingOnError: a bad export exits with an error, prints
// nothing on stdout and leaves the output folder as it was.
func TestImportWritesNothingOnError(t *testing.T) {
	tmp := t.TempDir()
	export := filepath.Join(tmp, "export.yaml")
	bad := strings.Replace(string(shopExport(t)), "DEBUG: \"true\"", "DEBUGG: \"true\"", 1)
	if err := os.WriteFile(export, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "gitops")
	stdout, _, err := run("import", "--from", export, "--output-dir", out)
	if err == nil || stdout != "" {
		t.Fatalf("want an error and nothing on stdout, got %v, %q", err, stdout)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output folder was written: %v", err)
	}
	if _, _, err := run("import", "--from", filepath.Join(tmp, "missing.yaml"), "--output-dir", out); err == nil {
		t.Errorf("a missing file is not an error")
	}
	t.Cleanup(func() { limits.SetCurrent(limits.Default()) }) // the flag sets the process's limits
	if _, _, err := run("import", "--from", export, "--output-dir", out, "--max-file-bytes", "100"); err == nil || !strings.Contains(err.Error(), "file-bytes") {
		t.Errorf("the file-bytes limit is not applied: %v", err)
	}
}

// importedSpec reads spec.pipes and spec.serverSideApply of an imported
// config.
func importedSpec(t *testing.T, file string) (map[string]string, *bool) {
	t.Helper()
	var cfg struct {
		Spec struct {
			Pipes map[string]string `json:"pipes"`
			SSA   *bool             `json:"serverSideApply"`
		} `json:"spec"`
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := sigsyaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Spec.Pipes, cfg.Spec.SSA
}

// originalConfig is a FrameworkRender of the package in dir, instance
// name in namespace data, with spec.pipes and spec.serverSideApply.
func originalConfig(t *testing.T, dir, name string, pipes map[string]string, ssa *bool) []byte {
	t.Helper()
	data, err := sigsyaml.Marshal(map[string]any{
		"apiVersion": "kudorender.dev/v1alpha1", "kind": "FrameworkRender",
		"metadata": map[string]any{"name": name, "namespace": "data"},
		"spec":     map[string]any{"framework": map[string]any{"path": dir}, "pipes": pipes, "serverSideApply": ssa},
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}
