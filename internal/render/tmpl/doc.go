// Package tmpl renders KUDO templates: Go text/template with
// missingkey=error, Sprig v3's hermetic functions minus everything that
// reads the environment, files, the network, the clock or randomness, plus
// KUDO's toYaml.
//
// Errors name the template file and line. Rendered text is split into YAML
// documents by [Decode]; a YAML error there is reported at the line of the
// template that produced the failing text, not at a line of the rendered
// output, so users can find it in the file they edit.
//
// Rendered text over 256 KiB is decoded in parts on all cores
// (decode_parallel.go), a hand-written path that imitates go-yaml's one
// pass over the whole stream: it splits only at document markers outside
// block scalars and quotes, counts line breaks as go-yaml does (CR, CRLF,
// LF, NEL, LS, PS), and gives up to the one pass on any error (an alias
// to an anchor of another part included).
// FuzzDecodeParallel (run briefly by make test) checks that the parts give
// the same documents at the same lines as one pass. It is kept, measured,
// but not widened.
//
// The package knows nothing of bundles, plans or instances: callers pass
// the template name, its text and the variables.
package tmpl
