package hostile_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestDeterministicOutput renders every example and every corpus package
// in several processes (each with its own map-iteration seed, and with 1
// and 2 threads) and requires identical bytes.
func TestDeterministicOutput(t *testing.T) {
	type input struct {
		name, wd string
		args     []string
	}
	var inputs []input
	examples, _ := filepath.Glob("../../../examples/*/render.yaml")
	for _, cfg := range examples {
		abs, _ := filepath.Abs(cfg)
		inputs = append(inputs, input{filepath.Base(filepath.Dir(cfg)), "", []string{"render", abs}})
	}
	if os.Getenv("KUDO_RENDER_CORPUS") != "" || corpusPresent() {
		for name, dir := range testcorpus.Operators(t) {
			inputs = append(inputs, input{"corpus/" + name, "", []string{"render", dir, "--name", "inst", "-n", "ns1"}})
		}
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			var first string
			for i := range 4 {
				env := []string{"GOMAXPROCS=" + strconv.Itoa(1+i%2)}
				r := runCase(t, t.TempDir(), "", in.args, env, nil)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, head(r.stderr))
				}
				if i == 0 {
					first = r.stdout
					continue
				}
				if r.stdout != first {
					t.Fatalf("run %d printed other bytes than run 0", i)
				}
			}
		})
	}
}

func corpusPresent() bool {
	_, err := os.Stat("../../../../shared/corpus/kudo-operators")
	return err == nil
}
