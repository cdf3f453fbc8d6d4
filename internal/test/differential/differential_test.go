package differential_test

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/cmd"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/test/differential"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

var (
	flagCases   = flag.Int("cases", 3000, "mutated cases to judge (0: every case)")
	flagSeed    = flag.Uint64("seed", 1, "the random source of the sample and the Service matrix")
	flagRounds  = flag.Int("service-rounds", 2, "rounds of the Service matrix (100 cases each)")
	flagWorkers = flag.Int("workers", 8, "cases judged at the same time")
	flagReduce  = flag.Int("reduce", 20, "disagreements reduced to a minimal reproducer (the others are shown as found)")
)

func TestMain(m *testing.M) { kubetest.Main(m) }

// namespace is where the cases' namespaced objects go.
const namespace = "differential"

// TestDifferential: kudo-render refuses exactly what the API server
// refuses, on every sampled mutation of every seed (the objects the
// examples and the corpus render, one of every served kind) and on the
// Service matrix. Disagreements that depend on the cluster are counted
// by class; every other one fails with a minimal reproducer.
func TestDifferential(t *testing.T) {
	t0 := time.Now()
	srv := kubetest.Start(t)
	ctx := t.Context()
	schemas, err := differential.LoadSchemas(ctx, srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	seeds := differential.KindSeeds(t, "testdata/kinds.yaml", namespace)
	seeds = append(seeds, renderSeeds(t, testcorpus.ExampleRenders(t), namespace)...)
	if _, err := testcorpus.Find(); err == nil {
		seeds = append(seeds, renderSeeds(t, testcorpus.CorpusRenders(t), namespace)...)
	} else {
		t.Logf("without the corpus's seeds: %v", err)
	}
	t2 := time.Now()
	var all []differential.Case
	for _, s := range seeds {
		all = append(all, differential.Cases(s, schemas.Kind(s.GVK()))...)
	}
	cases := differential.Sample(all, *flagCases, *flagSeed)
	cases = append(cases, differential.ServiceCases(namespace, *flagRounds, *flagSeed)...)
	t3 := time.Now()
	results, err := differential.Run(ctx, srv, cases, *flagWorkers)
	if err != nil {
		t.Fatal(err)
	}
	t4 := time.Now()
	report(t, srv, results)
	t.Logf("%d seeds, %d cases made, %d judged in %v (%.0f cases/s, %d at a time); the server and its schemas took %v, rendering the seeds %v, making and sampling the cases %v",
		len(seeds), len(all), len(results), t4.Sub(t3).Round(time.Millisecond), float64(len(results))/t4.Sub(t3).Seconds(), *flagWorkers,
		t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), t3.Sub(t2).Round(time.Millisecond))
}

// report counts the results, logs the classified disagreements and fails
// the test for every other one, the first ones reduced.
func report(t *testing.T, srv *kubetest.Server, results []differential.Result) {
	agree, classified := 0, 0
	var wrong []differential.Result
	for _, r := range results {
		switch {
		case r.Agrees():
			agree++
		case r.Class != nil:
			classified++
		default:
			wrong = append(wrong, r)
		}
	}
	t.Logf("%d cases: %d agree, %d classified (the cluster's or the dry run's, below), %d disagree", len(results), agree, classified, len(wrong))
	for _, c := range differential.CountBy(results, func(r differential.Result) string {
		if r.Class == nil {
			return ""
		}
		return r.Class.Name + ": " + r.Class.Reason
	}) {
		if c.Key != "" {
			t.Logf("  %d classified: %s", c.N, c.Key)
		}
	}
	for i, r := range wrong {
		if i < *flagReduce {
			reduced, err := differential.Reduce(t.Context(), srv, r, 150)
			if err != nil {
				t.Fatal(err)
			}
			r = reduced
		}
		t.Errorf("%s", describe(r))
	}
}

// describe is a disagreement as a failure: the case, the reproducer and
// both messages.
func describe(r differential.Result) string {
	verdict := "kudo-render accepts what the API server refuses"
	if r.Ours != "" {
		verdict = "kudo-render refuses what the API server accepts"
	}
	return fmt.Sprintf("%s\n  seed: %s\n  mutation: %s (%s)\n  kudo-render: %s\n  server: %s\n  reproducer:\n%s",
		verdict, r.Seed, r.Mutation, r.Op, orAccepts(r.Ours), orAccepts(r.Theirs), indent(string(r.Doc)))
}

func orAccepts(s string) string {
	if s == "" {
		return "accepts"
	}
	return s
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if len(l) > 300 {
			l = l[:300] + fmt.Sprintf("… (%d bytes)", len(l))
		}
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

// TestEveryServedKindHasASeed: testdata/kinds.yaml holds an object of
// every kind Kubernetes serves (custom resource definitions aside: see
// ParseSeeds).
func TestEveryServedKindHasASeed(t *testing.T) {
	have := map[string]bool{}
	for _, s := range differential.KindSeeds(t, "testdata/kinds.yaml", namespace) {
		have[s.GVK().String()] = true
	}
	for _, k := range validate.ServedKinds() {
		if !have[k.String()] && k.Group != "apiextensions.k8s.io" {
			t.Errorf("testdata/kinds.yaml has no %s", k)
		}
	}
}

// TestSampleIsDeterministic: the same cases and seed give the same
// sample; another seed another one; every seed object is in it.
func TestSampleIsDeterministic(t *testing.T) {
	var all []differential.Case
	for _, s := range differential.KindSeeds(t, "testdata/kinds.yaml", namespace) {
		all = append(all, differential.Cases(s, nil)...)
	}
	docs := func(cases []differential.Case) string {
		var b strings.Builder
		for _, c := range cases {
			b.WriteString(c.Mutation + "\x00" + string(c.Doc) + "\x00")
		}
		return b.String()
	}
	a, b, c := differential.Sample(all, 500, 1), differential.Sample(all, 500, 1), differential.Sample(all, 500, 2)
	if len(a) != 500 || docs(a) != docs(b) {
		t.Fatalf("two samples of seed 1 differ (%d and %d cases)", len(a), len(b))
	}
	if docs(a) == docs(c) {
		t.Error("seeds 1 and 2 give the same sample")
	}
	seeds := 0
	for _, x := range a {
		if x.Op == "seed" {
			seeds++
		}
	}
	if want := len(differential.KindSeeds(t, "testdata/kinds.yaml", namespace)); seeds != want {
		t.Errorf("%d seeds in the sample, want %d", seeds, want)
	}
	if m1, m2 := differential.ServiceCases(namespace, 1, 1), differential.ServiceCases(namespace, 1, 1); docs(m1) != docs(m2) || len(m1) != 100 {
		t.Errorf("the Service matrix of one seed differs between runs, or has %d cases", len(m1))
	}
}

// renderSeeds renders each command line in-process, as the CLI does, and
// returns the objects as seeds (ParseSeeds). A render that fails fails
// the test.
func renderSeeds(t testing.TB, renders []testcorpus.Render, namespace string) []differential.Seed {
	t.Helper()
	var out []differential.Seed
	for _, r := range renders {
		var stdout, stderr bytes.Buffer
		k := cmd.New(strings.NewReader(""), &stdout, &stderr)
		k.SetArgs(append([]string{"render"}, r.Args...))
		if err := k.Execute(); err != nil {
			t.Fatalf("kudo-render render %s: %v\n%s", strings.Join(r.Args, " "), err, stderr.String())
		}
		seeds, err := differential.ParseSeeds("render "+r.Name, stdout.Bytes(), namespace)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, seeds...)
	}
	return out
}
