// Package simpleyaml parses the YAML that templates and package files are
// usually written in, several times faster than go-yaml, into the nodes
// go-yaml's parser makes (yaml.Node: kind, tag, value, style, line and
// column; comments are dropped, as kudo-render never reads them), and
// refuses everything else so that go-yaml reads it.
//
// It reads block mappings and block sequences of one-line scalars: plain
// scalars of letters, digits, punctuation but # and non-ASCII characters
// (starting with a letter, a digit, a non-ASCII character, one of
// . / ~ ( < or one of - ? : before a non-blank), single-quoted scalars (a
// quote written twice), double-quoted scalars with the escapes of ASCII
// characters (\n, \t, \", \\, ...); literal block scalars (|, |- and |+)
// of any text, tabs and lines of blanks included; the flow collections manifests use ({}, [], ["a", b]: one
// line of ASCII scalars); "key: value" and "- item" lines, the key plain
// (letters, digits and - . _ /) or quoted; comment lines and comments after
// a value, a colon or a block indicator; trailing blanks; documents
// separated by "---" lines; blank lines. Text is printable ASCII and the
// characters U+00A0 to U+FFFD in UTF-8 (but the surrogates, U+2028, U+2029
// and U+FEFF). Other flow style, anchors, aliases, tags, folded block
// scalars, multi-line plain or quoted scalars, other escapes (\x, \u, \N,
// ...), tabs outside block scalars and comments, carriage returns, other
// characters, keys that are not
// ASCII or longer than 512 characters, nesting deeper than 1,000 levels, a
// document that is not a mapping (or only comments) and any error make
// [Parse] and [Each] report false: the caller then decodes the text with
// go-yaml, which reports errors as it always has.
//
// Memory: Parse keeps an entry (64 bytes) for each line with text of the
// document it is reading (blank lines are only counted), and the nodes of
// the documents it returns. Its callers bound the text first, as they do
// for go-yaml: strictyaml's CheckValues and CheckStream count every line
// break as values, so a document has at most half of --max-yaml-values
// lines.
//
// It imitates go-yaml v3's parser (go.yaml.in/yaml/v3) on that subset.
// FuzzParse (run briefly by make test) checks that whatever Parse accepts,
// go-yaml parses without error into the same nodes, line and column
// included; TestParseGenerated does the same for 2,000 generated
// manifests. It is kept, measured, but not widened: new syntax goes to
// go-yaml.
package simpleyaml
