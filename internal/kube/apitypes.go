package kube

//go:generate go test -run ^TestAPITypes$ -update .

import (
	"slices"
	"strings"
)

// The built-in API types are compiled into a table (types_gen.go) instead
// of read from the Go types of k8s.io/api at run time: linking those
// packages cost every command about 10 ms of start-up in their package
// initialisers, and registering a group's types cost each render more.
// TestAPITypes writes the table from the Go types and fails when it is out
// of date; go test ./internal/kube -run TestAPITypes -update rewrites it.

// typeClass is what typing needs to know of a Go type.
type typeClass uint8

const (
	tScalar typeClass = iota // string, number: takes text
	tBool
	tOpaque // reads its own JSON (Quantity, IntOrString, Time): takes text, nothing inside is checked
	tRaw    // runtime.RawExtension: anything
	tAny    // an interface: anything
	tStruct // fields
	tList   // slice or array of elem
	tBytes  // []byte: base64 text
	tMap    // map of elem
)

// apiType is one Go type: a class, the element type of a list or map and
// the JSON fields of a struct (sorted by name, inline structs flattened).
// Classes other than struct, list, bytes and map have one entry each
// (their index is their class); lists and maps of the same element type
// share one.
type apiType struct {
	c    typeClass
	elem int32
	f    []apiField
}

// apiField is a JSON field of a struct and its type.
type apiField struct {
	name string
	t    int32
}

// apiKind is the type of a kind of a built-in group version.
type apiKind struct {
	apiVersion, kind string
	t                int32
}

// typeID indexes apiTypes; noType is no built-in type.
type typeID = int32

const noType typeID = -1

// field returns the type of the JSON field name of struct type t.
func field(t typeID, name string) (typeID, bool) {
	fs := apiTypes[t].f
	i, ok := slices.BinarySearchFunc(fs, name, func(f apiField, n string) int { return strings.Compare(f.name, n) })
	if !ok {
		return noType, false
	}
	return fs[i].t, true
}

// kindType is the type of kind in apiVersion, noType for other kinds.
// apiVersion is read as Kubernetes parses a group version: "v1" and "/v1"
// are the core group.
func kindType(apiVersion, kind string) typeID {
	switch strings.Count(apiVersion, "/") {
	case 0:
	case 1:
		apiVersion = strings.TrimPrefix(apiVersion, "/")
	default:
		return noType
	}
	if apiVersion == "" || kind == "" {
		return noType
	}
	i, ok := slices.BinarySearchFunc(apiKinds[:], apiKind{apiVersion: apiVersion, kind: kind}, compareKinds)
	if !ok {
		return noType
	}
	return apiKinds[i].t
}

func compareKinds(a, b apiKind) int {
	if a.apiVersion != b.apiVersion {
		return strings.Compare(a.apiVersion, b.apiVersion)
	}
	return strings.Compare(a.kind, b.kind)
}
