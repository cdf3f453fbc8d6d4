package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/test/benchinput"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// runPath runs the function on the framework path or the fast path.
func runPath(dir string, path readPath, in []byte) (string, string) {
	f := &Function{Dir: dir, path: path}
	var out bytes.Buffer
	err := f.Run(bytes.NewReader(in), &out)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	return out.String(), msg
}

// TestFastPathMatchesFramework: the fast path for very large lists writes
// exactly what the framework path writes, for the lists kpt and kustomize
// write: every golden case, each case's output run again, kpt-annotated
// items, ConfigMaps passed through and zookeeper Instances of the corpus.
func TestFastPathMatchesFramework(t *testing.T) {
	type input struct {
		name, dir string
		in        []byte
	}
	var inputs []input
	dirs, _ := filepath.Glob("testdata/krm/*")
	for _, dir := range dirs {
		in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
		assert.NilError(t, err)
		first, _ := runPath(dir, frameworkPath, in)
		inputs = append(inputs, input{filepath.Base(dir), dir, in}, input{filepath.Base(dir) + "/again", dir, []byte(first)})
	}
	inputs = append(inputs, input{"kpt annotations", "testdata/krm/instance", []byte(krmList(withKpt(instanceItem, "instance.yaml", "2"), instancesConfig))})
	tmp := t.TempDir()
	assert.NilError(t, benchinput.WritePackage(filepath.Join(tmp, "small"), "small", benchinput.SmallPackage))
	inputs = append(inputs, input{"configmaps", tmp, benchinput.ConfigMaps(200, "small")})
	if _, err := testcorpus.Find(); err == nil {
		ops := filepath.Join(testcorpus.Dir(t), "kudo-operators")
		zk := benchinput.ZookeeperInstances(5, "zookeeper")
		first, _ := runPath(ops, frameworkPath, zk)
		inputs = append(inputs, input{"zookeeper", ops, zk}, input{"zookeeper/again", ops, []byte(first)})
	}
	for _, c := range inputs {
		fw, fwErr := runPath(c.dir, frameworkPath, c.in)
		fast, fastErr := runPath(c.dir, fastPath, c.in)
		assert.Check(t, is.Equal(fwErr, fastErr), c.name)
		assert.Check(t, is.Equal(fw, fast), c.name)
	}
}

// TestVeryLarge: lists of many items, many bytes or many values take the
// fast path; others the framework path.
func TestVeryLarge(t *testing.T) {
	lim := limits.Default()
	cases := []struct {
		reason string
		in     string
		want   bool
	}{
		{"a small list", "kind: ResourceList\nitems:\n" + strings.Repeat("- kind: A\n", fastPathItems-1), false},
		{"as many items as fastPathItems", "kind: ResourceList\nitems:\n" + strings.Repeat("- kind: A\n", fastPathItems), true},
		{"items indented below items: are not counted", "kind: ResourceList\nitems:\n" + strings.Repeat("  - kind: A\n", fastPathItems), false},
		{"more than fastPathBytes", "kind: ResourceList\nitems:\n- kind: A\n  data: {x: " + strings.Repeat("y", fastPathBytes) + "}\n", true},
		{"more values than yaml-values allows when decoded whole", "kind: ResourceList\nitems:\n- [" + strings.Repeat("a,", int(lim.YAMLValues)) + "a]\n", true},
	}
	for _, tc := range cases {
		assert.Check(t, is.Equal(veryLarge([]byte(tc.in), lim), tc.want), tc.reason)
	}
	small := lim
	small.KRMInputBytes = 1 << 20
	assert.Check(t, veryLarge([]byte(strings.Repeat("#", 300<<10)), small), "over a quarter of --max-krm-input-bytes")
}
