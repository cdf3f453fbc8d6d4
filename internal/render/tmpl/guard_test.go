package tmpl

import (
	"runtime"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// TestGrowthIsBounded runs each function whose cost grows with an
// argument with arguments that would allocate gigabytes: each must fail
// naming the limit, before allocating.
func TestGrowthIsBounded(t *testing.T) {
	cases := []struct {
		reason, src, want string
	}{
		{"repeat multiplies", `{{ repeat 2000000000 "xxxxxxxx" }}`, "template output exceeds"},
		{"indent multiplies by lines", `{{ $s := repeat 100000 "\n" }}{{ indent 100000 $s }}`, "template output exceeds"},
		{"nindent too", `{{ nindent 2000000000 "a" }}`, "template output exceeds"},
		{"replace with an empty old string", `{{ $s := repeat 100000 "a" }}{{ replace "" (repeat 1000 "b") $s }}`, "template output exceeds"},
		{"regexReplaceAll of empty matches", `{{ $s := repeat 100000 "a" }}{{ regexReplaceAll "" $s (repeat 1000 "b") }}`, "exceeds the limit"},
		{"regexReplaceAll with group references", `{{ $s := repeat 10000 "a" }}{{ regexReplaceAll "(a)" $s "$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1$1" }}`, "exceeds the limit"},
		{"printf width", `{{ printf "%0999999999d" 1 }}`, "template output exceeds"},
		{"printf star width", `{{ printf "%*d" 999999999 1 }}`, "template output exceeds"},
		{"printf precision", `{{ printf "%.999999999f" 1.0 }}`, "template output exceeds"},
		{"until", `{{ until 2000000000 }}`, "list size exceeds"},
		{"untilStep overflow", `{{ untilStep -9223372036854775807 9223372036854775807 1 }}`, "list size exceeds"},
		{"seq", `{{ seq 1 2000000000 }}`, "list size exceeds"},
		{"splitList of every character", `{{ $s := repeat 200000 "a" }}{{ splitList "" $s }}`, "list size exceeds"},
		{"join of a big list", `{{ $l := list }}{{ $s := repeat 1000000 "a" }}{{ range until 100 }}{{ $l = append $l $s }}{{ end }}{{ join "," $l }}`, "exceeds the limit"},
		{"printing a shared structure", `{{ $s := repeat 1000000 "a" }}{{ $l := list }}{{ range until 100 }}{{ $l = append $l $s }}{{ end }}{{ $l }}`, "exceeds the limit"},
		{"toYaml of a shared structure", `{{ $s := repeat 1000000 "a" }}{{ $l := list }}{{ range until 100 }}{{ $l = append $l $s }}{{ end }}{{ toYaml $l }}`, "exceeds the limit"},
		{"cat", `{{ $s := repeat 10000000 "a" }}{{ cat $s $s }}`, "template output exceeds"},
		{"quote", `{{ $s := repeat 10000000 "a" }}{{ quote $s $s }}`, "template output exceeds"},
		{"wrapWith", `{{ $s := repeat 10000000 "a" }}{{ wrapWith 1 "xxxx" $s }}`, "template output exceeds"},
		{"a list too long", `{{ $l := list }}{{ range until 100000 }}{{ $l = append $l 1 }}{{ end }}{{ $l = append $l 1 }}`, "list size exceeds"},
		{"appending in a long loop", `{{ $l := list }}{{ range until 100000 }}{{ $l = append $l 1 }}{{ end }}`, "list size exceeds"},
		{"set a dict into itself", `{{ $d := dict }}{{ $_ := set $d "me" $d }}{{ toYaml $d }}`, "may not contain itself"},
		{"merge a dict into itself", `{{ $d := dict "a" 1 }}{{ $e := dict "d" $d }}{{ $_ := merge $d $e }}`, "may not contain itself"},
		{"nesting in a loop", `{{ $d := dict }}{{ range until 1000 }}{{ $d = dict "x" $d }}{{ end }}{{ toJson $d }}`, "nesting depth exceeds"},
		{"printing deep nesting", `{{ $d := dict }}{{ range until 100000 }}{{ $d = dict "x" $d }}{{ end }}{{ $d }}`, "nesting depth exceeds"},
		{"the rendered text", `{{ $s := repeat 8000000 "a" }}{{ $s }}{{ $s }}{{ $s }}`, "template output exceeds"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Render("templates/bomb.yaml", []byte(tc.src), map[string]any{})
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s: got %v, want an error with %q", tc.reason, err, tc.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
				t.Errorf("%s: allocated %d MiB before failing", tc.reason, grew>>20)
			}
			if !strings.HasPrefix(err.Error(), "templates/bomb.yaml:") {
				t.Errorf("%s: the error must name the template and line: %v", tc.reason, err)
			}
		})
	}
}

