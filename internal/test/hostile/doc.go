// Package hostile is kudo-render's hostile-input suite: every case is an
// attack on one class of the resource model (docs/limits.md) and is run
// as a whole kudo-render process under an address-space cap of 4 GiB
// (prlimit), with four checks: exit status 1 (never a crash: no exit 2,
// no signal, no "fatal error"), a message on stderr that names the
// problem, nothing on stdout, and --output-dir exactly as it was. Peak memory
// (maximum resident set) must stay under 1 GiB and the run under 30 s.
//
// Cases are built in Go (cases_test.go) because many need what a git
// checkout cannot hold: symbolic links that leave the tree, huge or
// binary files. Each names the class it attacks.
package hostile
