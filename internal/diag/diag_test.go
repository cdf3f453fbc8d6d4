package diag_test

import (
	"errors"
	"fmt"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/diag"
)

func TestDiagnosticError(t *testing.T) {
	cases := map[string]struct {
		reason string
		d      diag.Diagnostic
		want   string
	}{
		"full": {
			reason: "every part known: file:line: field: message",
			d:      diag.Diagnostic{File: "params.yaml", Line: 12, Field: "parameters[3].default", Msg: "is not an integer"},
			want:   "params.yaml:12: parameters[3].default: is not an integer",
		},
		"column": {
			reason: "a column is written after the line: file:line:column",
			d:      diag.Diagnostic{File: "operator.yaml", Line: 3, Column: 7, Msg: "holds a NUL byte"},
			want:   "operator.yaml:3:7: holds a NUL byte",
		},
		"column without file": {
			reason: "a place in an unnamed input says 'line' and 'column'",
			d:      diag.Diagnostic{Line: 3, Column: 7, Msg: "m"},
			want:   "line 3, column 7: m",
		},
		"column without line": {
			reason: "a column alone says nothing and is left out",
			d:      diag.Diagnostic{File: "operator.yaml", Column: 7, Msg: "m"},
			want:   "operator.yaml: m",
		},
		"no line": {
			reason: "an unknown line is left out",
			d:      diag.Diagnostic{File: "params.yaml", Field: "x", Msg: "m"},
			want:   "params.yaml: x: m",
		},
		"message only": {
			reason: "no file, no field",
			d:      diag.Diagnostic{Msg: "m"},
			want:   "m",
		},
		"line without file": {
			reason: "a line of an unnamed input says 'line'",
			d:      diag.Diagnostic{Line: 3, Msg: "m"},
			want:   "line 3: m",
		},
		"resource": {
			reason: "the resource comes before the field",
			d:      diag.Diagnostic{Resource: &diag.Resource{Kind: "Secret", Namespace: "ns", Name: "s"}, Field: "data.x", Msg: "m"},
			want:   "Secret ns/s: data.x: m",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, is.DeepEqual(tc.want, tc.d.Error()), "%s", tc.reason)
		})
	}
}

func TestListErr(t *testing.T) {
	var l diag.List
	if l.Err("head") != nil {
		t.Fatal("an empty list must give no error")
	}
	l.Warn("a.yaml", 1, "f", "only a warning")
	if l.Err("head") != nil {
		t.Fatal("warnings alone must give no error")
	}
	l.Add("b.yaml", 2, "g", "bad %d", 1)
	l.Add("c.yaml", 0, "", "worse")
	err := l.Err(`cannot load framework "x"`)
	want := "cannot load framework \"x\": 2 problems:\n  b.yaml:2: g: bad 1\n  c.yaml: worse"
	assert.Check(t, is.DeepEqual(want, err.Error()))
	if got := len(diag.From(fmt.Errorf("wrapped: %w", err))); got != 2 {
		t.Errorf("From of a wrapped Error: %d diagnostics, want 2", got)
	}
	var d *diag.Diagnostic
	if !errors.As(err, &d) || d.File != "b.yaml" {
		t.Errorf("errors.As must reach the first diagnostic, got %v", d)
	}
}

// carrier is an error of another package that hands on its diagnostics.
type carrier struct{ ds []*diag.Diagnostic }

func (c *carrier) Error() string                   { return "carrier" }
func (c *carrier) Diagnostics() []*diag.Diagnostic { return c.ds }

