package tmpl

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Masterminds/sprig/v3"
	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// renderedLine returns the 1-based line of the rendered text that equals
// text, counting from the nth (1-based) such line.
func renderedLine(t *testing.T, out *Output, text string, nth int) int {
	t.Helper()
	for i, l := range strings.Split(string(out.Text), "\n") {
		if l == text {
			nth--
			if nth == 0 {
				return i + 1
			}
		}
	}
	t.Fatalf("rendered line %q not found in:\n%s", text, out.Text)
	return 0
}

type lineWant struct {
	rendered string // the rendered line's text
	nth      int    // which occurrence; 0 means the first
	want     int    // template line
}

func TestSourceLine(t *testing.T) {
	data := map[string]any{
		"Items": []string{"x", "y"},
		"On":    false,
		"Name":  "zk",
	}
	cases := map[string]struct {
		reason string
		src    string
		lines  []lineWant
	}{
		"PlainText": {
			reason: "Text copied from the template maps to the same line.",
			src:    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
			lines:  []lineWant{{rendered: "apiVersion: v1", want: 1}, {rendered: "  name: cm", want: 4}},
		},
		"ActionOnTheLine": {
			reason: "A line that mixes text and an action maps to the text's line.",
			src:    "apiVersion: v1\nmetadata:\n  name: {{ .Name }}-cm\n  namespace: ns\n",
			lines:  []lineWant{{rendered: "  name: zk-cm", want: 3}, {rendered: "  namespace: ns", want: 4}},
		},
		"Range": {
			reason: "Every iteration of a range body maps to the body's lines; text after the loop to its own line.",
			src: `items:
{{- range $i, $v := .Items }}
  - name: {{ $v }}
    index: {{ $i }}
{{- end }}
after: true
`,
			lines: []lineWant{
				{rendered: "  - name: x", want: 3},
				{rendered: "    index: 0", want: 4},
				{rendered: "  - name: y", want: 3},
				{rendered: "    index: 1", want: 4},
				{rendered: "after: true", want: 6},
			},
		},
		"IfElse": {
			reason: "The branch taken maps to its own lines.",
			src: `a: 1
{{- if .On }}
b: on
{{- else }}
b: off
{{- end }}
c: 3
`,
			lines: []lineWant{{rendered: "a: 1", want: 1}, {rendered: "b: off", want: 5}, {rendered: "c: 3", want: 7}},
		},
		"With": {
			reason: "A with body maps to its lines.",
			src:    "a: 1\n{{- with .Name }}\nname: {{ . }}\n{{- end }}\nz: 2\n",
			lines:  []lineWant{{rendered: "name: zk", want: 3}, {rendered: "z: 2", want: 5}},
		},
		"TrimMarkers": {
			reason: "{{- and -}} remove whitespace and newlines, and lines still map to where the text is.",
			src:    "a: 1\n\n\n{{- /* a comment\nover two lines */ -}}\n\n\nb: 2\nc: {{- \"  3\" }}\nd: 4\n",
			lines:  []lineWant{{rendered: "a: 1b: 2", want: 1}, {rendered: "c:  3", want: 9}, {rendered: "d: 4", want: 10}},
		},
		"DefineAndTemplate": {
			reason: "Text of a defined template maps to its lines inside the define; text around the call to its own lines.",
			src: `{{- define "labels" }}
app: x
tier: y
{{- end }}
metadata:
  labels:
{{- template "labels" }}
end: 1
`,
			lines: []lineWant{
				{rendered: "metadata:", want: 5},
				{rendered: "app: x", want: 2},
				{rendered: "tier: y", want: 3},
				{rendered: "end: 1", want: 8},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Render("templates/t.yaml", []byte(tc.src), data)
			if err != nil {
				t.Fatalf("\n%s\nRender(...): %v", tc.reason, err)
			}
			for _, l := range tc.lines {
				n := l.nth
				if n == 0 {
					n = 1
				}
				r := renderedLine(t, out, l.rendered, n)
				if got := out.SourceLine(r); got != l.want {
					t.Errorf("\n%s\nSourceLine(%d) for %q: want template line %d, got %d\nrendered:\n%s", tc.reason, r, l.rendered, l.want, got, out.Text)
				}
			}
		})
	}
}

