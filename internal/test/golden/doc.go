// Package golden is kudo-render's one golden-file harness for tests: one
// -update flag (go test ./... -update rewrites every golden file, to be
// reviewed in the diff before committing) and [Check], which compares a
// result with its file, or rewrites the file.
package golden
