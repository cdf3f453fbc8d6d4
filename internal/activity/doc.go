// Package activity is the registry of what the process is doing, for the
// watchdog (--timeout): a git fetch, decoding stdin, a template, a
// reference. A stage records an activity with [Doing] (or [WaitingOn] for
// an operation that waits on something outside the process) and ends it
// with the function it returns; when the watchdog gives a run up, its
// message names the operations waiting outside first ([Waits]), then the
// latest activity under way ([Running]).
//
// It sits below every stage, beside limits: recording is a map insertion
// under a lock, cheap enough for one entry per reference.
package activity
