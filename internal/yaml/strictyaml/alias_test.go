package strictyaml

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
)

// laughs is a billion laughs of levels levels of ten aliases each, in
// the style given: "block" lists, "flow" lists, "merge" mappings (<<).
func laughs(levels int, style string) string {
	var b strings.Builder
	b.WriteString("l0: &l0 {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n")
	for i := 1; i < levels; i++ {
		switch style {
		case "flow":
			fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
		case "block":
			fmt.Fprintf(&b, "l%d: &l%d\n", i, i)
			for range 10 {
				fmt.Fprintf(&b, "  - *l%d\n", i-1)
			}
		case "merge":
			fmt.Fprintf(&b, "l%d: &l%d\n", i, i)
			for k := range 10 {
				fmt.Fprintf(&b, "  k%d: {<<: *l%d}\n", k, i-1)
			}
		}
	}
	return b.String()
}

func TestCheckAliases(t *testing.T) {
	for _, tc := range []struct {
		reason, text string
		max          int64
		count        int64 // when it passes
		line, column int   // where it fails (0: passes)
		cycle        bool
	}{
		{reason: "no aliases: every node but the keys (the document too)", text: "a: 1\nb: [1, 2]\nc: {d: 3}\n", max: 100, count: 8},
		{reason: "an alias is itself and its anchor's value", text: "a: &x [1, 2]\nb: *x\n", max: 100, count: 9},
		{reason: "a merge key's value counts", text: "a: &x {p: 1}\nb: {<<: *x, q: 2}\n", max: 100, count: 9},
		{reason: "exactly at the limit passes", text: "a: &x [1, 2]\nb: *x\n", max: 9, count: 9},
		{reason: "one over fails at the alias", text: "a: &x [1, 2]\nb: *x\n", max: 8, line: 2, column: 4},
		{reason: "flow billion laughs fails at the first alias over the limit", text: laughs(10, "flow"), max: 1_000_000, line: 6, column: 45},
		{reason: "block billion laughs", text: laughs(10, "block"), max: 1_000_000, line: 54, column: 5},
		{reason: "merge-key billion laughs", text: laughs(10, "merge"), max: 1_000_000, line: 53, column: 12},
		{reason: "an anchor's value that holds its own alias", text: "a: &x [1, *x]\n", max: 100, line: 1, column: 11, cycle: true},
		{reason: "a deep chain of one alias each level", text: "a: &a0 [x]\n" + chain(60), max: 100, line: 5, column: 10},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.text), &doc); err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		start := time.Now()
		count, err := CheckAliases(&doc, tc.max)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %s", tc.reason, took)
		}
		var ae *AliasError
		switch {
		case tc.line == 0 && (err != nil || count != tc.count):
			t.Errorf("%s: CheckAliases = %d, %v; want %d, nil", tc.reason, count, err, tc.count)
		case tc.line != 0 && !errors.As(err, &ae):
			t.Errorf("%s: CheckAliases = %d, %v; want an *AliasError", tc.reason, count, err)
		case tc.line != 0 && (ae.At.Line != tc.line || ae.At.Column != tc.column || ae.Cycle != tc.cycle):
			t.Errorf("%s: fails at %d:%d (cycle %v), want %d:%d (cycle %v): %v", tc.reason, ae.At.Line, ae.At.Column, ae.Cycle, tc.line, tc.column, tc.cycle, err)
		}
	}
}

// chain is levels anchors, each a list of two aliases of the one before.
func chain(levels int) string {
	var b strings.Builder
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	return b.String()
}

// TestParseRefusesAliasFanOut: every entry point refuses a fan-out that
// go-yaml's own ratio check lets through (a fan-out across types with
// UnmarshalYAML methods, each decoding with a fresh decoder), at once,
// at the alias, naming the limit.
func TestParseRefusesAliasFanOut(t *testing.T) {
	const fanOut = "x: &t [" + "a, a, a, a, a, a, a, a, a, a" + "]\n" +
		"y: &s {name: s, items: *t}\n" +
		"z: &ss [*s, *s, *s, *s, *s, *s, *s, *s, *s, *s]\n" +
		"list: [*ss, *ss, *ss, *ss, *ss, *ss, *ss, *ss, *ss, *ss]\n"
	defer limits.SetCurrent(limits.Current())
	limits.SetCurrent(limits.Limits{YAMLValues: 1000})
	want := "operator.yaml:4:33: alias *ss (aliases expanded): YAML values exceeds the limit of 1000 values (raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES)"
	var p Problems
	if n := Parse("operator.yaml", []byte(fanOut), &p); n != nil || len(p.List) != 1 || p.List[0].Error() != want {
		t.Errorf("Parse: %v, want %s", p.List, want)
	}
	for _, err := range Stream("operator.yaml", []byte("---\n"+fanOut)) {
		var d *diag.Diagnostic
		if !errors.As(err, &d) || d.Line != 5 || !strings.Contains(d.Msg, "--max-yaml-values") {
			t.Errorf("Stream: %v, want the alias at line 5", err)
		}
	}
	var doc yaml.Node
	yaml.Unmarshal([]byte(fanOut), &doc)
	var out struct {
		List [][]struct {
			Name  string   `yaml:"name"`
			Items []string `yaml:"items"`
		} `yaml:"list"`
	}
	p = Problems{}
	if Decode("operator.yaml", doc.Content[0], &out, &p) || len(p.List) != 1 || p.List[0].Line != 4 {
		t.Errorf("Decode of a node made elsewhere: %v, want the alias at line 4", p.List)
	}
	if _, err := Value(doc.Content[0]); err == nil {
		t.Error("Value: no error")
	}
}
