// Package diag owns kudo-render's one diagnostic type.
//
// Every stage (bundle loading, parameters, templates, plans, references,
// sources, the FunctionConfig) reports a problem as a [Diagnostic]: the
// file and line it comes from, the field path inside that file or object,
// the resource it concerns, a severity and a message. A stage that finds
// several problems returns them together in an [Error], so that one run
// shows them all:
//
//	cannot load framework "zookeeper": 2 problems:
//	  params.yaml:12: parameters[3].default: "x" is not an integer
//	  operator.yaml:9: tasks[0].spec.resourcs: unknown field "resourcs"
//
// The fields map one-to-one onto kyaml's framework.Result (message,
// severity, resourceRef, field.path, file.path); the KRM adapter does the
// mapping, so kpt and kustomize can point at the problem. Every error
// type that knows where its problems are is a [Carrier], wrappers that add
// context included (a KudoOperator dependency, a task), so the CLI message
// and the KRM results tell the same places. [From] collects the
// diagnostics of any error tree (every branch of a joined error); an error
// without any becomes a diagnostic with only a message. [InDir] gives the
// files of a KudoOperator dependency's problems relative to the package
// rendered.
//
// A limit that was hit is a [LimitError]: it names the limit, its value and
// the flag (or FunctionConfig field) that raises it.
package diag
