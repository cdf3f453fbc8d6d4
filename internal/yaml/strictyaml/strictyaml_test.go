package strictyaml

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/limits"
)

type testInner struct {
	Name  string   `yaml:"name"`
	Items []string `yaml:"items"`
}

// testInline's keys are testDoc's own (`yaml:",inline"`).
type testInline struct {
	Flat string `yaml:"flat"`
}

type testOpaque struct{ anything any }

func (*testOpaque) StrictYAMLOpaque() {}

func (o *testOpaque) UnmarshalYAML(n *yaml.Node) error { return n.Decode(&o.anything) }

type testDoc struct {
	Kind    string               `yaml:"kind"`
	Count   int                  `yaml:"count"`
	Enabled bool                 `yaml:"enabled"`
	Inner   testInner            `yaml:"inner"`
	List    []testInner          `yaml:"list"`
	ByName  map[string]testInner `yaml:"byName"`
	Ptr     *testInner           `yaml:"ptr"`
	Raw     yaml.Node            `yaml:"raw"`
	Opaque  testOpaque           `yaml:"opaque"`
	Skipped string               `yaml:"-"`
	Inlined testInline           `yaml:",inline"`
	NoTag   string
	hidden  string //nolint:unused // unexported fields are not YAML fields
}

// problemView drops Msg so that tests compare positions exactly and the
// message loosely.
type problemView struct {
	File  string
	Line  int
	Field string
}

func views(ps []*Problem) []problemView {
	var out []problemView
	for _, p := range ps {
		out = append(out, problemView{File: p.File, Line: p.Line, Field: p.Field})
	}
	return out
}

