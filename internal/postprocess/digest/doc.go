// Package digest makes renders tamper-evident and reproducible, in the
// spirit of Governor's resource versions and processed-markers, offline:
//
//   - every rendered object carries kudorender.dev/resource-version:
//     sha256:<digest of its canonical content> (the object as JSON with
//     sorted keys, without the two annotations of this package);
//   - every object carries kudorender.dev/processed-by:
//     <framework>@<version>/<resource version>: the package that rendered
//     it and what it made. It changes only when the object does, so a
//     parameter change rewrites only the objects it changes (Argo CD syncs
//     those alone). A KRM function that renders objects its input already
//     holds with the same markers leaves them untouched;
//   - pinned resource versions (spec.expectedResourceVersions) refuse a
//     render whose output changed without the pin being updated: the
//     offline counterpart of Governor's conflict on a stale resource
//     version.
package digest