func TestSourceLineBounds(t *testing.T) {
	out, err := Render("t", []byte("a: 1\nb: 2\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		line   int
		want   int
	}{
		"Zero":     {reason: "Line 0 is unknown.", line: 0, want: 0},
		"Negative": {reason: "Negative lines are unknown.", line: -3, want: 0},
		"First":    {reason: "Line 1 maps to 1.", line: 1, want: 1},
		"PastEnd":  {reason: "A line past the end maps to the end of the text.", line: 10, want: 3},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := out.SourceLine(tc.line); got != tc.want {
				t.Errorf("\n%s\nSourceLine(%d): want %d, got %d", tc.reason, tc.line, tc.want, got)
			}
		})
	}
	empty := &Output{Name: "e"}
	if got := empty.SourceLine(1); got != 0 {
		t.Errorf("SourceLine on empty output: want 0, got %d", got)
	}
}

// TestSourceLineMultiLineAction: the doc of SourceLine says output of an
// action maps to the line where the preceding text ended.
func TestSourceLineMultiLineAction(t *testing.T) {
	src := "spec:\n{{ toYaml .Spec | indent 2 }}\nend: 1\n"
	out, err := Render("t", []byte(src), map[string]any{"Spec": map[string]any{"a": 1, "b": 2, "c": 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"  a: 1", "  b: 2", "  c: 3"} {
		r := renderedLine(t, out, l, 1)
		if got := out.SourceLine(r); got != 2 {
			t.Errorf("SourceLine(%d) for %q: want 2 (the line of the action), got %d", r, l, got)
		}
	}
}

func TestDecode(t *testing.T) {
	type want struct {
		docs []Doc
		err  *Error
		msg  string // part of err.Msg
	}
	cases := map[string]struct {
		reason string
		src    string
		data   any
		want   want
	}{
		"SkipsEmptyDocuments": {
			reason: "Empty documents, comment-only documents and null documents are skipped; each object keeps its template line.",
			src: `---
---
# only a comment
---
apiVersion: v1
kind: A
---
null
---
~
---

apiVersion: v1
kind: B
`,
			want: want{docs: []Doc{
				{Map: map[string]any{"apiVersion": "v1", "kind": "A"}, Line: 5},
				{Map: map[string]any{"apiVersion": "v1", "kind": "B"}, Line: 13},
			}},
		},
		"EmptyOutput": {
			reason: "A template that renders nothing (a disabled feature) gives no objects and no error.",
			src:    "{{ if false }}\napiVersion: v1\nkind: A\n{{ end }}\n",
			want:   want{docs: nil},
		},
		"LinesThroughRange": {
			reason: "Objects produced in a loop carry the line where the loop body starts.",
			src:    "{{- range .Items }}\n---\napiVersion: v1\nkind: {{ . }}\n{{- end }}\n",
			data:   map[string]any{"Items": []string{"A", "B"}},
			want: want{docs: []Doc{
				{Map: map[string]any{"apiVersion": "v1", "kind": "A"}, Line: 3},
				{Map: map[string]any{"apiVersion": "v1", "kind": "B"}, Line: 3},
			}},
		},
		"NotAMappingList": {
			reason: "A list document is not a Kubernetes object.",
			src:    "apiVersion: v1\nkind: A\n---\n- a\n- b\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 4}, msg: "not a mapping"},
		},
		"NotAMappingScalar": {
			reason: "A scalar document is not a Kubernetes object.",
			src:    "just text\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "not a mapping"},
		},
		"NoKind": {
			reason: "A document without kind is rejected at its template line.",
			src:    "apiVersion: v1\nkind: A\n---\n# the next object\napiVersion: v1\nmetadata: {name: x}\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 5}, msg: "rendered object has no kind"},
		},
		"EmptyKind": {
			reason: "An empty kind counts as none.",
			src:    "apiVersion: v1\nkind: \"\"\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "has no kind"},
		},
		"NoAPIVersion": {
			reason: "A document without apiVersion is rejected.",
			src:    "kind: A\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "rendered object has no apiVersion"},
		},
		"NonStringKind": {
			reason: "kind must be a string.",
			src:    "apiVersion: v1\nkind: [A]\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "has no kind"},
		},
		"NonScalarKey": {
			reason: "Mapping keys must be scalars.",
			src:    "apiVersion: v1\nkind: A\n? [a, b]\n: c\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "mapping keys must be scalars"},
		},
		"SyntaxErrorAtTemplateLine": {
			reason: "A YAML error after rendering is reported at the template line that produced it, not the rendered line.",
			src: `apiVersion: v1
kind: ConfigMap
data:
{{- range $i, $v := .Items }}
  k{{ $i }}: {{ $v }}
{{- end }}
  bad: "unterminated
`,
			data: map[string]any{"Items": []string{"a", "b", "c", "d"}},
			want: want{err: &Error{Template: "templates/t.yaml", Line: 7}, msg: "invalid YAML after rendering"},
		},
		"MergeKey": {
			reason: "YAML merge keys are resolved; explicit keys win.",
			src:    "apiVersion: v1\nkind: A\nbase: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n",
			want: want{docs: []Doc{{Map: map[string]any{
				"apiVersion": "v1", "kind": "A",
				"base": map[string]any{"x": int64(1), "y": int64(2)},
				"m":    map[string]any{"x": int64(1), "y": int64(3)},
			}, Line: 1}}},
		},
		"MergeKeyNotAMapping": {
			reason: "A merge key needs a mapping.",
			src:    "apiVersion: v1\nkind: A\nm:\n  <<: 3\n",
			want:   want{err: &Error{Template: "templates/t.yaml", Line: 1}, msg: "merge key << needs a mapping"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Render("templates/t.yaml", []byte(tc.src), tc.data)
			if err != nil {
				t.Fatalf("\n%s\nRender(...): %v", tc.reason, err)
			}
			docs, err := Decode(out)
			if tc.want.err == nil {
				if err != nil {
					t.Fatalf("\n%s\nDecode(...): %v", tc.reason, err)
				}
				assert.Check(t, is.DeepEqual(tc.want.docs, docs), "%s\nDecode(...)", tc.reason)
				return
			}
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("\n%s\nDecode(...): want *tmpl.Error, got %T %v", tc.reason, err, err)
			}
			assert.Check(t, is.DeepEqual(*tc.want.err, *te, cmpIgnoreMsg()), "%s\nDecode(...):\n\n%v", tc.reason, err)
			if !strings.Contains(te.Msg, tc.want.msg) {
				t.Errorf("\n%s\nDecode(...): want message containing %q, got %q", tc.reason, tc.want.msg, te.Msg)
			}
		})
	}
}

func cmpIgnoreMsg() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Msg" }, cmp.Ignore())
}

