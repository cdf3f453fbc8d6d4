// Package extend resolves KEP-0012 framework extensions: a bundle whose
// framework.yaml (or, as kudo-render's extension, operator.yaml) says
// `extends` is merged with its base, recursively, into one bundle.
//
// A base is found by `extends.path` (a folder relative to the extension;
// inside a git repository it stays in that repository), `extends.git`
// ({url, ref, path}) or `extends.kudo` ({framework, version}) looked up in
// the repositories the FunctionConfig names, laid out as
// <framework>/<version>/ or as <framework>/ whose framework.yaml has that
// version. The FunctionConfig's spec.base replaces the top bundle's
// `extends`. Chains are allowed, capped at DefaultMaxDepth, and cycles are
// errors that list the chain. The merge semantics are Merge's.
//
// Git access is injected (OpenGit) so the package does not depend on how
// repositories are fetched and cached.
package extend
