// Package bundle loads operator packages into one normalised model.
//
// Two on-disk formats are understood:
//
//   - KUDO v1beta1 operator packages: operator.yaml (tasks as a list with a
//     kind and a spec, plans with phases and steps), params.yaml with a
//     "parameters" list, and templates/.
//   - KEP-0009 framework bundles: framework.yaml (tasks as a map of
//     resources, patches and patchesStrategicMerge; plans as a list of
//     steps), params.yaml as a map of parameter name to definition,
//     templates/ and common/.
//
// Both load into a [Bundle]. Loading is strict: an unknown field in
// operator.yaml, framework.yaml or params.yaml is an error naming the file,
// the line and the field path, because KUDO silently dropped such fields and
// users lost typos that way. An enumerated field whose value is none of
// its values is an error too, with a "did you mean": a plan or phase
// strategy other than "serial" or "parallel" ([StrategyProblem]; KUDO ran
// it in parallel, silently), a task kind, a pipe file kind, a parameter
// type. Every file is read through an [fs.FS]; for a
// directory on disk that is an [os.Root], so neither "..", absolute paths nor
// symbolic links can reach outside the bundle.
//
// The package owns loading and validation of one bundle only. Resolving
// `extends`, validating parameter values and rendering templates belong to
// the stages after it.
//
// It stays outside internal/ because it is the package model the design
// names at the top level: tools that inspect or lint KUDO packages (a
// package index, a pre-commit check) may import [Bundle] and its loader.
package bundle