func TestScalarConversion(t *testing.T) {
	cases := map[string]struct {
		reason string
		yaml   string
		want   any
	}{
		"Int":          {reason: "Integers are int64.", yaml: "3", want: int64(3)},
		"NegativeInt":  {reason: "Signs are kept.", yaml: "-42", want: int64(-42)},
		"Octal":        {reason: "A leading zero is octal, as in YAML 1.1 (file modes).", yaml: "0755", want: int64(0o755)},
		"OctalO":       {reason: "0o is octal.", yaml: "0o17", want: int64(15)},
		"Hex":          {reason: "0x is hexadecimal.", yaml: "0x1F", want: int64(31)},
		"Underscores":  {reason: "Underscores are digit separators.", yaml: "1_000", want: int64(1000)},
		"Exponent":     {reason: "1e3 is the float 1000.", yaml: "1e3", want: float64(1000)},
		"Float":        {reason: "Decimals are float64.", yaml: "1.5", want: 1.5},
		"FloatOne":     {reason: "1.0 stays a float.", yaml: "1.0", want: float64(1)},
		"BigInt":       {reason: "1000000 is an integer, never 1e+06.", yaml: "1000000", want: int64(1000000)},
		"Overflow":     {reason: "An integer beyond int64 becomes a float.", yaml: "9223372036854775808", want: float64(9223372036854775808)},
		"Infinity":     {reason: "Infinity has no JSON form and stays text.", yaml: ".inf", want: ".inf"},
		"NaN":          {reason: "NaN stays text.", yaml: ".nan", want: ".nan"},
		"True":         {reason: "true is a boolean.", yaml: "true", want: true},
		"TrueTitle":    {reason: "True is a boolean.", yaml: "True", want: true},
		"Yes":          {reason: "yes is a string (YAML 1.2), as for Kubernetes' JSON.", yaml: "yes", want: "yes"},
		"On":           {reason: "on is a string.", yaml: "on", want: "on"},
		"Null":         {reason: "null is nil.", yaml: "null", want: nil},
		"Tilde":        {reason: "~ is nil.", yaml: "~", want: nil},
		"Date":         {reason: "Timestamps stay strings.", yaml: "2001-12-14", want: "2001-12-14"},
		"Timestamp":    {reason: "Full timestamps stay strings.", yaml: "2001-12-14T21:59:43.10-05:00", want: "2001-12-14T21:59:43.10-05:00"},
		"Binary":       {reason: "!!binary stays its base64 text.", yaml: "!!binary aGVsbG8=", want: "aGVsbG8="},
		"QuotedNumber": {reason: "A quoted number is a string.", yaml: `"0755"`, want: "0755"},
		"StrTag":       {reason: "!!str makes a string.", yaml: "!!str 12", want: "12"},
		"Sexagesimal":  {reason: "1:20 is a string (no YAML 1.1 base 60).", yaml: "1:20", want: "1:20"},
		"List":         {reason: "Sequences are []any.", yaml: "[1, a, true]", want: []any{int64(1), "a", true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Render("t", []byte("apiVersion: v1\nkind: X\nv: "+tc.yaml+"\n"), nil)
			if err != nil {
				t.Fatal(err)
			}
			docs, err := Decode(out)
			if err != nil {
				t.Fatalf("\n%s\nDecode(...): %v", tc.reason, err)
			}
			got := docs[0].Map["v"]
			assert.Check(t, is.DeepEqual(tc.want, got, cmp.Comparer(func(a, b float64) bool {
				return a == b || (math.IsNaN(a) && math.IsNaN(b))
			})), "%s\nDecode(v: %s)", tc.reason, tc.yaml)
		})
	}
}