func TestDecode(t *testing.T) {
	type want struct {
		ok       bool
		problems []problemView
		msgs     []string // each must be contained in the message of the same problem
	}
	cases := map[string]struct {
		reason string
		yaml   string
		want   want
	}{
		"Valid": {
			reason: "A document that only uses declared fields decodes without problems.",
			yaml: `kind: X
count: 3
inner: {name: a, items: [x]}
list: [{name: b}]
byName: {k: {name: c}}
ptr: {name: d}
raw: {whatever: [1, 2]}
opaque: {any: {thing: goes}}
notag: lower-cased field name
flat: an inlined struct's key
`,
			want: want{ok: true},
		},
		"UnknownNextToInline": {
			reason: "The keys of an inlined struct are known at its parent's level, the others are still refused.",
			yaml:   "flat: a\nflta: b\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 2, Field: "flta"}},
				msgs:     []string{`unknown field "flta"`},
			},
		},
		"UnknownTopLevel": {
			reason: "An unknown key at the top level is reported with its line, its field path the key itself.",
			yaml:   "kind: X\nknd: Y\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 2, Field: "knd"}},
				msgs:     []string{`unknown field "knd"`},
			},
		},
		"UnknownNestedStruct": {
			reason: "An unknown key inside a nested struct names its path.",
			yaml:   "kind: X\ninner:\n  name: a\n  itmes: [x]\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 4, Field: "inner.itmes"}},
				msgs:     []string{`unknown field "itmes"`},
			},
		},
		"UnknownInList": {
			reason: "An unknown key inside a list element names the index and the key.",
			yaml:   "list:\n  - name: a\n  - name: b\n    nmae: c\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 4, Field: "list[1].nmae"}},
				msgs:     []string{`unknown field "nmae"`},
			},
		},
		"UnknownInMapValue": {
			reason: "An unknown key inside a map value names the map key and the key.",
			yaml:   "byName:\n  first:\n    name: a\n    bogus: 1\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 4, Field: "byName.first.bogus"}},
				msgs:     []string{`unknown field "bogus"`},
			},
		},
		"UnknownBehindPointer": {
			reason: "Pointers to structs are checked too.",
			yaml:   "ptr:\n  name: a\n  extra: b\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 3, Field: "ptr.extra"}},
				msgs:     []string{`unknown field "extra"`},
			},
		},
		"UnknownThroughAlias": {
			reason: "A struct reached through an alias is checked at its anchor's line, once per use.",
			yaml:   "list: [&a {name: a, wrong: b}]\ninner: *a\n",
			want: want{
				problems: []problemView{
					{File: "f.yaml", Line: 1, Field: "list[0].wrong"},
					{File: "f.yaml", Line: 1, Field: "inner.wrong"},
				},
				msgs: []string{`unknown field "wrong"`, `unknown field "wrong"`},
			},
		},
		"IgnoredFieldsAreUnknown": {
			reason: `Fields tagged "-" and unexported fields cannot be set from YAML.`,
			yaml:   "Skipped: a\nhidden: b\n",
			want: want{
				problems: []problemView{
					{File: "f.yaml", Line: 1, Field: "Skipped"},
					{File: "f.yaml", Line: 2, Field: "hidden"},
				},
				msgs: []string{`unknown field "Skipped"`, `unknown field "hidden"`},
			},
		},
		"NodeAndOpaqueNotChecked": {
			reason: "yaml.Node fields and Opaque types take any shape.",
			yaml:   "raw: {a: {b: c}}\nopaque: [1, {x: y}]\n",
			want:   want{ok: true},
		},
		"AllProblemsAtOnce": {
			reason: "Unknown fields and type errors are all reported in one call.",
			yaml:   "kind: X\nbad1: 1\ncount: abc\ninner:\n  bad2: 2\nenabled: maybe\n",
			want: want{
				problems: []problemView{
					{File: "f.yaml", Line: 2, Field: "bad1"},
					{File: "f.yaml", Line: 5, Field: "inner.bad2"},
					{File: "f.yaml", Line: 3, Field: "count"},
					{File: "f.yaml", Line: 6, Field: "enabled"},
				},
				msgs: []string{
					`unknown field "bad1"`,
					`unknown field "bad2"`,
					`expected an integer, got str "abc"`,
					`expected a boolean, got str "maybe"`,
				},
			},
		},
		"TypeErrorScalarForList": {
			reason: "A scalar where a list is expected is a type error with its line and field path, in words.",
			yaml:   "kind: X\ninner:\n  items: abc\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 3, Field: "inner.items"}},
				msgs:     []string{`expected a list, got str "abc"`},
			},
		},
		"ScalarForMapping": {
			reason: "A scalar where a mapping is expected (plans: deploy) names the field, not just the line (issue 26.7).",
			yaml:   "kind: X\nbyName: deploy\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 2, Field: "byName"}},
				msgs:     []string{`expected a mapping, got str "deploy"`},
			},
		},
		"ScalarInFlowListNamesItsIndex": {
			reason: "Of several values on one line, the one the message quotes is named.",
			yaml:   "kind: X\nlist: [{name: a}, {items: abc}]\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 2, Field: "list[1].items"}},
				msgs:     []string{`expected a list, got str "abc"`},
			},
		},
		"UnknownFieldDidYouMean": {
			reason: "A strict unknown field close to a known one gets a did you mean, as a lenient one does (spec.param, issue 26.7).",
			yaml:   "kind: X\ninner:\n  item: [a]\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 3, Field: "inner.item"}},
				msgs:     []string{`unknown field "item"; did you mean "items"?`},
			},
		},
		"DuplicateKey": {
			reason: "A duplicate mapping key is reported at its second occurrence.",
			yaml:   "kind: X\ncount: 1\nkind: Y\n",
			want: want{
				problems: []problemView{{File: "f.yaml", Line: 3}},
				msgs:     []string{`mapping key "kind" already defined at line 1`},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var p Problems
			n := Parse("f.yaml", []byte(tc.yaml), &p)
			if n == nil {
				t.Fatalf("Parse: %v", p.List)
			}
			var out testDoc
			ok := Decode("f.yaml", n, &out, &p)
			if ok != tc.want.ok {
				t.Errorf("\n%s\nDecode(...): want ok %t, got %t (%v)", tc.reason, tc.want.ok, ok, p.List)
			}
			assert.Check(t, is.DeepEqual(tc.want.problems, views(p.List)), "%s\nDecode(...)", tc.reason)
			for i, m := range tc.want.msgs {
				if i < len(p.List) && !strings.Contains(p.List[i].Msg, m) {
					t.Errorf("\n%s\nDecode(...): problem %d: want message containing %q, got %q", tc.reason, i, m, p.List[i].Msg)
				}
			}
		})
	}
}

