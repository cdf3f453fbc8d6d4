package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Do calls f(0) ... f(n-1) on up to GOMAXPROCS goroutines and returns when
// all calls returned.
func Do(n int, f func(int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// DoIf is Do when parallel, else the calls one after another in index
// order.
func DoIf(parallel bool, n int, f func(int)) {
	if parallel {
		Do(n, f)
		return
	}
	for i := range n {
		f(i)
	}
}

// Distinct tells whether no element of xs appears twice, so that calls
// which each change their own element may run at once.
func Distinct[T comparable](xs []T) bool {
	seen := make(map[T]bool, len(xs))
	for _, x := range xs {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// FirstError is the first non-nil error of errs in index order.
func FirstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
