// Package doccmds runs every command of the documentation as it is
// written (issue 26, item 5): the fenced sh, bash, shell and console
// blocks of every tracked Markdown file (README.md, docs/, examples/), the
// "$ " lines of its other blocks, and the examples of every command's
// --help. It holds tests only.
//
// They run in a copy of the repository as a fresh clone has it: the
// tracked files (as they are in the working tree) committed as main, an
// empty commit on top (HEAD~1 exists, as in a clone with history) and
// origin/main at HEAD, ../shared beside it (the corpus),
// bin/kudo-render built once with make build and bin/ first on PATH, HOME
// an empty folder. The blocks of one file run in order in one copy (each
// block from the copy's root, a block's commands in one bash), the files
// and the commands' examples in parallel in copies of their own.
//
// A command must exit 0 unless the docs say otherwise, in a way the test
// reads:
//
//   - a trailing comment "# exit N" (with any explanation after it) on
//     the command: it must exit N;
//   - "# needs a cluster" or "# needs network" on the command, or an HTML
//     comment "<!-- doc-test: needs a cluster -->" on the line before the
//     block: it is not run, and the test lists it with the reason;
//   - "# needs TOOL" (or "<!-- doc-test: needs TOOL... -->"): it runs when
//     TOOL is on PATH; else it is listed as skipped (an error under
//     KUDO_RENDER_REQUIRE_TOOLS=1 or CI);
//   - "<!-- doc-test: skip: REASON -->" before a block: not run, listed
//     with REASON (a command that runs this suite, or takes minutes);
//     "<!-- doc-test: skip `COMMAND`: REASON -->": the block's commands
//     that are COMMAND (without its comment) are not run (it must be one);
//   - "<!-- doc-test: file PATH -->" before a block that is not a command
//     (the FunctionConfig of the quick start): its text is written to PATH
//     in the copy before the file's later blocks run.
//
// A block without a shell info string that starts with a command
// (kudo-render, make, kpt, kubectl, ...) is an error: label it sh to run
// it, or text if it shows output.
//
// The links of the same files are checked without running anything: a
// relative link names a tracked file or folder, a #fragment a heading of
// its Markdown file (GitHub's anchors), and so does a page#anchor that Go
// source names (a --help text). `make help` lists every target of the
// Makefile's .PHONY lines.
package doccmds