func TestParse(t *testing.T) {
	type want struct {
		ok       bool
		kind     yaml.Kind
		problems []problemView
		msg      string
	}
	cases := map[string]struct {
		reason string
		yaml   string
		want   want
	}{
		"Mapping": {
			reason: "A mapping document returns its root mapping node.",
			yaml:   "a: 1\n",
			want:   want{ok: true, kind: yaml.MappingNode},
		},
		"Empty": {
			reason: "An empty file is a problem without a line.",
			yaml:   "",
			want:   want{problems: []problemView{{File: "f.yaml"}}, msg: "file is empty"},
		},
		"OnlyComments": {
			reason: "A file with only comments is empty.",
			yaml:   "# nothing here\n",
			want:   want{problems: []problemView{{File: "f.yaml"}}, msg: "file is empty"},
		},
		"ScannerErrorLine": {
			reason: "A scanner error is reported with the 1-based line it occurs on.",
			yaml:   "a: 1\nb: 2\nc: \"unterminated\n",
			want:   want{problems: []problemView{{File: "f.yaml", Line: 3}}, msg: "found unexpected end of stream"},
		},
		"MappingValuesLine": {
			reason: "A scanner error (a mapping value where none may be) is reported at its line.",
			yaml:   "a: 1\nb: 2\n  c: 3\n",
			want:   want{problems: []problemView{{File: "f.yaml", Line: 3}}, msg: "mapping values are not allowed"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var p Problems
			n := Parse("f.yaml", []byte(tc.yaml), &p)
			if got := n != nil; got != tc.want.ok {
				t.Fatalf("\n%s\nParse(...): want node %t, got %t (%v)", tc.reason, tc.want.ok, got, p.List)
			}
			if n != nil && n.Kind != tc.want.kind {
				t.Errorf("\n%s\nParse(...): want kind %v, got %v", tc.reason, tc.want.kind, n.Kind)
			}
			assert.Check(t, is.DeepEqual(tc.want.problems, views(p.List)), "%s\nParse(...)", tc.reason)
			if tc.want.msg != "" && len(p.List) > 0 {
				if strings.HasPrefix(p.List[0].Msg, "yaml:") || !strings.Contains(p.List[0].Msg, tc.want.msg) {
					t.Errorf("\n%s\nParse(...): want message containing %q without yaml: prefix, got %q", tc.reason, tc.want.msg, p.List[0].Msg)
				}
			}
		})
	}
}

func TestValue(t *testing.T) {
	type want struct {
		v   any
		err bool
	}
	cases := map[string]struct {
		reason string
		yaml   string // value of key v; "" leaves the node zero
		want   want
	}{
		"Absent": {
			reason: "A zero node (field not present) is nil.",
			want:   want{v: nil},
		},
		"Null": {
			reason: "null is nil.",
			yaml:   "v: null",
			want:   want{v: nil},
		},
		"Tilde": {
			reason: "~ is nil.",
			yaml:   "v: ~",
			want:   want{v: nil},
		},
		"Empty": {
			reason: "A key without value is nil.",
			yaml:   "v:",
			want:   want{v: nil},
		},
		"BigInteger": {
			reason: "1000000 stays 1000000, never 1e+06.",
			yaml:   "v: 1000000",
			want:   want{v: "1000000"},
		},
		"FloatKeepsText": {
			reason: "1.0 keeps its decimals.",
			yaml:   "v: 1.0",
			want:   want{v: "1.0"},
		},
		"Exponent": {
			reason: "1e3 keeps its exponent form.",
			yaml:   "v: 1e3",
			want:   want{v: "1e3"},
		},
		"Octal": {
			reason: "0755 keeps its leading zero.",
			yaml:   "v: 0755",
			want:   want{v: "0755"},
		},
		"Bool": {
			reason: "Booleans keep their text.",
			yaml:   "v: True",
			want:   want{v: "True"},
		},
		"QuotedString": {
			reason: "Quoted strings lose the quotes only.",
			yaml:   `v: "007"`,
			want:   want{v: "007"},
		},
		"EmptyString": {
			reason: "An empty quoted string is a value, not nil.",
			yaml:   `v: ""`,
			want:   want{v: ""},
		},
		"Timestamp": {
			reason: "Timestamps stay text.",
			yaml:   "v: 2024-01-02",
			want:   want{v: "2024-01-02"},
		},
		"List": {
			reason: "Lists decode into []any.",
			yaml:   "v: [a, 1, true]",
			want:   want{v: []any{"a", 1, true}},
		},
		"Map": {
			reason: "Mappings decode into map[string]any.",
			yaml:   "v: {a: {b: c}}",
			want:   want{v: map[string]any{"a": map[string]any{"b": "c"}}},
		},
		"Alias": {
			reason: "An alias takes the text of its anchor.",
			yaml:   "x: &a 1000000\nv: *a",
			want:   want{v: "1000000"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var n yaml.Node
			if tc.yaml != "" {
				var doc struct {
					V yaml.Node `yaml:"v"`
					X yaml.Node `yaml:"x"`
				}
				if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
					t.Fatal(err)
				}
				n = doc.V
			}
			got, err := Value(&n)
			if (err != nil) != tc.want.err {
				t.Errorf("\n%s\nValue(...): want error %t, got %v", tc.reason, tc.want.err, err)
			}
			assert.Check(t, is.DeepEqual(tc.want.v, got), "%s\nValue(...)", tc.reason)
		})
	}
}

