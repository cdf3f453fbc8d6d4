package cmd

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kudo-render/kudo-render/internal/output"
)

// ExitError carries the exit status of a command that does not exit 1 on
// error (diff: 1 means "changes", 2 an error). With no Err it prints
// nothing.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// expiredWait is how long Exit waits for the watchdog or a signal to end
// the process once its output was stopped.
const expiredWait = 10 * time.Second

// Exit reports err on stderr and returns the process's exit status: the
// ExitError's code, or 1.
func Exit(stderr io.Writer, err error) int {
	if errors.Is(err, output.ErrExpired) {
		// The watchdog or a signal stopped the output (a folder being
		// built): it ends the process itself, with its own message and
		// status or signal. Wait for it rather than race it.
		time.Sleep(expiredWait)
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(stderr, "error:", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintln(stderr, "error:", err)
	return 1
}
