package bundle

import (
	"runtime"
	"sync"
	"weak"
)

// Memo keeps a value derived from a bundle (its compiled parameter
// schema, the digest of its model) for as long as the bundle lives, so
// that the instances of one package, however many, derive it once. A
// loaded Bundle is only read, so what is derived from it does not change.
// The zero Memo is ready to use and safe for concurrent use.
type Memo[T any] struct {
	mu sync.Mutex
	m  map[weak.Pointer[Bundle]]*memoEntry[T]
}

type memoEntry[T any] struct {
	mu   sync.Mutex
	done bool
	v    T
}

// Get returns the value kept for b, computing it with f when there is
// none. Callers for one bundle wait for the one computing it. An error is
// not kept: the next caller tries again (it may have a larger budget).
// The value must not hold b: a bundle that a value holds is never freed.
func (m *Memo[T]) Get(b *Bundle, f func(*Bundle) (T, error)) (T, error) {
	k := weak.Make(b)
	m.mu.Lock()
	if m.m == nil {
		m.m = map[weak.Pointer[Bundle]]*memoEntry[T]{}
	}
	e := m.m[k]
	if e == nil {
		e = &memoEntry[T]{}
		m.m[k] = e
		runtime.AddCleanup(b, m.forget, k)
	}
	m.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e.v, nil
	}
	v, err := f(b)
	if err != nil {
		return v, err
	}
	e.v, e.done = v, true
	return v, nil
}

// forget drops the entry of a bundle that was freed.
func (m *Memo[T]) forget(k weak.Pointer[Bundle]) {
	m.mu.Lock()
	delete(m.m, k)
	m.mu.Unlock()
}
