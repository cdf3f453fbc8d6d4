package limits

import (
	"slices"
	"sync"
)

// activities are what the process is doing now, for the watchdog's
// message: when a run is given up on, it names what was running (a git
// fetch, decoding stdin, a template) instead of guessing.
var activities struct {
	sync.Mutex
	seq uint64
	m   map[uint64]func() string
}

// Doing records that the process is now doing what (a phrase that reads
// after "while": "fetching https://example.com/repo.git", "decoding the
// ResourceList on stdin", "rendering templates/cm.yaml") until done is
// called:
//
//	done := limits.Doing("fetching " + url)
//	defer done()
//
// Activities may nest and run on several goroutines at once; the watchdog
// names the latest one still running, then the others ([Activities]).
func Doing(what string) (done func()) {
	return DoingFunc(func() string { return what })
}

// DoingFunc is Doing with a phrase made only when it is asked for, for
// activities too frequent to format eagerly (one per reference).
func DoingFunc(what func() string) (done func()) {
	activities.Lock()
	activities.seq++
	id := activities.seq
	if activities.m == nil {
		activities.m = map[uint64]func() string{}
	}
	activities.m[id] = what
	activities.Unlock()
	return func() {
		activities.Lock()
		delete(activities.m, id)
		activities.Unlock()
	}
}

// Activities returns the activities under way, latest first.
func Activities() []string {
	activities.Lock()
	ids := make([]uint64, 0, len(activities.m))
	for id := range activities.m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	fns := make([]func() string, len(ids))
	for i, id := range ids {
		fns[len(ids)-1-i] = activities.m[id]
	}
	activities.Unlock()
	out := make([]string, len(fns))
	for i, f := range fns {
		out[i] = f()
	}
	return out
}
