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
// The package knows nothing of bundles, plans or instances: callers pass
// the template name, its text and the variables.
package tmpl
