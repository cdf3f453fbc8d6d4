// Package limits is kudo-render's resource model: every cost that grows
// with its input (bytes read, template output, intermediate values, YAML
// values, git objects, items) has a limit here, checked before memory is
// spent. [Default] gives the defaults; [Table] lists every limit with its
// flag and environment variable, and is what docs/limits.md documents.
//
// Limits are set by whoever runs kudo-render (flags, or environment
// variables for KRM orchestrators and the Argo CD sidecar); a package or a
// FunctionConfig cannot raise them.
//
// A stage that hits a limit returns a *diag.LimitError made by [Err], so
// every message names the limit, its value and the flag that raises it.
//
// Most limits bound one item (a file, a template, a YAML stream). A
// [Budget] bounds the totals of one render (bytes, values, objects,
// instances, schema validation steps), so that many items each just under
// their limit are refused too: the engine makes one per render and every
// stage that produces data charges it before it allocates.
package limits
