package gitsource

import (
	"slices"
	"sync"
)

// Running lists what the fetchers of this process are doing right now,
// oldest first: "git fetch of https://git.example.com/org/repo (depth
// 1)", "git ls-remote of ... (listing refs)", "git checkout of
// ...@abc123def456 into the cache". A watchdog that gives up on a run (--timeout) says with it
// what the run was waiting for, instead of blaming a template.
func Running() []string { return running.list() }

// running is the registry behind Running.
var running activity

type activity struct {
	mu   sync.Mutex
	next int
	ops  map[int]string
}

// add records op until the returned function is called.
func (a *activity) add(op string) (done func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ops == nil {
		a.ops = map[int]string{}
	}
	id := a.next
	a.next++
	a.ops[id] = op
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.ops, id)
	}
}

func (a *activity) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := make([]int, 0, len(a.ops))
	for id := range a.ops {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = a.ops[id]
	}
	return out
}
