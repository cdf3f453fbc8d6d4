package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kudo-render/kudo-render/internal/activity"
)

// ErrExpired is returned by a Writer whose deadline passed before output
// began.
var ErrExpired = errors.New("the run's time limit passed before its output was written")

// Writer is a process's one output: a stream (stdout) or a folder, written
// only once the whole result is known. It cooperates with a watchdog: once
// writing has begun, [Writer.Expire] no longer succeeds, so a timeout can
// never cut a stream or a folder short; once expired, nothing is written.
//
// A folder is built beside its target before it is swapped in
// ([WriteDir]); while it is built the write can still be stopped: Expire
// (the watchdog) or [Writer.Interrupt] (a signal) stops it and removes
// what was built, and the folder stays as it was. Only the swap and what
// follows it can no longer be stopped.
type Writer struct {
	out   io.Writer
	mu    sync.Mutex
	state int // idle, writing, expired, building
	// While a folder is built: stop tells the builder to stop, tmp is the
	// folder it builds in, built is closed once it ended.
	stop  atomic.Bool
	tmp   string
	built chan struct{}
	// done is closed once a folder write ended (swap included).
	done chan struct{}
	// Building, when set, is called as a folder starts being built and
	// returns what to call once the write ended (cmd: catch SIGINT and
	// SIGTERM meanwhile, and Interrupt).
	Building func() (release func())
}

// The states of a Writer.
const (
	idle = iota
	writing
	expired
	building
)

// stopWait bounds how long Expire waits for a builder to stop (it checks
// between files and fsyncs) before it removes the folder anyway.
const stopWait = 2 * time.Second

// NewWriter returns a Writer on out.
func NewWriter(out io.Writer) *Writer { return &Writer{out: out} }

// begin moves to writing; false when the writer expired.
func (w *Writer) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == expired {
		return false
	}
	w.state = writing
	return true
}

// Expire marks the writer expired unless writing has begun; it reports
// whether it did (the watchdog then ends the run). A folder being built is
// stopped and removed first.
func (w *Writer) Expire() bool {
	w.mu.Lock()
	switch w.state {
	case writing:
		w.mu.Unlock()
		return false
	case building:
		w.state = expired
		w.stop.Store(true)
		built, tmp := w.built, w.tmp
		w.mu.Unlock()
		select {
		case <-built:
		case <-time.After(stopWait):
		}
		if tmp != "" {
			_ = os.RemoveAll(tmp)
		}
		return true
	}
	w.state = expired
	w.mu.Unlock()
	return true
}

// Interrupt ends the writer's work for a signal: a folder being built is
// stopped and removed (as Expire does); one being swapped in is waited
// for, so the process never leaves half a swap behind.
func (w *Writer) Interrupt() {
	if w.Expire() {
		return
	}
	w.mu.Lock()
	done := w.done
	w.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Write writes data to the stream in full.
func (w *Writer) Write(data []byte) error {
	if !w.begin() {
		return ErrExpired
	}
	_, err := w.out.Write(data)
	return err
}

// WriteJoined writes parts to the stream in full, sep between each two,
// as Write(bytes.Join(parts, sep)) would, in chunks of at most 1 MiB
// instead of one more copy of the whole stream in memory.
func (w *Writer) WriteJoined(parts [][]byte, sep []byte) error {
	if !w.begin() {
		return ErrExpired
	}
	bw := bufio.NewWriterSize(w.out, 1<<20)
	for i, p := range parts {
		if i > 0 {
			_, _ = bw.Write(sep) // bufio keeps the first error for Flush
		}
		_, _ = bw.Write(p)
	}
	return bw.Flush()
}

// WriteDir writes files into dir all or nothing (see [WriteDir]); the
// build can be stopped until the tree is swapped in (see [Writer]).
func (w *Writer) WriteDir(dir string, files map[string][]byte) error {
	w.mu.Lock()
	if w.state == expired {
		w.mu.Unlock()
		return ErrExpired
	}
	w.state, w.tmp, w.built, w.done = building, "", make(chan struct{}), make(chan struct{})
	built, done := w.built, w.done
	w.mu.Unlock()
	defer close(done)
	if w.Building != nil {
		defer w.Building()()
	}
	defer activity.Doing(fmt.Sprintf("writing %d files into %s", len(files), dir))()
	err := writeDir(dir, files, (*writerGuard)(w))
	w.mu.Lock()
	if w.state == building { // failed before the swap: nothing was written
		w.state = idle
	}
	w.mu.Unlock()
	select {
	case <-built:
	default:
		close(built)
	}
	return err
}

// writerGuard is the guard of a Writer's folder write.
type writerGuard Writer

func (g *writerGuard) building(tmp string) {
	g.mu.Lock()
	g.tmp = tmp
	g.mu.Unlock()
}

func (g *writerGuard) stopped() bool { return g.stop.Load() }

// commit moves from building to writing, unless the writer expired; the
// builder is done either way.
func (g *writerGuard) commit() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.state != building {
		return false
	}
	g.state = writing
	close(g.built)
	return true
}