// TestDecodeAliasBomb: go-yaml refuses documents with excessive aliasing
// when it decodes into Go values, but Decode walks yaml.Nodes itself.
func TestDecodeAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: X\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "*a%d, ", i-1)
		}
		b.WriteString("]\n")
	}
	out, err := Render("t", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Decode(out); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Decode(alias bomb): want an error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Decode(alias bomb): still running after 5s")
	}
}

func TestDeniedFunctions(t *testing.T) {
	// Every function of full Sprig that is not on the allow-list: those
	// that read the clock, the environment, the network or randomness,
	// and those a new Sprig adds (randAlpha, genCA, dateInZone, ...).
	var names []string
	for name := range sprig.TxtFuncMap() {
		if !slices.Contains(Allowed, name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 30 {
		t.Fatalf("only %d Sprig functions withheld: the allow-list lets too much through", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if !Denied(name) {
				t.Errorf("Denied(%q): want true", name)
			}
			_, err := Parse("templates/t.yaml", []byte("a: 1\nb: {{ "+name+" }}\n"))
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("Parse({{ %s }}): want *tmpl.Error, got %v", name, err)
			}
			if te.Line != 2 || te.Template != "templates/t.yaml" || !strings.Contains(te.Msg, fmt.Sprintf("function %q not defined", name)) {
				t.Errorf("Parse({{ %s }}): want line 2 and `function %q not defined`, got %#v", name, name, te)
			}
		})
	}
}

