// Package cachedir is what the caches of remote sources (gitsource,
// oci) share: where a cache lives when no folder is given ([UserDir]) and
// the lock a writer of an entry holds ([Lock]), so that two processes
// rendering at once fetch a commit or an artifact once and never write
// over each other.
//
// A lock is an flock(2) where the system has it: the kernel drops it when
// its holder dies, so it is never stale. Elsewhere it is a lock file
// created exclusively, taken over when older than [StaleAfter] (left by a
// process that died). Either way it excludes the other holders, in this
// process or another, and waiting for it ends with the caller's context.
package cachedir