func TestProblemError(t *testing.T) {
	cases := map[string]struct {
		reason string
		p      Problem
		want   string
	}{
		"Full": {
			reason: "File, line, field and message.",
			p:      Problem{File: "operator.yaml", Line: 12, Field: "tasks[1].spec", Msg: `unknown field "resourcs"`},
			want:   `operator.yaml:12: tasks[1].spec: unknown field "resourcs"`,
		},
		"NoLine": {
			reason: "Line 0 is left out.",
			p:      Problem{File: "operator.yaml", Field: "name", Msg: "is required"},
			want:   "operator.yaml: name: is required",
		},
		"NoField": {
			reason: "An empty field is left out.",
			p:      Problem{File: "params.yaml", Line: 3, Msg: "bad"},
			want:   "params.yaml:3: bad",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.p.Error()), "%s\nError()", tc.reason)
		})
	}
}

// TestDecodeCollectionTypeError: a mapping or list where another shape is
// expected should read like the scalar type errors ("expected a list, got
// map") and must not show Go type names of the decoder.
func TestDecodeCollectionTypeError(t *testing.T) {
	cases := map[string]struct {
		reason string
		yaml   string
		line   int
		msg    string
	}{
		"MapForList": {
			reason: "A mapping where a list is expected.",
			yaml:   "kind: X\nlist:\n  name: a\n",
			line:   3,
			msg:    "expected a list, got map",
		},
		"ListForStruct": {
			reason: "A list where a mapping is expected.",
			yaml:   "kind: X\ninner: [a, b]\n",
			line:   2,
			msg:    "expected a mapping, got seq",
		},
		"MapForString": {
			reason: "A mapping where a string is expected.",
			yaml:   "kind: {a: b}\n",
			line:   1,
			msg:    "expected a string, got map",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var p Problems
			n := Parse("f.yaml", []byte(tc.yaml), &p)
			var out testDoc
			Decode("f.yaml", n, &out, &p)
			if len(p.List) != 1 {
				t.Fatalf("\n%s\nDecode(...): want 1 problem, got %v", tc.reason, p.List)
			}
			if p.List[0].Line != tc.line || !strings.Contains(p.List[0].Msg, tc.msg) || strings.Contains(p.List[0].Msg, "strictyaml.") {
				t.Errorf("\n%s\nDecode(...): want line %d and message containing %q without Go types, got %v", tc.reason, tc.line, tc.msg, p.List[0])
			}
		})
	}
}

