// Command weight reports what each package linked into kudo-render costs
// every process (make weight; docs/performance.md, "Start-up weight"):
// its initialiser's clock time and allocations (GODEBUG=inittrace=1,
// medians over runs of the built binary's version command), its share of
// the binary (symbol sizes of an unstripped build, go tool nm -size), and
// what leaving it out would save: the packages that only it brings into
// the binary (its subtree in the dominator tree of main's import graph),
// with the shortest import chain from main that brings it.
//
// -without lists packages to leave out together (a cut of several
// imports at once): the report then says what would be left unlinked
// and what it costs now. Go runs the initialiser of every linked package
// in every process, whatever the command, so what is linked is what is
// paid.
package main
