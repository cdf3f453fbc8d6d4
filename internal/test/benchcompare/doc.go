// Command benchcompare measures kudo-render side by side with Helm 3 and
// Helm 4, as whole processes (make bench-compare): the rows of
// docs/performance.md. For each row it runs the commands in turn (paired
// and interleaved, so a machine's load falls on all of them alike) and
// takes the medians of wall time, CPU time (user + system, which another
// process's load changes far less than wall time) and peak memory (the
// process's maximum resident set); it prints a markdown table with the
// ratios, and writes it with an SVG plot of the scaling series (10, 100
// and 1,000 instances).
//
// helm v3.22.0 and v4.3.1 are installed with go install into
// ~/.cache/kudo-render/helm/VERSION when missing. The kafka row renders
// the corpus's kafka templates with kudo-render and, converted to a chart
// (.Params to .Values.Params, .Name to .Values.Name, ...; values from
// params.yaml's defaults), with helm template. -base names another
// kudo-render binary (an older commit's build) measured in the same
// rounds, for before/after figures.
package main
