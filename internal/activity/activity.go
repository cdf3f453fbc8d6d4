package activity

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
	m   map[uint64]activity
}

// activity is one entry: its phrase, and whether it waits on something
// outside the process (WaitingOn).
type activity struct {
	what  func() string
	waits bool
}

// Doing records that the process is now doing what (a phrase that reads
// after "while": "fetching https://example.com/repo.git", "decoding the
// ResourceList on stdin", "rendering templates/cm.yaml") until done is
// called:
//
//	done := activity.Doing("fetching " + url)
//	defer done()
//
// Activities may nest and run on several goroutines at once; the watchdog
// names the latest one still running, then the others ([Running]).
func Doing(what string) (done func()) {
	return DoingFunc(func() string { return what })
}

// DoingFunc is Doing with a phrase made only when it is asked for, for
// activities too frequent to format eagerly (one per reference).
func DoingFunc(what func() string) (done func()) {
	return record(activity{what: what})
}

// WaitingOn records an operation that waits on something outside the
// process ("git fetch of https://git.example.com/org/repo (depth 1)")
// until done is called. The watchdog names these first ([Waits]): a hung
// server is the likeliest cause of a run that does not end.
func WaitingOn(what string) (done func()) {
	return record(activity{what: func() string { return what }, waits: true})
}

func record(a activity) (done func()) {
	activities.Lock()
	activities.seq++
	id := activities.seq
	if activities.m == nil {
		activities.m = map[uint64]activity{}
	}
	activities.m[id] = a
	activities.Unlock()
	return func() {
		activities.Lock()
		delete(activities.m, id)
		activities.Unlock()
	}
}

// Running returns the activities under way (Doing, DoingFunc), latest
// first.
func Running() []string {
	out := list(false)
	slices.Reverse(out)
	return out
}

// Waits returns the operations under way that wait outside the process
// (WaitingOn), oldest first.
func Waits() []string { return list(true) }

// list is the phrases of the entries whose waits is as asked, oldest
// first; the phrases are made after the lock is released.
func list(waits bool) []string {
	activities.Lock()
	ids := make([]uint64, 0, len(activities.m))
	for id, a := range activities.m {
		if a.waits == waits {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	fns := make([]func() string, len(ids))
	for i, id := range ids {
		fns[i] = activities.m[id].what
	}
	activities.Unlock()
	out := make([]string, len(fns))
	for i, f := range fns {
		out[i] = f()
	}
	return out
}
