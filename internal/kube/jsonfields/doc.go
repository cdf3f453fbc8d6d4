// Package jsonfields lists the JSON fields of a Go struct type as
// encoding/json reads them, embedded structs flattened ([Of]): the one
// walk of struct fields that the table of built-in API types
// (kube/types_gen.go, written by kube's TestAPITypes) and the validation
// of objects against the Go types (kube/validate) share, so that they
// cannot disagree on a field.
package jsonfields
