package fn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// decodedItems is the oracle: the items of a ResourceList decoded whole.
func decodedItems(t testing.TB, data []byte) ([]any, any) {
	t.Helper()
	var doc struct {
		Items          []any `yaml:"items"`
		FunctionConfig any   `yaml:"functionConfig"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Skipf("not YAML: %v", err)
	}
	return doc.Items, doc.FunctionConfig
}

// splitItemsOf decodes what readResourceList split.
func splitItemsOf(t testing.TB, rl *resourceList) ([]any, any) {
	t.Helper()
	var items []any
	for _, it := range rl.items {
		var v any
		if err := yaml.Unmarshal(it.text, &v); err != nil {
			t.Fatalf("item text does not decode: %v\n%s", err, it.text)
		}
		items = append(items, v)
	}
	var fc any
	if rl.functionConfig != nil {
		if err := yaml.Unmarshal(rl.functionConfig, &fc); err != nil {
			t.Fatalf("functionConfig text does not decode: %v\n%s", err, rl.functionConfig)
		}
	}
	return items, fc
}

// stringKeys turns every map into a map of string keys, a null key
// into "".
func stringKeys(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stringKeys(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = stringKeys(e)
		}
		return out
	case map[any]any:
		out := map[string]any{}
		for k, e := range x {
			key := ""
			if k != nil {
				key = fmt.Sprint(k)
			}
			out[key] = stringKeys(e)
		}
		return out
	}
	return v
}

func TestReadResourceList(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		block  bool // split without decoding the whole list
	}{
		"KyamlStyle": {
			reason: "kpt and kustomize write items at column 0",
			in:     "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    x: |\n      line one\n\n      line three\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: b}\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  data: {a: b}\n",
			block:  true,
		},
		"IndentedItems": {
			reason: "a sequence indented below items:",
			in:     "kind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: a\n    # a comment\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: b\n",
			block:  true,
		},
		"DashAlone": {
			reason: "an item whose content starts below its dash",
			in:     "kind: ResourceList\nitems:\n-\n  apiVersion: v1\n  kind: ConfigMap\n",
			block:  true,
		},
		"BlockScalarWithDash": {
			reason: "a block scalar whose lines look like sequence entries stays in its item",
			in:     "kind: ResourceList\nitems:\n- kind: ConfigMap\n  data:\n    list: |\n      - a\n      - b\n    kept: |+\n      x\n\n- kind: Secret\n",
			block:  true,
		},
		"Flow": {
			reason: "flow style is decoded whole",
			in:     "kind: ResourceList\nitems: [{kind: ConfigMap, metadata: {name: a}}]\nfunctionConfig: {kind: ConfigMap}\n",
		},
		"JSON": {
			reason: "JSON is decoded whole",
			in:     `{"kind": "ResourceList", "items": [{"kind": "ConfigMap"}]}`,
		},
		"AliasAcrossItems": {
			reason: "an alias to an anchor of another item needs the whole list",
			in:     "kind: ResourceList\nitems:\n- kind: ConfigMap\n  data: &d {a: b}\n- kind: ConfigMap\n  data: *d\n",
		},
		"UnknownTopLevelKey": {
			reason: "a key the splitter does not know is decoded whole",
			in:     "kind: ResourceList\n\"items\":\n- kind: ConfigMap\n",
		},
		"Empty": {
			reason: "no items",
			in:     "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n",
			block:  true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rl, err := readResourceList([]byte(tc.in), limits.Default())
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			wantItems, wantFC := decodedItems(t, []byte(tc.in))
			gotItems, gotFC := splitItemsOf(t, rl)
			assert.Check(t, is.DeepEqual(wantItems, gotItems, cmpopts.EquateEmpty()), "%s: items", tc.reason)
			assert.Check(t, is.DeepEqual(wantFC, gotFC), "%s: functionConfig", tc.reason)
			_, err = splitBlock([]byte(tc.in))
			if got := err == nil; got != tc.block && err != nil && !strings.Contains(err.Error(), "block") {
				t.Errorf("%s: split in block style: %t (%v)", tc.reason, got, err)
			}
		})
	}
}

func TestReadResourceListLimits(t *testing.T) {
	lim := limits.Default()
	lim.KRMItems = 2
	in := "kind: ResourceList\nitems:\n- kind: A\n- kind: B\n- kind: C\n"
	if _, err := readResourceList([]byte(in), lim); err == nil || !strings.Contains(err.Error(), "--max-krm-items") {
		t.Errorf("3 items over a limit of 2: got %v", err)
	}
	if _, err := readResourceList([]byte("kind: ResourceList\x00"), limits.Default()); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("a NUL byte: got %v", err)
	}
	if _, err := readResourceList([]byte("kind: Deployment\n"), limits.Default()); err == nil || !strings.Contains(err.Error(), "not a config.kubernetes.io/v1 ResourceList") {
		t.Errorf("not a ResourceList: got %v", err)
	}
}

// FuzzReadResourceList: whatever the input, the split items decode to
// exactly what decoding the whole list gives, or reading fails cleanly.
func FuzzReadResourceList(f *testing.F) {
	f.Add("kind: ResourceList\nitems:\n- kind: A\n  data:\n    x: |\n      - y\n- kind: B\n")
	f.Add("kind: ResourceList\nitems:\n  - kind: A\n    # c\n  -\n    kind: B\nfunctionConfig:\n  kind: C\n")
	f.Add("kind: ResourceList\nitems: [{kind: A}]\n")
	f.Add("kind: ResourceList\nitems:\n- a: &x 1\n- b: *x\n")
	f.Fuzz(func(t *testing.T, in string) {
		rl, err := readResourceList([]byte(in), limits.Default())
		if err != nil {
			return
		}
		var whole struct {
			Items          []any `yaml:"items"`
			FunctionConfig any   `yaml:"functionConfig"`
		}
		if yaml.Unmarshal([]byte(in), &whole) != nil {
			return // split read items the whole decoder refuses: items are checked one by one
		}
		checkItemLines(t, in, rl)
		gotItems, gotFC := splitItemsOf(t, rl)
		// Objects are maps of string keys: a null key reads as "" in
		// either decoding (go-yaml keeps it null in some contexts only).
		whole.Items, _ = stringKeys(whole.Items).([]any)
		gotItems, _ = stringKeys(gotItems).([]any)
		assert.Assert(t, is.DeepEqual(whole.Items, gotItems, cmpopts.EquateEmpty()), "items\n\ninput:\n%q", in)
		assert.Assert(t, is.DeepEqual(whole.FunctionConfig, gotFC), "functionConfig\n\ninput:\n%q", in)
	})
}

// checkItemLines fails when an item's line is not where go-yaml places
// it in the whole list (or its dash, alone on the line above).
func checkItemLines(t *testing.T, in string, rl *resourceList) {
	t.Helper()
	var doc yaml.Node
	if yaml.Unmarshal([]byte(in), &doc) != nil || len(doc.Content) == 0 {
		return
	}
	items := child(doc.Content[0], "items")
	if items == nil || items.Kind != yaml.SequenceNode || len(items.Content) != len(rl.items) {
		return
	}
	starts := strictyaml.LineStarts([]byte(in))
	for i, n := range items.Content {
		got := rl.items[i].line
		if got == n.Line {
			continue
		}
		if got < 1 || got > len(starts) || got > n.Line {
			t.Fatalf("items[%d] at line %d, go-yaml says %d\ninput: %q", i, got, n.Line, in)
		}
		end := len(in)
		if got < len(starts) {
			end = starts[got]
		}
		if strings.TrimSpace(in[starts[got-1]:end]) != "-" {
			t.Fatalf("items[%d] at line %d, go-yaml says %d (and line %d is no lone dash)\ninput: %q", i, got, n.Line, got, in)
		}
	}
}

// TestReadResourceListLines: items are placed on the lines go-yaml gives
// them, whatever the line breaks; a bad character and an alias fan-out
// are refused with the list's line and column.
func TestReadResourceListLines(t *testing.T) {
	for _, in := range []string{
		"kind: ResourceList\nitems:\n- kind: A\n- kind: B\n",
		"kind: ResourceList\r\nitems:\r\n- kind: A\r\n- kind: B\r\n",
		"kind: ResourceList\ritems:\r- kind: A\r- kind: B\n",
		"kind: ResourceList\nitems:\n- kind: A\r  x: 1\n- kind: B\n",
		"kind: ResourceList\nitems:\n- kind: A\u2028  x: 1\n- kind: B\n",
	} {
		rl, err := readResourceList([]byte(in), limits.Default())
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		checkItemLines(t, in, rl)
	}
	bomb := "kind: ResourceList\nitems:\n- kind: A\n- kind: B\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	defer limits.SetCurrent(limits.Current())
	limits.SetCurrent(limits.Limits{YAMLValues: 1000})
	for in, want := range map[string]string{
		bomb: "cannot read items[1]: line 7, column 38 of the ResourceList: alias *b (aliases expanded): YAML values exceeds the limit of 1000 values",
		strings.Replace(bomb, "items:", "\"items\":", 1): "cannot read the ResourceList: line 7, column 38: alias *b (aliases expanded)", // decoded whole
		"kind: ResourceList\ritems:\r- kind: A\x00\n":    "cannot read the ResourceList: line 3, column 10: holds a NUL byte",
	} {
		if _, err := readResourceList([]byte(in), limits.Current()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// TestReadHeadersFirstErrorWins: item headers are parsed concurrently,
// but the error is still the first bad item's, whatever the timing.
func TestReadHeadersFirstErrorWins(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range 200 {
		switch i {
		case 57, 120, 199:
			b.WriteString("- [not, a, mapping]\n")
		default:
			fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm-%d}\n", i)
		}
	}
	for range 20 {
		_, err := readResourceList([]byte(b.String()), limits.Default())
		if err == nil || !strings.Contains(err.Error(), "items[57]") {
			t.Fatalf("want the error of items[57], got %v", err)
		}
	}
}
