// Package par runs the independent steps of a stage on all cores while
// keeping results in input order: [Do] calls f(0) ... f(n-1) on up to
// GOMAXPROCS goroutines, and callers write each result into its own slot,
// so the outcome (and the first error, taken in index order) is the same
// as a loop's.
package par
