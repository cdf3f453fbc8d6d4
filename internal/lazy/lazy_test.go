package lazy

import (
	"sync"
	"testing"
)

func TestRegexp(t *testing.T) {
	re := Regexp(`^a+$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() { got[i] = re() })
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatal("compiled more than once")
		}
	}
	if !re().MatchString("aaa") || re().MatchString("ab") {
		t.Error("wrong expression")
	}
	bad := Regexp(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on first use")
		}
	}()
	bad()
}
