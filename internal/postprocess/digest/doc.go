// Package digest makes renders tamper-evident and reproducible, in the
// spirit of Governor's resource versions and processed-markers, offline:
//
//   - every rendered object carries kudorender.dev/resource-version:
//     sha256:<digest of its canonical content> (the object as JSON with
//     sorted keys, without the two annotations of this package);
//   - every object carries kudorender.dev/processed-by:
//     <framework>@<version>/<input digest>, the digest of everything the
//     render read (the merged bundle, the instance, the plans, the target
//     and the parameter values). A KRM function that meets objects with its
//     own marker and the same input digest leaves them untouched;
//   - pinned resource versions (spec.expectedResourceVersions) refuse a
//     render whose output changed without the pin being updated: the
//     offline counterpart of Governor's conflict on a stale resource
//     version.
package digest
