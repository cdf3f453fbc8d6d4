// Package location is the source seam: it owns where bundles are. A
// [Location] is a local folder ([Local]) or a folder of a remote source
// ([Remote]: git, ...); [Sources] turns what a FunctionConfig or a bundle
// names (a path, a remote source, `extends: {kudo: ...}` looked up in named
// repositories, a KudoOperator package) into a Location, and keeps every
// local path inside its confinement folder (the KRM package, the Argo CD
// application's repository), symbolic links resolved.
//
// Stages after it (extend, engine, config's lock) only call Location.Open
// and Location.Join, and reach remote sources through the [Kind]
// interface, so a new kind of source is one package implementing Kind
// (package gitsource implements it for git), one field of bundle.Remote
// (which every place that names a folder embeds: a framework, a base, a
// repository, extends) and one entry in the run's [Kinds]. This package
// imports no source package.
package location