// TestParseParserErrorLine: go-yaml reports parser (not scanner) errors
// with a 0-based line; package tmpl corrects that, strictyaml does not.
func TestParseParserErrorLine(t *testing.T) {
	cases := map[string]struct {
		reason string
		yaml   string
		line   int
	}{
		"ListItemInMapping": {
			reason: "A list item after a mapping key is on line 3.",
			yaml:   "kind: X\nname: a\n- b\n",
			line:   3,
		},
		"BadIndent": {
			reason: "The key indented by one space is on line 4.",
			yaml:   "a:\n  - 1\n  - 2\n b: 3\n",
			line:   4,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var p Problems
			if n := Parse("f.yaml", []byte(tc.yaml), &p); n != nil || len(p.List) != 1 {
				t.Fatalf("\n%s\nParse(...): want one problem, got %v", tc.reason, p.List)
			}
			if got := p.List[0].Line; got != tc.line {
				t.Errorf("\n%s\nParse(...): want line %d, got %d (%v)", tc.reason, tc.line, got, p.List[0])
			}
		})
	}
}

func TestLineOf(t *testing.T) {
	const doc = `apiVersion: v1
metadata:
  name: x
spec:
  framework:
    path: ../zk
  list: [a, b]
`
	cases := map[string]struct {
		reason string
		path   []string
		want   int
	}{
		"NoPath":       {reason: "Without a path it is the mapping's own line.", want: 1},
		"TopLevel":     {reason: "A top-level key is found at its line.", path: []string{"spec"}, want: 4},
		"Nested":       {reason: "A nested key is found at its line.", path: []string{"spec", "framework", "path"}, want: 6},
		"MissingLeaf":  {reason: "A missing field points at its parent.", path: []string{"metadata", "namespace"}, want: 2},
		"MissingRoot":  {reason: "A missing top-level field points at the mapping.", path: []string{"kind"}, want: 1},
		"ThroughList":  {reason: "A path that meets a non-mapping stops there.", path: []string{"spec", "list", "x"}, want: 7},
		"DeepMissing":  {reason: "The deepest existing part of the path wins.", path: []string{"spec", "framework", "ref", "x"}, want: 5},
		"ScalarParent": {reason: "A scalar on the way stops the walk.", path: []string{"apiVersion", "x"}, want: 1},
	}
	var p Problems
	n := Parse("f.yaml", []byte(doc), &p)
	if n == nil {
		t.Fatal(p.List)
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := LineOf(n, tc.path...); got != tc.want {
				t.Errorf("\n%s\nLineOf(%v): want %d, got %d", tc.reason, tc.path, tc.want, got)
			}
		})
	}
	if got := LineOf(nil, "a"); got != 0 {
		t.Errorf("LineOf(nil): want 0, got %d", got)
	}
}

func TestCheckValues(t *testing.T) {
	lim := limits.Default()
	lim.YAMLValues = 1000
	limits.SetCurrent(lim)
	defer limits.SetCurrent(limits.Default())
	small := []byte("a: 1\nb: [1, 2, 3]\n")
	if err := CheckValues(small, "x.yaml"); err != nil {
		t.Errorf("a small document: %v", err)
	}
	flow := []byte("[" + strings.Repeat("a,", 1000) + "a]")
	if err := CheckValues(flow, "x.yaml"); err == nil || !strings.Contains(err.Error(), "--max-yaml-values") {
		t.Errorf("a flow list of 1,001 values over a limit of 1,000: got %v", err)
	}
	var p Problems
	if Parse("params.yaml", flow, &p); len(p.List) != 1 || p.List[0].File != "params.yaml" {
		t.Errorf("Parse must refuse it before decoding, naming the file: %v", p.List)
	}
	// A stream is checked document by document: many small documents pass.
	stream := []byte(strings.Repeat("---\na: 1\nb: 2\n", 2000))
	if line, err := CheckStream(stream, "out"); err != nil {
		t.Errorf("2,000 small documents: line %d: %v", line, err)
	}
	big := append([]byte("---\na: 1\n---\n"), flow...)
	if line, err := CheckStream(big, "out"); err == nil || line != 3 {
		t.Errorf("the large document starts at line 3: got %d, %v", line, err)
	}
}

// FuzzMaxValues: the estimate never undercounts the nodes a decoder makes.
func FuzzMaxValues(f *testing.F) {
	for _, s := range []string{"a: 1\n", "[a, b, {c: d}]", "- a\n- b: [1,2]\n", "a: &x [1]\nb: *x\n", "? a\n: b\n", "\"a\": 'b'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(s), &doc) != nil {
			return
		}
		var count func(n *yaml.Node) int64
		count = func(n *yaml.Node) int64 {
			c := int64(1)
			for _, x := range n.Content {
				c += count(x)
			}
			return c
		}
		if got, est := count(&doc), MaxValues([]byte(s)); got > est+1 {
			t.Fatalf("%q decodes into %d nodes, estimated %d", s, got, est)
		}
	})
}

