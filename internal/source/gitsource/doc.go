// Package gitsource fetches the git sources of kudo-render (framework bases,
// repositories of frameworks, KudoOperator dependencies) into a local cache
// and hands them to the bundle loader as an [io/fs.FS]:
//
//	f, err := source.New(source.Options{Warn: func(s string) { fmt.Fprintln(os.Stderr, "warning:", s) }})
//	fsys, res, err := f.Open(ctx, source.Ref{URL: g.URL, Ref: g.Ref, Commit: g.Commit, Path: g.Path})
//	b, err := bundle.Load(fsys, path.Base(res.Path))
//	// provenance: res.URL + "@" + res.Commit, res.Path
//
// It is built on go-git (no git binary is needed), in the style of Flux's
// fluxcd/pkg/git: an interface ([Fetcher]), one go-git implementation ([New]),
// credentials scrubbed from every error ([Error], [Scrub]).
//
// [NewKind] makes it the git [location.Kind] of the source seam (package
// location): pins, pin verification and the url@commit:path identity ([ID])
// that provenance annotations and cycle detection use.
//
// # URLs
//
// Accepted ([ValidateURL]): https://host/org/repo, ssh://[user@]host[:port]/org/repo
// and the scp-like [user@]host:org/repo. http:// only with
// Options.AllowInsecureHTTP; file:///abs/path and /abs/path only with
// Options.AllowLocal (local repositories are read directly with go-git; a
// relative path is rejected, callers resolve it against the file that names
// it). Rejected: remote helpers (ext::, fd::, any "::" outside an IPv6
// address), git://, URLs or hosts, users and repository paths starting with
// '-', query strings and fragments (they can carry tokens), control
// characters, spaces, backslashes and non-ASCII characters.
//
// # Refs
//
// Ref.Ref is a branch, a tag or a full 40-hex commit SHA; empty is the
// remote's default branch (HEAD). A short name is tried as a branch first,
// then as a tag, as `git clone --branch` does; refs/heads/x and refs/tags/x
// name one kind. Annotated tags are peeled to their commit. Ref.Commit pins a
// commit and wins over Ref (Ref then only says where to search it, see
// below). Abbreviated SHAs are rejected. Ref.Path is the package folder: a
// clean relative path; "..", absolute paths, "./", "//" and .git are
// rejected. The [io/fs.FS] that Open returns is an [os.Root] on that folder:
// nothing outside it can be read through it.
//
// # Network cost
//
//   - A pinned Commit or a full SHA that is in the cache: no network at all.
//     A cached commit is never fetched again.
//   - A branch or tag: one ls-remote (one HTTP request), then the cache if the
//     commit is there.
//   - A commit that is not cached: one shallow fetch (depth 1, only that ref,
//     no tags, never submodules) into go-git's memory storage; the files of
//     the commit's tree are then written to the cache. Blobs are never
//     checked out through a work tree.
//
// # Fetching a commit by SHA
//
// go-git can only ask for a commit that is no branch or tag tip when the
// server advertises allow-reachable-sha1-in-want or allow-tip-sha1-in-want
// (GitHub, GitLab, Gitea and Bitbucket do; plain git needs
// uploadpack.allowReachableSHA1InWant). So for a SHA, Open:
//
//  1. asks for it directly (depth 1). If the server refuses to serve SHAs:
//  2. runs ls-remote; if a branch or tag points at the commit, fetches that
//     ref at depth 1. Otherwise:
//  3. fetches the history of Ref.Ref when given (a pinned commit's branch),
//     else of every branch and tag, at depth 50, then deepens it to
//     Options.MaxDepth (default 1000) commits, and stops as soon as the
//     commit is there or the whole history is. A commit deeper than that is
//     reported as not found, naming the limit.
//
// # Verifying a pin
//
// Contains(ctx, ref, commit) tells whether the branch or tag still contains a
// pinned commit (for `kudo-render lock --verify`): true at once if it is the
// tip (one ls-remote), else the ref's history is fetched shallowly (depth 50,
// then Options.MaxDepth) and walked. A commit that is neither within the last
// MaxDepth commits nor a parent of one of them counts as not contained.
// Contains always uses the network (it fails with [ErrNotCached] offline).
//
// # Offline
//
// Options.Offline uses the cache only. A commit that is not cached is an
// error ([ErrNotCached]) naming the scrubbed URL, the ref and the cache
// folder. A branch or tag resolves to the commit it had when this cache last
// resolved it online (each online resolution is remembered), with a warning
// that names that time and says it may be stale; a ref never resolved online
// is an error. Local repositories (AllowLocal) are read as usual: no network
// is involved.
//
// # Warnings
//
// Options.Warn receives: "rendering from unpinned branch main of URL (commit
// abc123): pin it with kudo-render lock" when Open renders a branch (or the
// default branch) without a pinned Commit (tags and SHAs do not warn);
// offline resolutions that may be stale; submodules inside the package
// folder, which are never fetched (gitlinks are left out of the tree).
//
// # Credentials
//
// Read by [AuthFromEnv] when Options.Auth is nil (New fails early on
// unreadable files, conflicting variables or an unusable ssh key). Every
// secret can come from a mounted file instead: NAME_FILE names it, and its
// content without the trailing newline is the value.
//
//	KUDO_RENDER_GIT_TOKEN          https token, sent as HTTP basic auth password
//	                               with user KUDO_RENDER_GIT_USERNAME, default
//	                               "x-access-token" (GitHub, GitLab, Gitea, Bitbucket)
//	KUDO_RENDER_GIT_USERNAME       HTTP basic auth user
//	KUDO_RENDER_GIT_PASSWORD       HTTP basic auth password (needs the user)
//	KUDO_RENDER_GIT_BEARER_TOKEN   "Authorization: Bearer" (Azure DevOps, Bitbucket Server)
//	KUDO_RENDER_GIT_HOSTS          comma-separated host or host:port that receive the
//	                               https credentials, and no other host (a config or a
//	                               base's extends can name any URL); required with them
//	KUDO_RENDER_SSH_KEY_FILE       private key for ssh URLs (else the ssh-agent at
//	                               $SSH_AUTH_SOCK); the user comes from the URL, default git
//	KUDO_RENDER_SSH_KEY_PASSPHRASE passphrase of an encrypted key
//	KUDO_RENDER_KNOWN_HOSTS        known_hosts file; unset: $SSH_KNOWN_HOSTS, else
//	                               ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts.
//	                               Host keys are always checked.
//
// One of password, token and bearer token may be set. Credentials in a URL's
// user info (https://user:token@host/...) are used for that URL and win. They
// are sent over http:// only when AllowInsecureHTTP allows http:// at all.
// Custom CAs come from SSL_CERT_FILE / SSL_CERT_DIR and proxies from
// HTTPS_PROXY / NO_PROXY, as for any Go program.
//
// No error or warning contains a credential: URLs are shown through [Scrub]
// (https user info removed entirely, since a token is often written as the
// user; ssh passwords removed, ssh users kept; query strings removed), and the
// text of every underlying error is scrubbed of URL user info and of the
// configured secrets. [Error.Unwrap] returns a sentinel kind ([ErrInvalid],
// [ErrNotCached], [ErrNotFound], [ErrAuth], [ErrUnsafe]), never the raw cause.
//
// # Trees
//
// Regular and executable files are written as files, symbolic links as
// symbolic links. When a folder is opened, every symbolic link below it is
// resolved within the tree (following chains of links): a link that is
// absolute, leaves the repository, leaves the package folder or loops is an
// error ([ErrUnsafe]) naming the link and its target; a package folder
// reached through a link is an error too. The [os.Root] enforces the same
// rule when files are read. Tree entry names that could escape (".", "..",
// names with '/', .git) are rejected; on a case-insensitive file system two
// names differing only in case are an error. Submodules (gitlinks) are never
// fetched; .gitmodules is an ordinary file.
//
// # Limits
//
// A fetch downloads at most --max-git-pack-bytes in at most
// --max-git-pack-objects objects, none (and none a delta makes) over
// --max-git-blob-bytes; a commit's tree is measured before anything is
// written (each folder object counted once, however often the tree
// repeats it): at most --max-git-tree-entries entries and
// --max-git-tree-bytes of files. Local repositories (AllowLocal,
// [CheckoutRevision]) read no object over --max-git-blob-bytes: a loose
// object's header is read first and its content never past it. Network
// operations under way are recorded with limits.WaitingOn, for a
// watchdog's message.
//
// # Revisions of a local repository
//
// [CheckoutRevision] (`kudo-render diff --from-rev`) reads a revision as
// git does, in these forms only: a full or abbreviated (4+ digits) commit
// id, HEAD or @, a branch, tag or remote-tracking branch name (refs/...
// too; looked up in git's order, so a tag wins over a branch of the same
// name), describe output (v1.2-3-gabc1234), each followed by any number
// of ~N and ^N. Reflog entries and upstreams (@{...}), REV:path,
// ^{...}, :/text, ranges and pseudo-refs such as FETCH_HEAD are refused
// with an error naming the spec, never read as another revision.
//
// # Cache
//
// The cache directory is Options.CacheDir, else $KUDO_RENDER_CACHE, else
// $XDG_CACHE_HOME/kudo-render/git (~/.cache/kudo-render/git; see
// [os.UserCacheDir]). It is created 0700: it may hold private repositories.
//
//	<cache>/<host_path>-<hash>/          one folder per scrubbed URL (the hash makes it unique)
//	  url                                the scrubbed URL, for people
//	  commits/<sha>/meta.json            URL, commit, fetch time, symbolic links, submodules
//	  commits/<sha>/tree/...             the whole tree of the commit (every Path of it)
//	  refs/<ref>-<hash>.json             last online resolution of a branch or tag (offline)
//	  locks/<sha>.lock                   fetch lock of that commit
//	  tmp/<sha>-*/                       entries being written
//
// The key is URL + commit SHA; credentials are never part of it or written
// to disk. An entry is written in tmp/ and renamed into commits/ once
// complete (meta.json written last), so readers see all of it or nothing; an
// entry without a valid meta.json is replaced. Entries are never modified
// afterwards. The commits of a repository are fetched under a per-commit
// lock: flock(2) on Linux, macOS and the BSDs (released by the kernel if the
// process dies), an exclusive lock file elsewhere (taken over after 10
// minutes). A render that finds the lock held waits, then finds the entry
// written by the holder: concurrent renders sharing one cache fetch a commit
// once. The cache may be deleted at any time when no render runs; nothing
// prunes it automatically.
//
// # Tests
//
// Package [github.com/kudo-render/kudo-render/source/gittest] serves real
// repositories over a loopback smart-HTTP server (git http-backend), with a
// request counter and optional basic auth, for these tests and for the
// tests of the packages that use this one.
package gitsource
