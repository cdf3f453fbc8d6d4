// Package simpleyaml parses the YAML that templates and package files are
// usually written in, several times faster than go-yaml, into exactly the
// nodes go-yaml's parser makes (yaml.Node: kind, tag, value, style, line
// and column), and refuses everything else so that go-yaml reads it.
//
// It reads block mappings and block sequences of one-line scalars: plain
// scalars of letters, digits, punctuation but # and non-ASCII characters
// (starting with a letter, a digit, a non-ASCII character or one of
// . / ~ ( <), single-quoted
// scalars (a quote written twice), double-quoted scalars with the escapes
// of ASCII characters (\n, \t, \", \\, ...); literal block scalars (|, |-
// and |+) of any text; "key: value" and "- item" lines; documents
// separated by "---" lines; blank lines. Text is printable ASCII and the
// characters U+00A0 to U+FFFD in UTF-8 (but the surrogates, U+2028,
// U+2029 and U+FEFF). Comments outside block scalars, flow style, anchors,
// aliases, tags, folded block scalars, multi-line plain or quoted scalars,
// other escapes (\x, \u, \N, ...), tabs, carriage returns, other
// characters, keys that are not ASCII or longer than 512 characters,
// nesting deeper than 1,000 levels, a document that is not a mapping and
// any error make [Parse] and [Each] report false: the caller then decodes
// the text with go-yaml, which reports errors as it always has.
//
// Memory: Parse keeps an entry (64 bytes) for each line with text of the
// document it is reading (blank lines are only counted), and the nodes of
// the documents it returns. Its callers bound the text first, as they do
// for go-yaml: strictyaml's CheckValues and CheckStream count every line
// break as values, so a document has at most half of --max-yaml-values
// lines.
//
// FuzzParse checks that whatever Parse accepts, go-yaml parses without
// error into the same nodes; TestParseGenerated does the same for 2,000
// generated manifests.
package simpleyaml
