package output

import (
	"bufio"
	"errors"
	"io"
	"sync"
)

// ErrExpired is returned by a Writer whose deadline passed before output
// began.
var ErrExpired = errors.New("the run's time limit passed before its output was written")

// Writer is a process's one output: a stream (stdout) or a folder, written
// only once the whole result is known. It cooperates with a watchdog: once
// writing has begun, [Writer.Expire] no longer succeeds, so a timeout can
// never cut a stream or a folder short; once expired, nothing is written.
type Writer struct {
	out   io.Writer
	mu    sync.Mutex
	state int // 0 idle, 1 writing, 2 expired
}

// NewWriter returns a Writer on out.
func NewWriter(out io.Writer) *Writer { return &Writer{out: out} }

// begin moves to writing; false when the writer expired.
func (w *Writer) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == 2 {
		return false
	}
	w.state = 1
	return true
}

// Expire marks the writer expired unless writing has begun; it reports
// whether it did (the watchdog then ends the run).
func (w *Writer) Expire() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == 1 {
		return false
	}
	w.state = 2
	return true
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

// WriteDir writes files into dir all or nothing (see [WriteDir]).
func (w *Writer) WriteDir(dir string, files map[string][]byte) error {
	if !w.begin() {
		return ErrExpired
	}
	return WriteDir(dir, files)
}