func TestFuncMap(t *testing.T) {
	m := FuncMap()
	cases := map[string]struct {
		reason  string
		name    string
		present bool
	}{
		"ToYaml":        {reason: "KUDO's toYaml is added.", name: "toYaml", present: true},
		"Upper":         {reason: "Hermetic string functions stay.", name: "upper", present: true},
		"Sha256":        {reason: "Hashes are deterministic and stay.", name: "sha256sum", present: true},
		"B64":           {reason: "Encodings stay.", name: "b64enc", present: true},
		"DerivePass":    {reason: "derivePassword runs scrypt on every call: not on the allow-list.", name: "derivePassword"},
		"Hello":         {reason: "A function nobody listed is absent.", name: "hello"},
		"Printf":        {reason: "printf is text/template's, bounded.", name: "printf", present: true},
		"SemverCompare": {reason: "semverCompare stays.", name: "semverCompare", present: true},
		"Now":           {reason: "now reads the clock.", name: "now"},
		"Env":           {reason: "env reads the environment.", name: "env"},
		"Uuid":          {reason: "uuidv4 is random.", name: "uuidv4"},
		"Shuffle":       {reason: "shuffle is random.", name: "shuffle"},
		"GetHost":       {reason: "getHostByName uses the network.", name: "getHostByName"},
		"Bcrypt":        {reason: "bcrypt salts randomly.", name: "bcrypt"},
		"EncryptAES":    {reason: "encryptAES uses a random IV.", name: "encryptAES"},
		"UnixEpoch":     {reason: "unixEpoch formats a time from the clock.", name: "unixEpoch"},
		"DurationRound": {reason: "durationRound measures against now.", name: "durationRound"},
		"Date":          {reason: "date formats in the host's time zone.", name: "date"},
		"SnakeDate":     {reason: "date_in_zone is denied like dateInZone.", name: "date_in_zone"},
		"RandAlpha":     {reason: "rand* is random.", name: "randAlphaNum"},
		"GenCA":         {reason: "gen* generates keys.", name: "genSelfSignedCert"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, ok := m[tc.name]; ok != tc.present {
				t.Errorf("\n%s\nFuncMap()[%q]: want present %t, got %t", tc.reason, tc.name, tc.present, ok)
			}
		})
	}
	for name := range m {
		if Denied(name) {
			t.Errorf("FuncMap() offers denied function %q", name)
		}
	}
	for _, name := range Allowed {
		if _, ok := m[name]; !ok {
			t.Errorf("allow-listed function %q is not offered (not in Sprig?)", name)
		}
	}
}

func TestToYaml(t *testing.T) {
	cases := map[string]struct {
		reason string
		value  any
		want   string
	}{
		"Map": {
			reason: "Maps are written with sorted keys and a trailing newline; like KUDO (yaml.v2), YAML 1.1 booleans such as y are quoted.",
			value:  map[string]any{"b": 1, "a": []any{"x", "y"}, "c": map[string]any{"d": true}},
			want:   "a:\n- x\n- \"y\"\nb: 1\nc:\n  d: true\n",
		},
		"String": {
			reason: "A string is one line.",
			value:  "abc",
			want:   "abc\n",
		},
		"NumberLikeString": {
			reason: "A string that looks like a number is quoted so it stays a string.",
			value:  "1000000",
			want:   "\"1000000\"\n",
		},
		"Nil": {
			reason: "nil is null.",
			value:  nil,
			want:   "null\n",
		},
		"List": {
			reason: "Lists are block sequences.",
			value:  []any{1, "two"},
			want:   "- 1\n- two\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := Render("t", []byte("{{ toYaml .V }}"), map[string]any{"V": tc.value})
			if err != nil {
				t.Fatalf("\n%s\nRender(toYaml): %v", tc.reason, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, string(out.Text)), "%s\ntoYaml", tc.reason)
		})
	}
}

