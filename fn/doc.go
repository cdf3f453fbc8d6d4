// Package fn is the KRM function adapter: [Function] reads a
// config.kubernetes.io/v1 ResourceList (kpt fn render, kustomize's exec
// generators), renders the framework its functionConfig names (a
// FrameworkRender of package config, or a ConfigMap with the same fields
// flatly) and the kudo.dev/v1beta1 Instance objects among the items, and
// returns the items plus the rendered objects, each with an owner marker
// and a path below rendered/<instance>/ (named by package output).
//
// No input item is left out of the output (kpt deletes the file of an
// item a function leaves out): the items the function consumes (Instance
// items, the functionConfig passed as an item, resources of the
// framework's definitions, Composables) come back as they were plus
// config.kubernetes.io/local-config: "true", so that nothing applies
// them. Only objects that an earlier run generated for what the run
// generates again are replaced.
//
// The function is built on kyaml's fn/framework: [Function.Process] is a
// framework.ResourceListProcessor, and [Function.Run] reads the list with
// kio.ByteReadWriter, as framework.Execute does. It writes the items as
// kyaml encodes them and each generated object as `kudo-render render`
// encodes it (framework.Execute's writer would not fold long strings as
// the CLI does). Very large lists (1,000 items, 1 MiB) take a fast path
// that splits the list into the items' texts and decodes only the items
// the render needs; for the lists kpt and kustomize write it writes
// exactly what the framework path writes.
//
// Errors become results: [Result] maps a diag.Diagnostic one to one onto
// kyaml's framework.Result (message, severity, resourceRef, field.path,
// file.path; the line goes into the message and the "line" tag), so kpt
// and kustomize point at the file and field.
//
// It stays outside internal/ because it is the design's KRM function: a
// kpt or kustomize plugin written in Go can run [Function] in process.
package fn
