// Package output is kudo-render's one output writer.
//
// [Names] gives every object its file name, the one naming scheme of the
// `--output-dir` folder, the Flux folders and the KRM function's paths:
// "<kind>_<name>.yaml", lower case, with every byte outside [a-z0-9._-]
// replaced by "-", so a name can never hold a separator, "..", or a NUL,
// never start with a dot and never exceed [MaxNameLen] bytes (a cut name
// ends in a short hash). Two objects that would share a name are told
// apart by their namespace, then by a hash of their identity; the result
// depends only on the set of objects, not on their order.
//
// [WriteDir] writes a tree all or nothing: it builds a complete new tree
// beside DIR on the same file system (files kudo-render wrote before and
// does not write now are left out; every other entry of DIR is carried
// over as it is, symbolic links as links, never followed), fsyncs it and
// swaps it in with one atomic rename; until then a [Writer]'s watchdog or
// a signal can stop it and remove what was built. A full disk, an
// unwritable path or a crash leaves DIR exactly as it was. The files
// kudo-render owns are listed in DIR/[ManifestName].
package output