func TestFrom(t *testing.T) {
	a := &diag.Diagnostic{File: "a.yaml", Line: 1, Field: "x", Msg: "bad a"}
	b := &diag.Diagnostic{File: "b.yaml", Line: 2, Field: "y", Msg: "bad b"}
	c := &diag.Diagnostic{File: "c.yaml", Line: 3, Field: "z", Msg: "bad c"}
	type view struct{ File, Field, Msg string }
	cases := map[string]struct {
		reason string
		err    error
		want   []view
	}{
		"Diagnostic": {
			reason: "A diagnostic is its own.",
			err:    a,
			want:   []view{{"a.yaml", "x", "bad a"}},
		},
		"WrappedDiagnostic": {
			reason: "The context of plain wrappers goes before the message of a diagnostic, outermost first.",
			err:    fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", a)),
			want:   []view{{"a.yaml", "x", "outer: inner: bad a"}},
		},
		"RewordedWrapper": {
			reason: "A wrapper whose message does not end with its cause's is kept whole.",
			err:    &reworded{a},
			want:   []view{{"", "", "reworded"}},
		},
		"Carrier": {
			reason: "A carrier's diagnostics, found through wrappers, without the wrappers' context.",
			err:    fmt.Errorf("ctx: %w", &carrier{[]*diag.Diagnostic{a, b}}),
			want:   []view{{"a.yaml", "x", "bad a"}, {"b.yaml", "y", "bad b"}},
		},
		"Joined": {
			reason: "Every branch of a joined error gives its diagnostics, not only the first (issue 25.3).",
			err:    fmt.Errorf("render: %w", errors.Join(&carrier{[]*diag.Diagnostic{a}}, fmt.Errorf("w: %w", &carrier{[]*diag.Diagnostic{b, c}}))),
			want:   []view{{"a.yaml", "x", "bad a"}, {"b.yaml", "y", "bad b"}, {"c.yaml", "z", "bad c"}},
		},
		"JoinedWithPlain": {
			reason: "A branch without diagnostics gives one holding its message.",
			err:    errors.Join(a, errors.New("plain")),
			want:   []view{{"a.yaml", "x", "bad a"}, {"", "", "plain"}},
		},
		"MultiWrap": {
			reason: "fmt.Errorf with several %w is walked like errors.Join.",
			err:    fmt.Errorf("%w; %w", &carrier{[]*diag.Diagnostic{a}}, b),
			want:   []view{{"a.yaml", "x", "bad a"}, {"b.yaml", "y", "bad b"}},
		},
		"EmptyCarrier": {
			reason: "A carrier without diagnostics is walked through, as a plain wrapper.",
			err:    &emptyCarrier{b},
			want:   []view{{"b.yaml", "y", "empty: bad b"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []view
			for _, d := range diag.From(tc.err) {
				got = append(got, view{d.File, d.Field, d.Msg})
			}
			assert.Check(t, is.DeepEqual(tc.want, got), "%s\nFrom(%v)", tc.reason, tc.err)
		})
	}
	if a.Msg != "bad a" {
		t.Errorf("From changed a diagnostic of the error: %q", a.Msg)
	}
}

type reworded struct{ err error }

func (r *reworded) Error() string { return "reworded" }
func (r *reworded) Unwrap() error { return r.err }

type emptyCarrier struct{ err error }

func (e *emptyCarrier) Error() string                   { return "empty: " + e.err.Error() }
func (e *emptyCarrier) Unwrap() error                   { return e.err }
func (e *emptyCarrier) Diagnostics() []*diag.Diagnostic { return nil }

func TestInDir(t *testing.T) {
	var l diag.List
	l.Add("operator.yaml", 9, "tasks[0]", "bad")
	l.Add("", 0, "", "no file")
	l.Add("/abs/x.yaml", 1, "", "absolute")
	l.Add("", 0, "", "base/operator.yaml: is not \"operator.yaml:\" nor (operator.yaml: here)")
	err := diag.InDir("./zk", l.Err("head"))
	want := "head: 4 problems:\n  zk/operator.yaml:9: tasks[0]: bad\n  no file\n  /abs/x.yaml:1: absolute\n  base/operator.yaml: is not \"operator.yaml:\" nor (zk/operator.yaml: here)"
	assert.Check(t, is.DeepEqual(want, err.Error()), "InDir's message names the files where they are")
	var got []string
	for _, d := range diag.From(err) {
		got = append(got, d.File)
	}
	assert.Check(t, is.DeepEqual([]string{"zk/operator.yaml", "", "/abs/x.yaml", ""}, got), "files")
	if l.List[0].File != "operator.yaml" {
		t.Error("InDir changed a diagnostic of its cause")
	}
	if e := errors.New("x"); diag.InDir("", e) != e || diag.InDir(".", e) != e || diag.InDir("zk", nil) != nil {
		t.Error("InDir of no folder or no error must be the error")
	}
}

func TestFromPlainError(t *testing.T) {
	ds := diag.From(errors.New("boom"))
	if len(ds) != 1 || ds[0].Msg != "boom" || ds[0].File != "" {
		t.Fatalf("From(plain) = %+v", ds)
	}
	if diag.From(nil) != nil {
		t.Fatal("From(nil) must be nil")
	}
}

func TestLimitError(t *testing.T) {
	e := &diag.LimitError{Limit: "template output", Max: 16 << 20, Unit: "bytes", Raise: "--max-template-bytes", Where: "templates/cm.yaml"}
	want := "templates/cm.yaml: template output exceeds the limit of 16777216 bytes (raise it with --max-template-bytes)"
	if e.Error() != want {
		t.Errorf("got %q, want %q", e.Error(), want)
	}
}

func ExampleList() {
	var l diag.List
	l.Add("params.yaml", 12, "parameters[3].default", "%q is not an integer", "x")
	fmt.Println(l.Err(`cannot load framework "zookeeper"`))
	// Output: cannot load framework "zookeeper": params.yaml:12: parameters[3].default: "x" is not an integer
}

// TestCollapse: a problem repeated over objects or instances is said once,
// with a count (issue 33.3: 1,000 instances printed 1,000 lines).
func TestCollapse(t *testing.T) {
	pdb := func(ns, name string) *diag.Diagnostic {
		return &diag.Diagnostic{Severity: diag.SeverityInfo, File: "templates/pdb.yaml", Line: 1, Msg: "converted",
			Resource: &diag.Resource{APIVersion: "policy/v1beta1", Kind: "PodDisruptionBudget", Namespace: ns, Name: name}}
	}
	typo := func() *diag.Diagnostic {
		return &diag.Diagnostic{Severity: diag.SeverityWarning, File: "dep/params.yaml", Line: 3, Field: "parameters[0].defualt", Msg: "unknown field"}
	}
	cases := map[string]struct {
		reason string
		in     []*diag.Diagnostic
		want   []string
	}{
		"Distinct": {
			reason: "Different problems stay apart, in order.",
			in:     []*diag.Diagnostic{typo(), pdb("a", "x")},
			want:   []string{"dep/params.yaml:3: parameters[0].defualt: unknown field", "templates/pdb.yaml:1: PodDisruptionBudget a/x: converted"},
		},
		"OverObjects": {
			reason: "One problem of many objects names the first and counts the others, naming three.",
			in:     []*diag.Diagnostic{pdb("a", "x"), pdb("a", "y"), typo(), pdb("b", "x"), pdb("a", "z"), pdb("a", "w")},
			want:   []string{"templates/pdb.yaml:1: PodDisruptionBudget a/x: converted (and 4 more objects: a/y, b/x, a/z, …)", "dep/params.yaml:3: parameters[0].defualt: unknown field"},
		},
		"OneOther": {
			reason: "One other object is named.",
			in:     []*diag.Diagnostic{pdb("a", "x"), pdb("a", "y")},
			want:   []string{"templates/pdb.yaml:1: PodDisruptionBudget a/x: converted (and 1 more object: a/y)"},
		},
		"Exact": {
			reason: "An exact repeat (a dependency's typo in every instance) is counted.",
			in:     []*diag.Diagnostic{typo(), typo(), typo()},
			want:   []string{"dep/params.yaml:3: parameters[0].defualt: unknown field (3 times)"},
		},
		"SameObjectTwice": {
			reason: "The same object twice is one object.",
			in:     []*diag.Diagnostic{pdb("a", "x"), pdb("a", "x")},
			want:   []string{"templates/pdb.yaml:1: PodDisruptionBudget a/x: converted (2 times)"},
		},
		"OtherKind": {
			reason: "Another kind is another problem.",
			in: []*diag.Diagnostic{pdb("a", "x"), {Severity: diag.SeverityInfo, File: "templates/pdb.yaml", Line: 1, Msg: "converted",
				Resource: &diag.Resource{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "y"}}},
			want: []string{"templates/pdb.yaml:1: PodDisruptionBudget a/x: converted", "templates/pdb.yaml:1: ConfigMap a/y: converted"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			texts := func(ds []*diag.Diagnostic) []string {
				var out []string
				for _, d := range ds {
					out = append(out, d.Error())
				}
				return out
			}
			before := texts(tc.in)
			assert.Check(t, is.DeepEqual(tc.want, texts(diag.Collapse(tc.in))), tc.reason)
			assert.Check(t, is.DeepEqual(before, texts(tc.in)), "Collapse changed its input")
		})
	}
}

func ExampleCollapse() {
	var found []*diag.Diagnostic
	for _, inst := range []string{"zk-0", "zk-1", "zk-2", "zk-3", "zk-4"} {
		found = append(found, &diag.Diagnostic{File: "templates/pdb.yaml", Line: 1, Msg: "converted policy/v1beta1 PodDisruptionBudget to policy/v1",
			Resource: &diag.Resource{APIVersion: "policy/v1beta1", Kind: "PodDisruptionBudget", Namespace: "data", Name: inst + "-pdb"}})
	}
	for _, d := range diag.Collapse(found) {
		fmt.Println(d)
	}
	// Output:
	// templates/pdb.yaml:1: PodDisruptionBudget data/zk-0-pdb: converted policy/v1beta1 PodDisruptionBudget to policy/v1 (and 4 more objects: data/zk-1-pdb, data/zk-2-pdb, data/zk-3-pdb, …)
}
