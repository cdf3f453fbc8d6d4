package testcorpus

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A Render is one kudo-render render command line: the arguments after
// "render", with absolute paths.
type Render struct {
	Name string
	Args []string
}

// ExampleRenders are the renders of every example, as the other tests
// render them (cmd's TestExamples and TestMySQLExamplePlans, the review
// and Argo CD examples). It fails the test when the repository has no
// example.
func ExampleRenders(t testing.TB) []Render {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ex := filepath.Join(root, "examples")
	configs, err := filepath.Glob(filepath.Join(ex, "*", "render.yaml"))
	if err != nil || len(configs) == 0 {
		t.Fatalf("no examples found in %s: %v", ex, err)
	}
	var out []Render
	for _, cfg := range configs {
		out = append(out, Render{filepath.Base(filepath.Dir(cfg)), []string{cfg}})
	}
	mysql := filepath.Join(ex, "mysql", "render.yaml")
	return append(out,
		Render{"mysql-backup", []string{mysql, "--plan", "backup"}},
		Render{"mysql-restore", []string{mysql, "--plan", "restore"}},
		Render{"review-v1", []string{filepath.Join(ex, "review", "v1", "render.yaml")}},
		Render{"review-v2", []string{filepath.Join(ex, "review", "v2", "render.yaml")}},
		// the Argo CD example's instance is the Application's name and namespace
		Render{"argocd", []string{filepath.Join(ex, "argocd", "kudo-render.yaml"), "--name", "sessions", "--namespace", "web"}},
	)
}

// CorpusRenders are the renders of every corpus package's deploy plan
// with its defaults, for instance inst in namespace ns1 (as the engine's
// and kube's corpus tests render them), and with the parameters and plans
// the other corpus tests use: kafka's cruise control, TLS, and external
// access through NodePorts and LoadBalancers, zookeeper and kafka
// installed as KudoOperator dependencies, and a LoadBalancer Service of
// cassandra's shape (testdata/external-service). It skips the test
// without the corpus.
func CorpusRenders(t testing.TB) []Render {
	t.Helper()
	ops := Operators(t)
	var out []Render
	for _, name := range slices.Sorted(maps.Keys(ops)) {
		out = append(out, Render{name, []string{ops[name], "--name", "inst", "--namespace", "ns1"}})
	}
	if kafka, ok := ops["kafka"]; ok {
		base := []string{kafka, "--name", "inst", "--namespace", "ns1"}
		with := func(args ...string) []string { return append(slices.Clone(base), args...) }
		out = append(out,
			Render{"kafka-cruise-control", with("-p", "ENABLE_CRUISE_CONTROL=true")},
			Render{"kafka-no-cruise-control", with("-p", "ENABLE_CRUISE_CONTROL=false")},
			Render{"kafka-auto-tls", with("-p", "TRANSPORT_ENCRYPTION_ENABLED=true", "-p", "USE_AUTO_TLS_CERTIFICATE=true")},
			// integration's TestFluxNamesInRealUse: a long instance name, two plans
			Render{"kafka-long-name-external-access", []string{kafka, "--name", "payments-events-kafka-cluster-production-eu-west", "--namespace", "data", "--plan", "deploy", "--plan", "external-access"}},
			Render{"kafka-external-nodeport", with("-p", "EXTERNAL_ADVERTISED_LISTENER=true")},
			// a LoadBalancer per broker, externalTrafficPolicy Local: the
			// server allocates each healthCheckNodePort
			Render{"kafka-external-loadbalancer", with("-p", "EXTERNAL_ADVERTISED_LISTENER=true", "-p", "EXTERNAL_ADVERTISED_LISTENER_TYPE=LoadBalancer")},
		)
	}
	if cassandra, ok := ops["cassandra"]; ok {
		out = append(out, Render{"cassandra-external-service", []string{cassandra, "--name", "inst", "--namespace", "ns1",
			"-p", "EXTERNAL_SERVICE=true", "-p", "EXTERNAL_NATIVE_TRANSPORT=true"}})
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	here := filepath.Join(root, "internal", "test", "testcorpus", "testdata")
	out = append(out, Render{"external-service-loadbalancer", []string{filepath.Join(here, "external-service"), "--name", "inst", "--namespace", "ns1", "-p", "EXTERNAL_SERVICE=true"}})
	return append(out, dependencies(t, root))
}

// dependencies is cmd's TestKudoOperatorDependencies: zookeeper, then
// kafka, installed by KudoOperator tasks from the corpus used as a
// repository.
func dependencies(t testing.TB, root string) Render {
	cfg := filepath.Join(t.TempDir(), "render.yaml")
	streaming := filepath.Join(root, "cmd", "testdata", "deps", "streaming")
	if err := os.WriteFile(cfg, []byte(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: s, namespace: data}
spec:
  framework: {path: `+streaming+`}
  repositories:
    - name: corpus
      path: `+filepath.Join(Dir(t), "kudo-operators")+`
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return Render{"dependencies-zookeeper-kafka", []string{cfg}}
}
