// Package params validates parameter values and resolves them into what
// templates see as .Params.
//
// The package owns one step: given the parameter definitions of a bundle
// ([bundle.Param]) and the values a user supplied (from a FunctionConfig or
// from CLI flags), [Resolve] merges the values over the defaults, checks
// every resulting value against its definition and returns the template
// view. Loading the definitions belongs to package bundle; rendering
// templates belongs to the stages after this one.
//
// Values follow KUDO's conventions:
//
//   - Scalars reach templates as strings, whatever their declared type, so
//     `{{ if eq .Params.ENABLED "true" }}` works. Integer, number and boolean
//     values keep the text as written: "1000000" stays "1000000" and is
//     never turned into 1e+06.
//   - Array and map values reach templates as parsed YAML: []any and
//     map[string]any. A user may write them as YAML or JSON text.
//   - A parameter that is neither required nor given a value nor a default
//     is still present, so that templates can test it: "" for scalar types
//     and nil for array and map.
//
// Resolve reports every problem at once in an [*Error], one [Violation] per
// parameter, so that a user can fix all of them in one go. A value for a
// parameter that the package does not define is a violation too, with a
// "did you mean" suggestion when a defined name is close.
//
// [Text] and [ParseBool] give the canonical text of a scalar value and its
// boolean reading; Toggle tasks use ParseBool on resolved values.
package params
