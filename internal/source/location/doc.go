// Package location is the source seam: it owns where bundles are. A
// [Location] is a local folder ([Local]) or a folder of a git repository
// at a ref ([Git]); [Sources] turns what a FunctionConfig or a bundle names
// (a path, a git source, `extends: {kudo: ...}` looked up in named
// repositories, a KudoOperator package) into a Location, and keeps every
// local path inside its confinement folder (the KRM package, the Argo CD
// application's repository), symbolic links resolved.
//
// Stages after it (extend, engine) only call Location.Open and
// Location.Join, so a new kind of source (an OCI artifact, say) is one new
// type implementing Location, one field in the FunctionConfig and one case
// in [Sources.Extends].
//
// Git access is injected as a [GitOpener]; [FetcherOpener] builds one on
// package gitsource's go-git Fetcher, with pins, pin verification and the
// url@commit:path identity that provenance annotations and cycle
// detection use.
package location