func TestExecuteErrors(t *testing.T) {
	params := map[string]any{"Params": map[string]any{"REPLICAS": "3"}, "Name": "zk"}
	cases := map[string]struct {
		reason string
		src    string
		want   Error
		msg    string
	}{
		"MissingParam": {
			reason: "missingkey=error: a parameter that is not defined fails at its line.",
			src:    "a: 1\nb: 2\nc: {{ .Params.REPLICA }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 3},
			msg:    "REPLICA",
		},
		"MissingTopLevel": {
			reason: "missingkey=error: an unknown variable fails too.",
			src:    "{{ .Nmae }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 1},
			msg:    "Nmae",
		},
		"MissingInRange": {
			reason: "An error inside a loop names the loop body's line.",
			src:    "list:\n{{- range $k, $v := .Params }}\n  - {{ $.Params.NOPE }}\n{{- end }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 3},
			msg:    "NOPE",
		},
		"FailFunction": {
			reason: "Sprig's fail aborts rendering with the template's message.",
			src:    "a: 1\n{{ fail \"REPLICAS must be odd\" }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 2},
			msg:    "REPLICAS must be odd",
		},
		"BadCall": {
			reason: "A function called with the wrong types fails at its line.",
			src:    "a: 1\n\nb: {{ add \"x\" }}\n{{ index .Params 3 }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 4},
			msg:    "index",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Render("templates/t.yaml", []byte(tc.src), params)
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("\n%s\nRender(...): want *tmpl.Error, got %T %v", tc.reason, err, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, *te, cmpIgnoreMsg()), "%s\nRender(...):\n\n%v", tc.reason, err)
			if !strings.Contains(te.Msg, tc.msg) || strings.Contains(te.Msg, "\n") {
				t.Errorf("\n%s\nRender(...): want one-line message containing %q, got %q", tc.reason, tc.msg, te.Msg)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]struct {
		reason string
		src    string
		want   Error
		msg    string
	}{
		"Unclosed": {
			reason: "An unclosed action is reported where text/template notices it, naming where it started.",
			src:    "a: 1\nb: {{ .Name \n",
			want:   Error{Template: "templates/t.yaml", Line: 3},
			msg:    "unclosed action started at templates/t.yaml:2",
		},
		"MissingEnd": {
			reason: "A missing end is reported at the end of the file.",
			src:    "{{ if .X }}\na: 1\n",
			want:   Error{Template: "templates/t.yaml", Line: 3},
			msg:    "unexpected EOF",
		},
		"UndefinedFunction": {
			reason: "An unknown function is refused at parse time.",
			src:    "a: 1\n\nb: {{ nope 1 }}\n",
			want:   Error{Template: "templates/t.yaml", Line: 3},
			msg:    `function "nope" not defined`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("templates/t.yaml", []byte(tc.src))
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("\n%s\nParse(...): want *tmpl.Error, got %T %v", tc.reason, err, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, *te, cmpIgnoreMsg()), "%s\nParse(...):\n\n%v", tc.reason, err)
			if !strings.Contains(te.Msg, tc.msg) {
				t.Errorf("\n%s\nParse(...): want message containing %q, got %q", tc.reason, tc.msg, te.Msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    Error
		want   string
	}{
		"WithLine":    {reason: "Template and line prefix the message.", err: Error{Template: "templates/a.yaml", Line: 3, Msg: "boom"}, want: "templates/a.yaml:3: boom"},
		"WithoutLine": {reason: "Line 0 is left out.", err: Error{Template: "templates/a.yaml", Msg: "boom"}, want: "templates/a.yaml: boom"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.err.Error()), "%s\nError()", tc.reason)
		})
	}
}

func TestTrees(t *testing.T) {
	tp, err := Parse("main", []byte(`{{ define "z" }}z{{ end }}{{ define "a" }}a{{ end }}x`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range tp.Trees() {
		got = append(got, tr.Name)
	}
	assert.Check(t, is.DeepEqual([]string{"a", "main", "z"}, got), "Trees()")
	if tp.Name() != "main" {
		t.Errorf("Name(): want main, got %q", tp.Name())
	}
}