// TestLimitsAreTheCurrentOnes: a limit set for the process applies.
func TestLimitsAreTheCurrentOnes(t *testing.T) {
	l := limits.Default()
	l.TemplateBytes = 100
	limits.SetCurrent(l)
	defer limits.SetCurrent(limits.Default())
	_, err := Render("t.yaml", []byte(`{{ repeat 101 "a" }}`), nil)
	if err == nil || !strings.Contains(err.Error(), "limit of 100 bytes") || !strings.Contains(err.Error(), "--max-template-bytes") {
		t.Errorf("got %v", err)
	}
	if _, err := Render("t.yaml", []byte(`{{ repeat 100 "a" }}`), nil); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// TestKeysAreSorted: keys and values do not follow map order.
func TestKeysAreSorted(t *testing.T) {
	src := `{{ $d := dict "c" 3 "a" 1 "b" 2 "e" 5 "d" 4 }}{{ keys $d }} {{ values $d }}`
	for range 20 {
		out, err := Render("t.yaml", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(out.Text) != "[a b c d e] [1 2 3 4 5]" {
			t.Fatalf("got %q", out.Text)
		}
	}
}

// TestEveryAllowedFunctionStillWorks calls a sample of functions the
// guards wrap, with ordinary arguments.
func TestEveryAllowedFunctionStillWorks(t *testing.T) {
	src := `{{ repeat 2 "ab" }}|{{ indent 2 "a\nb" }}|{{ replace "a" "b" "aa" }}|{{ printf "%03d" 7 }}|{{ until 3 }}|{{ untilStep 0 10 4 }}|{{ seq 3 }}|{{ join "," (list "a" "b") }}|{{ cat "a" "b" }}|{{ quote "a" }}|{{ $d := dict "a" 1 }}{{ $_ := set $d "b" 2 }}{{ toJson $d }}|{{ $m := merge (dict "a" 1) (dict "b" 2) }}{{ len $m }}|{{ splitList "," "a,b" }}|{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }}|{{ toYaml (list 1 2) | trim }}|{{ print 1 2 }}|{{ wrapWith 2 "/" "abcd" }}`
	out, err := Render("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `abab|  a
  b|bb|007|[0 1 2]|[0 4 8]|1 2 3|a,b|a b|"a"|{"a":1,"b":2}|2|[a b]|-W-xxW-|- 1
- 2|1 2|ab/cd`
	if string(out.Text) != want {
		t.Errorf("got\n%s\nwant\n%s", out.Text, want)
	}
}

// TestBudgetPerExecution: the items list functions build are counted per
// execution, so executions of one parsed template (which reuse prepared
// copies) each get the whole budget, and one execution's spending or
// limit does not leak into the next.
func TestBudgetPerExecution(t *testing.T) {
	l := limits.Default()
	l.ListItems = 10 // a budget of 100 * 10 items per execution
	limits.SetCurrent(l)
	defer limits.SetCurrent(limits.Default())
	tpl, err := Parse("t.yaml", []byte(`{{ range until 7 }}{{ $_ := list 1 2 3 4 5 6 7 8 9 10 }}{{ end }}ok`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 { // 70 of 1,000 items each time: summed over executions, the 15th would fail
		if out, err := tpl.Execute(nil); err != nil || string(out.Text) != "ok" {
			t.Fatalf("execution %d: %v", i, err)
		}
	}
	over, err := Parse("t.yaml", []byte(`{{ range until 11 }}{{ range until 10 }}{{ $_ := list 1 2 3 4 5 6 7 8 9 10 }}{{ end }}{{ end }}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := over.Execute(nil); err == nil || !strings.Contains(err.Error(), "list-items") {
			t.Fatalf("execution %d over the budget: %v", i, err)
		}
	}
	if out, err := tpl.Execute(nil); err != nil || string(out.Text) != "ok" {
		t.Fatalf("after executions over the budget: %v", err)
	}
}
