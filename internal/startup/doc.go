// Package startup holds the garbage collector off while Go initialises
// the packages linked into kudo-render, and gives it back when main
// starts (Done).
//
// Every process runs the initialisers of some 600 packages before main
// (Kubernetes' schemes and feature gates, jsonschema's meta-schemas, ...:
// 8.6 MB in 78,000 allocations, nearly all of it kept), and the collector
// ran three cycles over that heap while it grew: 40% of the instructions
// of kudo-render version (docs/performance.md, "Start-up weight"). Go
// initialises packages in import-path order as soon as their imports are
// initialised, so this package, which imports only runtime/debug, runs
// before every package of the module's dependencies whose path sorts
// after github.com/kudo-render (golang.org, google.golang.org, k8s.io,
// sigs.k8s.io, santhosh-tekuri/jsonschema, ...) and most of the others.
// The main package imports it first; Done restores the setting the
// process started with (GOGC, or its default), so renders collect as
// before.
package startup
