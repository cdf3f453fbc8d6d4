package cmd

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Temporary folders (the checkout of `diff --from-rev`) and a folder the
// output writer is building are removed on every way out of the process:
// the command's own return, an error, the watchdog (--timeout) and SIGINT
// or SIGTERM, after which the signal is raised again so the process ends
// as it would have.
var temps struct {
	mu   sync.Mutex
	dirs map[string]bool
	sigs chan os.Signal
	// interrupts are called on SIGINT or SIGTERM before the folders are
	// removed (onInterrupt: a folder being written).
	interrupts map[int]func()
	seq        int
}

// tempDir makes a temporary folder and returns it with the function that
// removes it (call it once done; it may be called again).
func tempDir(pattern string) (string, func(), error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", func() {}, err
	}
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.dirs == nil {
		temps.dirs = map[string]bool{}
	}
	temps.dirs[dir] = true
	catchSignals()
	return dir, func() { removeTemp(dir) }, nil
}

// catchSignals starts catching SIGINT and SIGTERM (temps.mu held).
func catchSignals() {
	if temps.sigs == nil {
		temps.sigs = make(chan os.Signal, 1)
		signal.Notify(temps.sigs, os.Interrupt, syscall.SIGTERM)
		go onSignal(temps.sigs)
	}
}

// stopCatching stops catching signals once nothing needs it (temps.mu
// held).
func stopCatching() {
	if len(temps.dirs) == 0 && len(temps.interrupts) == 0 && temps.sigs != nil {
		signal.Stop(temps.sigs)
		close(temps.sigs)
		temps.sigs = nil
	}
}

// onInterrupt has f called on SIGINT or SIGTERM until release is called
// (the output writer, while it writes a folder: it removes what it built
// or finishes its swap before the process ends).
func onInterrupt(f func()) (release func()) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if temps.interrupts == nil {
		temps.interrupts = map[int]func(){}
	}
	temps.seq++
	id := temps.seq
	temps.interrupts[id] = f
	catchSignals()
	return func() {
		temps.mu.Lock()
		defer temps.mu.Unlock()
		delete(temps.interrupts, id)
		stopCatching()
	}
}

// removeTemp removes one folder and, with the last one, stops catching
// signals.
func removeTemp(dir string) {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	if !temps.dirs[dir] {
		return
	}
	removeAll(dir)
	delete(temps.dirs, dir)
	stopCatching()
}

// removeTemps removes every temporary folder (the watchdog, a signal);
// they stay registered, so nothing is written into them again unnoticed.
func removeTemps() {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for dir := range temps.dirs {
		removeAll(dir)
	}
}

// removeAll removes dir, again if a writer still running added files
// while it did.
func removeAll(dir string) {
	for range 5 {
		if os.RemoveAll(dir) == nil {
			return
		}
	}
}

// onSignal removes the temporary folders on SIGINT or SIGTERM, then
// raises the signal again with its default action.
func onSignal(sigs chan os.Signal) {
	sig, ok := <-sigs
	if !ok {
		return
	}
	temps.mu.Lock()
	fs := make([]func(), 0, len(temps.interrupts))
	for _, f := range temps.interrupts {
		fs = append(fs, f)
	}
	temps.mu.Unlock()
	for _, f := range fs {
		f()
	}
	removeTemps()
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Signal(sig)
	}
}
