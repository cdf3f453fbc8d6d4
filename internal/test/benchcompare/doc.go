// Command benchcompare measures kudo-render side by side with helm, as
// whole processes (make bench-compare): the rows of docs/performance.md.
// For each row it runs the commands in turn (paired, alternating), takes
// the medians of wall time and peak memory (the process's maximum
// resident set), and prints a markdown table with the ratios; it writes
// an SVG plot of the scaling series (10, 100 and 1,000 instances).
//
// helm is installed with go install when it is missing. The kafka row
// renders the corpus's kafka templates with kudo-render and, converted to
// a chart (.Params to .Values.Params, .Name to .Values.Name, ...; values
// from params.yaml's defaults), with helm template.
package main
