package fn

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
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

// TestFrameworkRefusals: a list the framework path cannot read is refused
// with nothing written, as on the fast path.
func TestFrameworkRefusals(t *testing.T) {
	head := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
	cases := []struct{ reason, in, err string }{
		{"not YAML: the line in the list", head + "items:\n- a: b\n  c\n", "cannot read the ResourceList: yaml: line 5: could not find expected ':'"},
		{"an item that is no object", head + "items:\n- [a]\n", "cannot read items[0] (line 4 of the ResourceList): an item is not a mapping"},
		{"another kind", "kind: Deployment\n", "it is not a config.kubernetes.io/v1 ResourceList"},
		{"two documents", head + "items: []\n---\n" + head + "items: []\n", "it is not a config.kubernetes.io/v1 ResourceList"},
		{"over --max-krm-items", head + "items:\n" + strings.Repeat("- kind: A\n", 3) + "functionConfig: {kind: A}\n", "--max-krm-items"},
	}
	bomb := head + "items:\n- kind: A\n- kind: B\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	cases = append(cases,
		struct{ reason, in, err string }{"aliases that expand past --max-yaml-values: the list's line and column", bomb, "cannot read items[1]: line 8, column 38 of the ResourceList: alias *b (aliases expanded)"},
		struct{ reason, in, err string }{"a control character", head + "items:\n- kind: A\x07\n", "cannot read the ResourceList: line 4"})
	for _, tc := range cases {
		f := &Function{path: frameworkPath, Limits: limits.Limits{KRMItems: 2, YAMLValues: 1000}}
		out, err := f.Output(strings.NewReader(tc.in))
		assert.Check(t, is.Nil(out), tc.reason)
		assert.Check(t, is.ErrorContains(err, tc.err), tc.reason)
	}
}

// FuzzReadersAgree: whatever the input, when both read it, kyaml's reader
// (the framework path) and the split (the fast path) read the same items
// and functionConfig.
func FuzzReadersAgree(f *testing.F) {
	f.Add("kind: ResourceList\nitems:\n- kind: A\n  data:\n    x: |\n      - y\n- kind: B\n")
	f.Add("kind: ResourceList\nitems:\n  - kind: A\n    # c\n  -\n    kind: B\nfunctionConfig:\n  kind: C\n")
	f.Add("kind: ResourceList\nitems: [{kind: A}]\n")
	f.Add("kind: ResourceList\nitems:\n- a: &x 1\n- b: *x\n")
	f.Fuzz(func(t *testing.T, in string) {
		lim := limits.Default()
		fast, err := readResourceList([]byte(in), lim)
		if err != nil {
			return
		}
		rl, err := readFramework([]byte(in), lim)
		if err != nil {
			return
		}
		var fromNodes []any
		for _, n := range rl.Items {
			var v any
			if n.YNode().Decode(&v) != nil {
				return // aliases beyond the decoder's limits
			}
			fromNodes = append(fromNodes, v)
		}
		var fc any
		if rl.FunctionConfig != nil {
			if rl.FunctionConfig.YNode().Decode(&fc) != nil {
				return
			}
		}
		gotItems, gotFC := splitItemsOf(t, fast)
		assert.DeepEqual(t, stringKeys(fromNodes), stringKeys(gotItems), cmpopts.EquateEmpty())
		assert.DeepEqual(t, stringKeys(fc), stringKeys(gotFC))
	})
}
