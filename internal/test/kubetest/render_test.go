package kubetest_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/cmd"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// renderCase is one kudo-render render command line.
type renderCase struct {
	name string
	args []string // after "render"
}

// applyRenders renders each case in-process, as the CLI does, and applies
// its stream to the API server: every object must be accepted.
func applyRenders(t *testing.T, cases []renderCase) {
	srv := kubetest.Start(t)
	t0 := time.Now()
	total := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			k := cmd.New(strings.NewReader(""), &out, &errb)
			k.SetArgs(append([]string{"render"}, c.args...))
			if err := k.Execute(); err != nil {
				t.Fatalf("kudo-render render %s: %v\n%s", strings.Join(c.args, " "), err, errb.String())
			}
			results, err := srv.ApplyYAML(t.Context(), out.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if len(results) == 0 {
				t.Fatal("the render holds no object")
			}
			total += len(results)
			kubetest.RequireAccepted(t, results)
		})
	}
	t.Logf("%d renders, %d objects rendered and applied in %v", len(cases), total, time.Since(t0).Round(time.Millisecond))
}

// TestExamplesOnAPIServer applies what every example renders, as the
// other tests render them (cmd's TestExamples and TestMySQLExamplePlans,
// the review and Argo CD examples), to a real API server.
func TestExamplesOnAPIServer(t *testing.T) {
	configs, err := filepath.Glob("../../../examples/*/render.yaml")
	if err != nil || len(configs) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	var cases []renderCase
	for _, cfg := range configs {
		cases = append(cases, renderCase{filepath.Base(filepath.Dir(cfg)), []string{cfg}})
	}
	cases = append(cases,
		renderCase{"mysql-backup", []string{"../../../examples/mysql/render.yaml", "--plan", "backup"}},
		renderCase{"mysql-restore", []string{"../../../examples/mysql/render.yaml", "--plan", "restore"}},
		renderCase{"review-v1", []string{"../../../examples/review/v1/render.yaml"}},
		renderCase{"review-v2", []string{"../../../examples/review/v2/render.yaml"}},
		// the Argo CD example's instance is the Application's name and namespace
		renderCase{"argocd", []string{"../../../examples/argocd/kudo-render.yaml", "--name", "sessions", "--namespace", "web"}},
	)
	applyRenders(t, cases)
}

// TestCorpusOnAPIServer applies every corpus package's deploy plan,
// rendered with its defaults for instance inst in namespace ns1 (as the
// engine's and kube's corpus tests render it), and with the parameters and
// plans the other corpus tests use, to a real API server.
func TestCorpusOnAPIServer(t *testing.T) {
	ops := testcorpus.Operators(t)
	var cases []renderCase
	for _, name := range slices.Sorted(maps.Keys(ops)) {
		cases = append(cases, renderCase{name, []string{ops[name], "--name", "inst", "--namespace", "ns1"}})
	}
	if kafka, ok := ops["kafka"]; ok {
		base := []string{kafka, "--name", "inst", "--namespace", "ns1"}
		cases = append(cases,
			renderCase{"kafka-cruise-control", append(slices.Clone(base), "-p", "ENABLE_CRUISE_CONTROL=true")},
			renderCase{"kafka-no-cruise-control", append(slices.Clone(base), "-p", "ENABLE_CRUISE_CONTROL=false")},
			renderCase{"kafka-auto-tls", append(slices.Clone(base), "-p", "TRANSPORT_ENCRYPTION_ENABLED=true", "-p", "USE_AUTO_TLS_CERTIFICATE=true")},
			// integration's TestFluxNamesInRealUse: a long instance name, two plans
			renderCase{"kafka-long-name-external-access", []string{kafka, "--name", "payments-events-kafka-cluster-production-eu-west", "--namespace", "data", "--plan", "deploy", "--plan", "external-access"}},
		)
	}
	// cmd's TestKudoOperatorDependencies: zookeeper, then kafka, installed
	// by KudoOperator tasks from the corpus used as a repository.
	dir := t.TempDir()
	cfg := filepath.Join(dir, "render.yaml")
	streaming, err := filepath.Abs("../../../cmd/testdata/deps/streaming")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: s, namespace: data}
spec:
  framework: {path: `+streaming+`}
  repositories:
    - name: corpus
      path: `+filepath.Join(testcorpus.Dir(t), "kudo-operators")+`
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, renderCase{"dependencies-zookeeper-kafka", []string{cfg}})
	applyRenders(t, cases)
}
