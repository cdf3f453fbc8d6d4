package kubetest_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/cmd"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// applyRenders renders each case in-process, as the CLI does, and applies
// its stream to the API server: every object must be accepted.
func applyRenders(t *testing.T, cases []testcorpus.Render) {
	srv := kubetest.Start(t)
	t0 := time.Now()
	total := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var out, errb bytes.Buffer
			k := cmd.New(strings.NewReader(""), &out, &errb)
			k.SetArgs(append([]string{"render"}, c.Args...))
			if err := k.Execute(); err != nil {
				t.Fatalf("kudo-render render %s: %v\n%s", strings.Join(c.Args, " "), err, errb.String())
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

// TestExamplesOnAPIServer applies what every example renders
// (testcorpus.ExampleRenders) to a real API server.
func TestExamplesOnAPIServer(t *testing.T) {
	applyRenders(t, testcorpus.ExampleRenders(t))
}

// TestCorpusOnAPIServer applies every corpus package's deploy plan,
// rendered with its defaults and with the parameters and plans the other
// corpus tests use (testcorpus.CorpusRenders: kafka's external access
// through LoadBalancers and a LoadBalancer Service of cassandra's shape
// among them), to a real API server.
func TestCorpusOnAPIServer(t *testing.T) {
	applyRenders(t, testcorpus.CorpusRenders(t))
}