// TestSpellNulls: re-encoding a decoded document keeps a key without a
// value null in flow style, and block style as it was.
func TestSpellNulls(t *testing.T) {
	for in, want := range map[string]string{
		"a: {d}\nb: 1\n":          "a: {d: null}\nb: 1\n",
		"a:\n  d:\nb: [x, {y}]\n": "a:\n    d:\nb: [x, {y: null}]\n", // go-yaml indents by 4
		"a: {d: ''}\n":            "a: {d: ''}\n",
		"a: {d: ~}\n":             "a: {d: ~}\n",
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(in), &n); err != nil {
			t.Fatal(err)
		}
		SpellNulls(&n)
		out, err := yaml.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != want {
			t.Errorf("%q: got %q, want %q", in, out, want)
		}
		var before, after any
		yaml.Unmarshal([]byte(in), &before)
		yaml.Unmarshal(out, &after)
		if !reflect.DeepEqual(before, after) {
			t.Errorf("%q: reads back as %v, was %v", in, after, before)
		}
	}
}

// TestParseAsGoYAML: Parse returns go-yaml's root node, whether simpleyaml
// or go-yaml parsed the file (one document or several, plain or not).
func TestParseAsGoYAML(t *testing.T) {
	for _, data := range []string{
		"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    description: \"x, y: z\"\n    default: \"1\"\n",
		"a: 1\n---\nb: 2\n",
		"---\na: 1\n",
		"a: 1 # comment\nb: [x]\n",
		"k: v\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(data), &doc); err != nil {
			t.Fatal(err)
		}
		var p Problems
		got := Parse("f.yaml", []byte(data), &p)
		if got == nil || len(p.List) > 0 {
			t.Fatalf("%q: %v", data, p.List)
		}
		assert.Check(t, is.DeepEqual(nodeText(doc.Content[0]), nodeText(got)), "%q: -go", data)
	}
}

// nodeText lists a node tree, a node a line.
func nodeText(root *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%d %v %s %q %v %d:%d\n", depth, n.Kind, n.Tag, n.Value, n.Style, n.Line, n.Column)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

// TestSyntaxLine (issue 26.7): a bad indentation and a tab are reported at
// the line of the mistake, as Helm reports them; go-yaml v3 put the first
// where the enclosing block starts and the second one line early.
func TestSyntaxLine(t *testing.T) {
	cases := []struct {
		reason, yaml, msg string
		line              int
	}{
		{"a list item indented less than its siblings, deep in a block, is at its own line (v3: the block's start, 8 lines early)",
			"name: demo\ntasks:\n  - name: app\n    spec:\n      resources:\n        - a.yaml\n        - b.yaml\n        - c.yaml\n        - d.yaml\n     - e.yaml\n",
			"did not find expected key", 10},
		{"a key indented less than its siblings in a step is at its own line",
			"plans:\n  deploy:\n    phases:\n      - name: main\n        steps:\n          - name: s\n           tasks: [app]\n",
			"did not find expected '-' indicator", 7},
		{"a tab that violates indentation is at its own line (v3: the line before)",
			"a:\n  b: 1\n\tc: 2\n",
			"found a tab character that violates indentation", 3},
		{"an unclosed flow sequence is left where go-yaml v3 reports it, not moved to the end of the file where v2 notices it",
			"a: [1, 2\nb: 3\nc: 4\n",
			"did not find expected ',' or ']'", 2},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			var p Problems
			if n := Parse("f.yaml", []byte(c.yaml), &p); n != nil || len(p.List) != 1 {
				t.Fatalf("Parse: want one problem, got %v", p.List)
			}
			if got := p.List[0]; got.Line != c.line || got.Msg != c.msg {
				t.Errorf("got line %d %q, want line %d %q", got.Line, got.Msg, c.line, c.msg)
			}
		})
	}
}
