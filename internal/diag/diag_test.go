package diag_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

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
			if diff := cmp.Diff(tc.want, tc.d.Error()); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
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
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	if got := len(diag.From(fmt.Errorf("wrapped: %w", err))); got != 2 {
		t.Errorf("From of a wrapped Error: %d diagnostics, want 2", got)
	}
	var d *diag.Diagnostic
	if !errors.As(err, &d) || d.File != "b.yaml" {
		t.Errorf("errors.As must reach the first diagnostic, got %v", d)
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
