// Package arch holds the tests of kudo-render's architecture: the floor
// plan (every package on a floor, importing only lower floors: no import
// back up, no cycle), the core stages never import an adapter, the
// FunctionConfig API (config) imports nothing of the render nor of
// Kubernetes and names no internal type, every package documents what it
// owns in a doc.go, every package of the core has a runnable Example of its
// entry point, no function is longer than 80 lines, YAML text is read
// with a YAML library only through internal/yaml/strictyaml (or a file listed
// with the reason its text is safe), and the repository's root holds only
// the entries its list names, at most 14 besides dot-files, with only the
// public packages outside internal/. It has no code of its own.
package arch
