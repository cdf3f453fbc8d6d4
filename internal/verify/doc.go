// Package verify checks a loaded bundle the way KUDO's
// `kubectl kudo package verify` checks an operator package, and a little
// further.
//
// The package owns the checks that need the whole, already loaded bundle:
// parameter names and definitions, versions, tasks, plans, and what the
// templates reference and render to. Loading problems (unknown fields,
// duplicate task names, missing templates, undefined tasks in plans,
// strategies, task kinds and parameter types that are none of theirs, ...)
// are reported by package bundle; a bundle that failed to load is never
// verified, and one built in memory gets the same checks
// (bundle.Validate) as errors, so that verify never passes what loading
// refuses. Every parameter default is checked against the package's
// params.schema.json (schema.DefaultViolations), as a render that uses it
// does.
//
// [Bundle] returns every [Finding] at once, sorted by file, line and
// message. A finding is an error (KUDO's verify would fail, or rendering
// is bound to fail) or a warning (probably a mistake, but the package
// works). Messages keep KUDO's wording where KUDO has a check, adapted
// where kudo-render differs (for example, namespaces are created by the
// GitOps tool, so templates may not render a Namespace).
//
// Unlike KUDO, templates are analysed on the full parse tree: inside range
// and with bodies, else branches, parenthesised pipelines, through `$`, and
// `index .Params "NAME"`. The dot is tracked: `.Params.X` inside a range
// body is not a parameter reference, `.X` inside `with .Params` is.
//
// Every template is also rendered with the parameter defaults (placeholder
// values for required parameters without a default) and sample implicit
// variables, and its output is decoded.
//
// A bundle that still has an unresolved `extends` clause is checked as a
// partial bundle: checks that the base could satisfy (a deploy plan,
// parameters and pipes referenced by templates, unused tasks, templates and
// parameters, rendering) are skipped. Verify the resolved bundle for the
// full set of checks.
package verify
