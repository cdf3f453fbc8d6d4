// Package gitsource fetches the git sources of a render (frameworks,
// bases, repositories of packages, KudoOperator dependencies) with go-git
// into a cache keyed by URL and commit, and hands each folder to the
// bundle loader as an [io/fs.FS] it cannot leave. In the pipeline it is
// the "git" kind of the source seam ([NewKind] implements
// location.Kind): the stages after it reach git only through package
// location, and [CheckoutRevision] serves `kudo-render diff --from-rev`.
//
// The one thing to know: what it reads is someone else's server and
// repository. Every error and warning is scrubbed of credentials
// ([Scrub], [Error]), credentials go only to the hosts they are for
// ([AuthFromEnv]), every cost is bounded before it is paid (the
// --max-git-* limits), and a commit's tree enters the cache whole or not
// at all.
//
// docs/git.md is the reference: the URLs and refs accepted, what each
// source costs the network, pins, offline use, credentials, trees, the
// cache's layout and the limits. Package gittest serves real repositories
// to the tests over a loopback git http-backend.
package gitsource
