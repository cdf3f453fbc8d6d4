package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/fn"
	"github.com/kudo-render/kudo-render/internal/test/benchinput"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// digestsFile (in testdata) holds one line "name sha256" per output: the
// byte identity of renders that performance work must not change.
const digestsFile = "output-digests.txt"

// TestOutputDigests renders every examples/*/render.yaml, every corpus
// package with its defaults (instance inst in ns1, deploy plan) and the
// generated inputs of the performance rows (docs/performance.md), and
// compares the SHA-256 of each output with testdata/output-digests.txt.
// Lines of the corpus are kept as they are when the corpus is absent.
// -update rewrites the file.
func TestOutputDigests(t *testing.T) {
	want := readDigests(t)
	got := map[string]string{}
	sum := func(name string, out []byte) {
		h := sha256.Sum256(out)
		got[name] = hex.EncodeToString(h[:])
	}

	configs, err := filepath.Glob("../examples/*/render.yaml")
	if err != nil || len(configs) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, cfg := range configs {
		out, _, err := run("render", cfg)
		if err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		sum("examples/"+filepath.Base(filepath.Dir(cfg)), []byte(out))
	}

	dir := t.TempDir()
	many := filepath.Join(dir, "many")
	if err := benchinput.WritePackage(many, "many", benchinput.ManyDocuments(1000)); err != nil {
		t.Fatal(err)
	}
	out, _, err := run("render", many, "--name", "inst", "--target", "plain")
	if err != nil {
		t.Fatal(err)
	}
	sum("generated/many-documents-1000", []byte(out))
	if err := benchinput.WritePackage(filepath.Join(dir, "small"), "small", benchinput.SmallPackage); err != nil {
		t.Fatal(err)
	}
	sum("generated/krm-configmaps-1000", runKRMFunction(t, dir, benchinput.ConfigMaps(1000, "small")))

	if _, err := testcorpus.Find(); err == nil {
		ops := testcorpus.Operators(t)
		for _, name := range slices.Sorted(maps.Keys(ops)) {
			out, _, err := run("render", ops[name], "--name", "inst", "--namespace", "ns1")
			if err != nil {
				t.Fatalf("corpus %s: %v", name, err)
			}
			sum("corpus/"+name, []byte(out))
		}
		sum("corpus/krm-zookeeper-instances-20", runKRMFunction(t, filepath.Join(testcorpus.Dir(t), "kudo-operators"), benchinput.ZookeeperInstances(20, "zookeeper")))
	} else {
		t.Logf("%v: the corpus lines are not checked", err)
		for name, d := range want {
			if strings.HasPrefix(name, "corpus/") {
				got[name] = d
			}
		}
	}

	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(got)) {
		fmt.Fprintf(&b, "%s %s\n", name, got[name])
	}
	golden.Assert(t, b.String(), digestsFile)
}

func runKRMFunction(t *testing.T, dir string, input []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	f := &fn.Function{Dir: dir}
	if err := f.Run(bytes.NewReader(input), &out); err != nil {
		t.Fatalf("KRM function in %s: %v", dir, err)
	}
	return out.Bytes()
}

func readDigests(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(golden.Path(digestsFile))
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if name, d, ok := strings.Cut(l, " "); ok {
			out[name] = d
		}
	}
	return out
}
