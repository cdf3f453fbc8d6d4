package suggest_test

import (
	"fmt"
	"testing"

	"github.com/kudo-render/kudo-render/internal/suggest"
)

func ExampleClosest() {
	fmt.Println(suggest.Closest("desription", []string{"name", "description", "default"}))
	fmt.Println(suggest.Closest("zzz", []string{"name"}))
	// Output:
	// description true
	//  false
}

func TestDidYouMean(t *testing.T) {
	cases := []struct {
		reason, name string
		defined      []string
		want         string
	}{
		{"a name equal but for case is suggested", "Serial", []string{"serial", "parallel"}, `; did you mean "serial"?`},
		{"a name two edits away is suggested", "paralel", []string{"serial", "parallel"}, `; did you mean "parallel"?`},
		{"a name far from every defined one gets no suggestion", "sequential", []string{"serial", "parallel"}, ""},
	}
	for _, tc := range cases {
		if got := suggest.DidYouMean(tc.name, tc.defined); got != tc.want {
			t.Errorf("%s: DidYouMean(%q) = %q, want %q", tc.reason, tc.name, got, tc.want)
		}
	}
}
