package par

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestDoCallsEachIndexOnce: every index is called exactly once, on more
// than one goroutine at a time when there are cores for it.
func TestDoCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		calls := make([]atomic.Int32, n)
		Do(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: nothing runs at the same time")
	}
	started := make(chan struct{})
	var first atomic.Bool
	Do(2, func(i int) {
		if first.CompareAndSwap(false, true) {
			<-started // returns only when the other call has started
			return
		}
		close(started)
	})
}

func TestFirstError(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	for _, tc := range []struct {
		errs []error
		want error
	}{{nil, nil}, {[]error{nil, nil}, nil}, {[]error{nil, a, b}, a}, {[]error{b, a}, b}} {
		if got := FirstError(tc.errs); got != tc.want {
			t.Errorf("FirstError(%v) = %v, want %v", tc.errs, got, tc.want)
		}
	}
}

func ExampleDo() {
	squares := make([]int, 5)
	Do(len(squares), func(i int) { squares[i] = i * i })
	fmt.Println(squares)
	// Output: [0 1 4 9 16]
}

// TestDoIfAndDistinct: DoIf(false) calls in index order; Distinct finds an
// element listed twice.
func TestDoIfAndDistinct(t *testing.T) {
	var order []int
	DoIf(false, 5, func(i int) { order = append(order, i) })
	if fmt.Sprint(order) != "[0 1 2 3 4]" {
		t.Errorf("DoIf(false) called %v", order)
	}
	calls := make([]atomic.Int32, 100)
	DoIf(true, 100, func(i int) { calls[i].Add(1) })
	for i := range calls {
		if calls[i].Load() != 1 {
			t.Fatalf("DoIf(true): index %d called %d times", i, calls[i].Load())
		}
	}
	a, b := new(int), new(int)
	for _, tc := range []struct {
		xs   []*int
		want bool
	}{{nil, true}, {[]*int{a, b}, true}, {[]*int{a, b, a}, false}} {
		if got := Distinct(tc.xs); got != tc.want {
			t.Errorf("Distinct(%v) = %v", tc.xs, got)
		}
	}
}
