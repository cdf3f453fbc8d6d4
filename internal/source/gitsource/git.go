package gitsource

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// gitFetcher is the go-git implementation of Fetcher.
type gitFetcher struct {
	opts  Options
	auth  *Auth
	cache *cache
	// bound is the one time bound of the network operations
	// (deadline.go).
	bound limits.Bound
}

// target is a validated Ref.
type target struct {
	ep       *endpoint
	ref      string // as given, "" for HEAD
	refIsSHA bool
	commit   string // pinned commit, lower case
	path     string // clean, "" for the root
}

// wantRef is the local name fetched commits are stored under.
const wantRef = "refs/kudo-render/want"

// firstDepth is the first history depth tried when searching for a commit.
const firstDepth = 50

func (f *gitFetcher) Resolve(ctx context.Context, r Ref) (Resolved, error) {
	t, err := f.target(r)
	if err != nil {
		return Resolved{}, err
	}
	res, err := f.resolve(ctx, t)
	if err != nil {
		return Resolved{}, f.fail(t, err)
	}
	return res, nil
}

func (f *gitFetcher) Open(ctx context.Context, r Ref) (fs.FS, Resolved, error) {
	t, err := f.target(r)
	if err != nil {
		return nil, Resolved{}, err
	}
	fsys, res, err := f.open(ctx, t)
	if err != nil {
		return nil, Resolved{}, f.fail(t, err)
	}
	return fsys, res, nil
}

func (f *gitFetcher) open(ctx context.Context, t *target) (fs.FS, Resolved, error) {
	res, err := f.resolve(ctx, t)
	if err != nil {
		return nil, res, err
	}
	m, err := f.ensure(ctx, t, &res)
	if errors.Is(err, errMoved) {
		// The branch moved between the ls-remote and the fetch: resolve again.
		if res, err = f.resolve(ctx, t); err == nil {
			m, err = f.ensure(ctx, t, &res)
		}
	}
	if err != nil {
		return nil, res, err
	}
	fsys, err := openTree(f.cache.commitDir(t.ep, res.Commit), t.path, m)
	if err != nil {
		return nil, res, err
	}
	if sub := submodulesUnder(m, t.path); len(sub) > 0 {
		f.opts.Warn(fmt.Sprintf("%s@%s: submodules are not fetched; %s left out", res.URL, short(res.Commit), strings.Join(sub, ", ")))
	}
	if t.commit == "" && !t.refIsSHA && (res.Ref == "HEAD" || strings.HasPrefix(res.Ref, "refs/heads/")) {
		branch := strings.TrimPrefix(res.Ref, "refs/heads/")
		what := "unpinned branch " + branch
		if t.ref == "" || t.ref == "HEAD" {
			what = "the unpinned default branch (" + branch + ")"
		}
		f.opts.Warn(fmt.Sprintf("rendering from %s of %s (commit %s): pin it with kudo-render lock", what, res.URL, short(res.Commit)))
	}
	return fsys, res, nil
}

func (f *gitFetcher) Contains(ctx context.Context, r Ref, commit string) (bool, error) {
	r.Commit = ""
	t, err := f.target(r)
	if err != nil {
		return false, err
	}
	commit = strings.ToLower(commit)
	if !isSHA(commit) {
		return false, f.fail(t, errorf(ErrInvalid, "commit %q is not a full 40-hex SHA", commit))
	}
	ok, err := f.contains(ctx, t, commit)
	if err != nil {
		return false, f.fail(t, err)
	}
	return ok, nil
}

func (f *gitFetcher) contains(ctx context.Context, t *target, commit string) (bool, error) {
	if f.opts.Offline && t.ep.kind != kindLocal {
		return false, errorf(ErrNotCached, "cannot verify that the ref contains commit %s offline", short(commit))
	}
	if t.ep.kind == kindLocal {
		return containsLocal(t, commit)
	}
	var spec config.RefSpec
	tip := t.ref
	if t.refIsSHA {
		if t.ref == commit {
			return true, nil
		}
		spec = config.RefSpec(t.ref + ":" + wantRef)
	} else {
		res, err := f.resolveOnline(ctx, t)
		if err != nil {
			return false, err
		}
		if res.Commit == commit {
			return true, nil
		}
		tip = res.Commit
		spec = config.RefSpec("+" + res.Ref + ":" + wantRef)
		if res.Ref == "HEAD" {
			spec = "+HEAD:" + wantRef
		}
	}
	st := newGuardedStorage(limits.Current(), "the fetched pack")
	for _, depth := range f.depths() {
		if err := f.fetch(ctx, t, st, []config.RefSpec{spec}, depth); err != nil {
			return false, err
		}
		ref, err := st.Reference(wantRef)
		if err != nil {
			return false, err
		}
		tipCommit, err := peel(st, ref.Hash())
		if err != nil {
			return false, err
		}
		if tipCommit.String() != tip && t.refIsSHA {
			return false, errorf(ErrNotFound, "commit %s not found", short(tip))
		}
		found, complete := ancestor(st, tipCommit, plumbing.NewHash(commit))
		if found {
			return true, nil
		}
		if complete {
			return false, nil
		}
	}
	return false, nil
}

// containsLocal answers Contains for a local repository, whose whole history
// is at hand.
func containsLocal(t *target, commit string) (bool, error) {
	refs, err := listLocal(t.ep.dir)
	if err != nil {
		return false, err
	}
	tip := t.ref
	if !t.refIsSHA {
		if _, tip, err = refs.match(t.ref); err != nil {
			return false, err
		}
	}
	repo, err := openLocal(t.ep.dir)
	if err != nil {
		return false, err
	}
	if _, err := object.GetCommit(repo.Storer, plumbing.NewHash(tip)); err != nil {
		return false, errorf(ErrNotFound, "commit %s not found", short(tip))
	}
	found, _ := ancestor(repo.Storer, plumbing.NewHash(tip), plumbing.NewHash(commit))
	return found, nil
}

// depths is the sequence of history depths tried when searching a commit.
func (f *gitFetcher) depths() []int {
	if f.opts.MaxDepth <= firstDepth {
		return []int{f.opts.MaxDepth}
	}
	return []int{firstDepth, f.opts.MaxDepth}
}

// target validates r.
func (f *gitFetcher) target(r Ref) (*target, error) {
	invalid := func(format string, args ...any) error {
		return f.fail(&target{ep: &endpoint{scrubbed: Scrub(r.URL)}, ref: refLabel(r)}, errorf(ErrInvalid, format, args...))
	}
	ep, err := parseEndpoint(r.URL, f.opts)
	if err != nil {
		return nil, &Error{URL: Scrub(r.URL), Ref: refLabel(r), Msg: scrubText(strings.TrimPrefix(err.Error(), "invalid git URL "+fmt.Sprintf("%q", Scrub(r.URL))+": "), f.secrets(nil)...), Kind: ErrInvalid}
	}
	t := &target{ep: ep, ref: strings.TrimSpace(r.Ref), commit: strings.ToLower(strings.TrimSpace(r.Commit))}
	if t.commit != "" && !isSHA(t.commit) {
		return nil, invalid("commit %q is not a full 40-hex SHA", r.Commit)
	}
	switch {
	case isSHA(strings.ToLower(t.ref)):
		t.ref, t.refIsSHA = strings.ToLower(t.ref), true
	case t.ref != "":
		if err := checkRefName(t.ref); err != nil {
			return nil, invalid("ref %q: %v", r.Ref, err)
		}
	}
	p, err := cleanPath(r.Path)
	if err != nil {
		return nil, invalid("%v", err)
	}
	t.path = p
	return t, nil
}

// refLabel is what messages show of a Ref.
func refLabel(r Ref) string {
	if r.Commit != "" {
		return r.Commit
	}
	return r.Ref
}

func (t *target) label() string {
	if t.commit != "" {
		return t.commit
	}
	return t.ref
}

// fail wraps err into an *Error whose text carries no credentials.
func (f *gitFetcher) fail(t *target, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	authSent := false
	if t.ep.kind != "" {
		_, authSent, _ = f.auth.method(t.ep)
	}
	msg, kind := describe(err, t.ep.host, authSent)
	if kind == ErrAuth && !authSent && f.auth.hasHTTP() && (t.ep.kind == kindHTTPS || t.ep.kind == kindHTTP) {
		msg = "authentication required, and the configured credentials are only for " + EnvGitHosts + " (" +
			strings.Join(f.auth.Hosts, ", ") + "), not " + t.ep.host + ": add it there if it is one of yours"
	}
	return &Error{URL: t.ep.scrubbed, Ref: t.label(), Msg: scrubText(msg, f.secrets(t.ep)...), Kind: kind}
}

func (f *gitFetcher) secrets(e *endpoint) []string {
	s := f.auth.secrets()
	if e != nil {
		s = append(s, e.password)
		if (e.kind == kindHTTPS || e.kind == kindHTTP) && len(e.user) >= 8 {
			s = append(s, e.user) // a token written as the user name
		}
	}
	return s
}

// resolve turns t into a commit.
func (f *gitFetcher) resolve(ctx context.Context, t *target) (Resolved, error) {
	res := Resolved{URL: t.ep.scrubbed, Path: t.path}
	switch {
	case t.commit != "":
		res.Commit = t.commit
		return res, nil
	case t.refIsSHA:
		res.Commit = t.ref
		return res, nil
	case f.opts.Offline && t.ep.kind != kindLocal:
		m, ok := f.cache.recall(t.ep, t.ref)
		if !ok {
			return res, errorf(ErrNotCached, "offline, and %s was never resolved online with this cache (%s): run once online, or pin a commit with kudo-render lock", describeRef(t.ref), f.cache.dir)
		}
		f.opts.Warn(fmt.Sprintf("offline: using commit %s for %s of %s, as resolved online at %s; it may be stale", short(m.Commit), describeRef(t.ref), res.URL, m.ResolvedAt.UTC().Format(time.RFC3339)))
		res.Ref, res.Commit = m.Name, m.Commit
		return res, nil
	}
	return f.resolveOnline(ctx, t)
}

func describeRef(ref string) string {
	if ref == "" {
		return "the default branch"
	}
	return fmt.Sprintf("ref %q", ref)
}

// resolveOnline runs one ls-remote and remembers the result.
func (f *gitFetcher) resolveOnline(ctx context.Context, t *target) (Resolved, error) {
	res := Resolved{URL: t.ep.scrubbed, Path: t.path}
	refs, err := f.list(ctx, t)
	if err != nil {
		return res, err
	}
	name, sha, err := refs.match(t.ref)
	if err != nil {
		return res, err
	}
	res.Ref, res.Commit = name, sha
	// Best effort: a read-only cache only costs the offline fallback.
	_ = f.cache.remember(t.ep, memo{Ref: t.ref, Name: name, Commit: sha, ResolvedAt: time.Now().UTC()})
	return res, nil
}

// refTable is a remote's advertisement.
type refTable struct {
	hashes map[string]string // full name -> object SHA
	peeled map[string]string // tag name -> commit SHA
	head   string            // HEAD's target branch, if symbolic
}

func newRefTable(refs []*plumbing.Reference) *refTable {
	rt := &refTable{hashes: map[string]string{}, peeled: map[string]string{}}
	for _, r := range refs {
		name := r.Name().String()
		switch {
		case r.Type() == plumbing.SymbolicReference:
			if name == "HEAD" {
				rt.head = r.Target().String()
			}
		case strings.HasSuffix(name, "^{}"):
			rt.peeled[strings.TrimSuffix(name, "^{}")] = r.Hash().String()
		default:
			rt.hashes[name] = r.Hash().String()
		}
	}
	return rt
}

// commitOf returns the commit a ref names (tags peeled).
func (rt *refTable) commitOf(name string) (string, bool) {
	if p, ok := rt.peeled[name]; ok {
		return p, true
	}
	h, ok := rt.hashes[name]
	return h, ok
}

// match resolves ref: "" or HEAD is the default branch, a full name is
// itself, a short name is a branch, else a tag.
func (rt *refTable) match(ref string) (name, sha string, err error) {
	var candidates []string
	switch {
	case ref == "" || ref == "HEAD":
		if rt.head != "" {
			if sha, ok := rt.commitOf(rt.head); ok {
				return rt.head, sha, nil
			}
		}
		if sha, ok := rt.hashes["HEAD"]; ok {
			return "HEAD", sha, nil
		}
		return "", "", errorf(ErrNotFound, "the repository has no default branch (HEAD)")
	case strings.HasPrefix(ref, "refs/"):
		candidates = []string{ref}
	default:
		candidates = []string{"refs/heads/" + ref, "refs/tags/" + ref}
	}
	for _, c := range candidates {
		if sha, ok := rt.commitOf(c); ok {
			return c, sha, nil
		}
	}
	var branches []string
	for n := range rt.hashes {
		if b, ok := strings.CutPrefix(n, "refs/heads/"); ok {
			branches = append(branches, b)
		}
	}
	sort.Strings(branches)
	hint := ""
	if len(branches) > 0 {
		if len(branches) > 5 {
			branches = append(branches[:5], "...")
		}
		hint = " (branches: " + strings.Join(branches, ", ") + ")"
	}
	return "", "", errorf(ErrNotFound, "no branch or tag named %q%s", ref, hint)
}

// tipOf returns a ref whose tip is the commit sha.
func (rt *refTable) tipOf(sha string) (string, bool) {
	names := make([]string, 0, len(rt.hashes))
	for n := range rt.hashes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if c, _ := rt.commitOf(n); c == sha && n != "HEAD" {
			return n, true
		}
	}
	return "", false
}

// list is ls-remote.
func (f *gitFetcher) list(ctx context.Context, t *target) (*refTable, error) {
	if t.ep.kind == kindLocal {
		return listLocal(t.ep.dir)
	}
	auth, _, err := f.auth.method(t.ep)
	if err != nil {
		return nil, err
	}
	var refs []*plumbing.Reference
	err = f.within(ctx, "git ls-remote", func(ctx context.Context) error {
		defer f.slow(t, "git ls-remote", "listing refs")()
		rem := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{t.ep.raw}})
		var err error
		refs, err = rem.ListContext(ctx, &git.ListOptions{Auth: auth, PeelingOption: git.AppendPeeled})
		return err
	})
	if err != nil {
		return nil, err
	}
	return newRefTable(refs), nil
}

// errMoved: a branch moved between ls-remote and fetch.
var errMoved = errors.New("the ref moved while fetching")

// ensure makes sure res.Commit is in the cache and returns its metadata.
func (f *gitFetcher) ensure(ctx context.Context, t *target, res *Resolved) (*meta, error) {
	if m, ok := f.cache.lookup(t.ep, res.Commit); ok {
		return m, nil
	}
	if f.opts.Offline && t.ep.kind != kindLocal {
		return nil, errorf(ErrNotCached, "offline, and commit %s is not in the cache (%s): run once online", short(res.Commit), f.cache.dir)
	}
	// The lock waits while another process fetches the same commit: for
	// a remote, a wait on the network too, within the same bound.
	var unlock func()
	lock := func(ctx context.Context) error {
		var err error
		unlock, err = f.cache.lock(ctx, t.ep, res.Commit)
		return err
	}
	var err error
	if t.ep.kind == kindLocal {
		err = lock(ctx)
	} else {
		err = f.waitWithin(ctx, "waiting for another fetch of commit "+short(res.Commit), lock)
	}
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another render may have fetched it while we waited for the lock.
	if m, ok := f.cache.lookup(t.ep, res.Commit); ok {
		return m, nil
	}
	st, err := f.fetchCommit(ctx, t, res)
	if err != nil {
		return nil, err
	}
	defer activity.WaitingOn("git checkout of " + t.ep.scrubbed + "@" + short(res.Commit) + " into the cache")()
	return f.cache.install(t.ep, res.Commit, func(dir string) (*meta, error) {
		return writeCommit(st, plumbing.NewHash(res.Commit), dir, t.ep.scrubbed)
	})
}

// fetchCommit brings res.Commit and its tree into an object storage: the
// local repository itself, or memory filled by a shallow fetch.
func (f *gitFetcher) fetchCommit(ctx context.Context, t *target, res *Resolved) (storer.EncodedObjectStorer, error) {
	want := plumbing.NewHash(res.Commit)
	if t.ep.kind == kindLocal {
		repo, err := openLocal(t.ep.dir)
		if err != nil {
			return nil, err
		}
		if _, err := object.GetCommit(repo.Storer, want); err != nil {
			return nil, errorf(ErrNotFound, "commit %s not found", short(res.Commit))
		}
		return repo.Storer, nil
	}
	// A branch or tag just resolved: fetch its tip.
	if res.Ref != "" {
		st := newFetchStorage()
		if err := f.fetch(ctx, t, st, []config.RefSpec{refSpec(res.Ref)}, 1); err != nil {
			return nil, err
		}
		if !hasCommit(st, want) {
			return nil, errMoved
		}
		return st, nil
	}
	if st, done, err := f.fetchBySHA(ctx, t, res); done {
		return st, err
	}
	return f.searchCommit(ctx, t, res)
}

// newFetchStorage is an empty storage for a fetched pack, within the
// current limits.
func newFetchStorage() *guardedStorage {
	return newGuardedStorage(limits.Current(), "the fetched pack")
}

// hasCommit reports whether st holds the commit want.
func hasCommit(st *guardedStorage, want plumbing.Hash) bool {
	_, err := object.GetCommit(st, want)
	return err == nil
}

// fetchBySHA asks for the commit res.Commit directly, which servers allow
// when they advertise allow-reachable-sha1-in-want or
// allow-tip-sha1-in-want (GitHub, GitLab, Gitea, Bitbucket do). done is
// false when the server does not serve it by SHA and it is worth
// searching the refs.
func (f *gitFetcher) fetchBySHA(ctx context.Context, t *target, res *Resolved) (st storer.EncodedObjectStorer, done bool, err error) {
	gs := newFetchStorage()
	err = f.fetch(ctx, t, gs, []config.RefSpec{config.RefSpec(res.Commit + ":" + wantRef)}, 1)
	switch {
	case err == nil && hasCommit(gs, plumbing.NewHash(res.Commit)):
		return gs, true, nil
	case err == nil:
		return nil, true, errorf(ErrNotFound, "commit %s not found", short(res.Commit))
	case !errors.Is(err, git.ErrExactSHA1NotSupported):
		if msg, kind := describe(err, t.ep.host, false); kind != nil || !strings.Contains(msg, "not our ref") {
			return nil, true, err
		}
		// The server refused this SHA: it does not exist, is not reachable
		// from a branch or tag, or the server only serves tips
		// (allow-tip-sha1-in-want). Searching every branch could be costly
		// and is mostly vain: only a ref given with the commit is searched.
		if t.ref == "" || t.refIsSHA {
			return nil, true, errorf(ErrNotFound, "commit %s not found (the server refused it by SHA: it does not exist, or is not reachable from a branch or tag; if the server only serves branch tips, set ref to the branch that contains it)", short(res.Commit))
		}
	}
	return nil, false, nil
}

// searchCommit finds res.Commit, which the server does not serve by SHA:
// as a branch or tag tip, else in the history of the given ref (or every
// branch and tag), up to MaxDepth commits deep.
func (f *gitFetcher) searchCommit(ctx context.Context, t *target, res *Resolved) (storer.EncodedObjectStorer, error) {
	want := plumbing.NewHash(res.Commit)
	refs, err := f.list(ctx, t)
	if err != nil {
		return nil, err
	}
	if name, ok := refs.tipOf(res.Commit); ok {
		st := newFetchStorage()
		if err := f.fetch(ctx, t, st, []config.RefSpec{refSpec(name)}, 1); err != nil {
			return nil, err
		}
		if hasCommit(st, want) {
			return st, nil
		}
	}
	specs := []config.RefSpec{"+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"}
	where := "any branch or tag"
	if t.ref != "" && !t.refIsSHA {
		name, _, err := refs.match(t.ref)
		if err != nil {
			return nil, err
		}
		specs, where = []config.RefSpec{refSpec(name)}, describeRef(t.ref)
	}
	st := newFetchStorage()
	for _, depth := range f.depths() {
		if err := f.fetch(ctx, t, st, specs, depth); err != nil {
			return nil, err
		}
		if hasCommit(st, want) {
			return st, nil
		}
		if shallow, err := st.Shallow(); err == nil && len(shallow) == 0 {
			// The whole history is here: no need to go deeper.
			return nil, errorf(ErrNotFound, "commit %s not found in %s", short(res.Commit), where)
		}
	}
	return nil, errorf(ErrNotFound, "commit %s not found in the last %d commits of %s (the server does not serve commits by SHA, so only history within that depth is searched)", short(res.Commit), f.opts.MaxDepth, where)
}

// ProgressAfter is how long a fetch runs before Options.Progress hears of
// it.
var ProgressAfter = time.Second

// slow tells Options.Progress about a network operation on t once it has
// run for ProgressAfter, and [Running] about it at once; call the
// returned function when it is done. op is what Running says ("git
// fetch", "git ls-remote").
func (f *gitFetcher) slow(t *target, op, what string) func() {
	url := Scrub(t.ep.raw)
	timer := time.AfterFunc(ProgressAfter, func() {
		f.opts.Progress(fmt.Sprintf("fetching %s (%s)...", url, what))
	})
	done := activity.WaitingOn(op + " of " + url + " (" + what + ")")
	return func() {
		timer.Stop()
		done()
	}
}

// refSpec fetches the remote ref name into wantRef.
func refSpec(name string) config.RefSpec {
	return config.RefSpec("+" + name + ":" + wantRef)
}

// fetch runs one shallow fetch into st: no tags, no submodules.
func (f *gitFetcher) fetch(ctx context.Context, t *target, st *guardedStorage, specs []config.RefSpec, depth int) error {
	auth, _, err := f.auth.method(t.ep)
	if err != nil {
		return err
	}
	what := "depth " + strconv.Itoa(depth)
	if depth == 0 {
		what = "whole history"
	}
	return f.within(ctx, opName(depth), func(ctx context.Context) error {
		defer f.slow(t, "git fetch", what)()
		rem := git.NewRemote(st, &config.RemoteConfig{Name: "origin", URLs: []string{t.ep.raw}})
		err := rem.FetchContext(ctx, &git.FetchOptions{
			RemoteName: "origin",
			RefSpecs:   specs,
			Depth:      depth,
			Tags:       git.NoTags,
			Auth:       auth,
			Force:      true,
		})
		if errors.Is(err, git.NoErrAlreadyUpToDate) {
			return nil
		}
		return err
	})
}

// peel returns the commit that h (a commit or an annotated tag) names.
func peel(st storer.EncodedObjectStorer, h plumbing.Hash) (plumbing.Hash, error) {
	for range 10 {
		obj, err := st.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return h, err
		}
		if obj.Type() != plumbing.TagObject {
			return h, nil
		}
		tag, err := object.DecodeTag(st, obj)
		if err != nil {
			return h, err
		}
		h = tag.Target
	}
	return h, errors.New("tag chain too long")
}

// ancestor searches commit among tip and its ancestors present in st.
// complete is false when the search reached a shallow boundary.
func ancestor(st storer.EncodedObjectStorer, tip, commit plumbing.Hash) (found, complete bool) {
	complete = true
	seen := map[plumbing.Hash]bool{tip: true}
	queue := []plumbing.Hash{tip}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if h == commit {
			return true, true
		}
		c, err := object.GetCommit(st, h)
		if err != nil {
			complete = false // the parent of a shallow commit
			continue
		}
		for _, p := range c.ParentHashes {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, complete
}

// listLocal reads the refs of a local repository.
func listLocal(dir string) (*refTable, error) {
	repo, err := openLocal(dir)
	if err != nil {
		return nil, err
	}
	iter, err := repo.References()
	if err != nil {
		return nil, err
	}
	var refs []*plumbing.Reference
	err = iter.ForEach(func(r *plumbing.Reference) error {
		refs = append(refs, r)
		if r.Type() == plumbing.HashReference && r.Name().IsTag() {
			if c, err := peel(repo.Storer, r.Hash()); err == nil && c != r.Hash() {
				refs = append(refs, plumbing.NewHashReference(plumbing.ReferenceName(r.Name().String()+"^{}"), c))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if head, err := repo.Storer.Reference(plumbing.HEAD); err == nil && !slices.ContainsFunc(refs, func(r *plumbing.Reference) bool { return r.Name() == plumbing.HEAD }) {
		refs = append(refs, head)
	}
	return newRefTable(refs), nil
}

func openLocal(dir string) (*git.Repository, error) {
	repo, err := openRepo(dir, false)
	if err != nil {
		if errors.Is(err, git.ErrRepositoryNotExists) || errors.Is(err, fs.ErrNotExist) {
			return nil, errorf(ErrNotFound, "no git repository at %s", dir)
		}
		return nil, err
	}
	return repo, nil
}

func isSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// checkRefName applies git check-ref-format's rules (for a branch or tag
// name, or a full refs/... name).
func checkRefName(ref string) error {
	switch {
	case strings.HasPrefix(ref, "-"):
		return errors.New("looks like a command-line option")
	case ref == "@", strings.Contains(ref, "@{"):
		return errors.New("contains @{")
	case strings.Contains(ref, ".."), strings.Contains(ref, "//"):
		return errors.New("contains .. or //")
	case strings.HasPrefix(ref, "/"), strings.HasSuffix(ref, "/"), strings.HasSuffix(ref, "."), strings.HasSuffix(ref, ".lock"):
		return errors.New("bad start or end")
	case strings.ContainsFunc(ref, func(r rune) bool { return r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) }):
		return errors.New("contains a space, a control character or one of ~^:?*[\\")
	}
	for _, seg := range strings.Split(ref, "/") {
		if strings.HasPrefix(seg, ".") {
			return errors.New("a component starts with a dot")
		}
	}
	return nil
}

// cleanPath validates a package path: clean, relative, inside the tree.
func cleanPath(p string) (string, error) {
	if p == "" || p == "." || p == "./" {
		return "", nil
	}
	q := strings.TrimSuffix(p, "/")
	switch {
	case strings.HasPrefix(q, "/"):
		return "", fmt.Errorf("path %q must be relative to the repository root", p)
	case strings.Contains(q, "\\"):
		return "", fmt.Errorf("path %q must use forward slashes", p)
	case path.Clean(q) != q || !fs.ValidPath(q):
		return "", fmt.Errorf("path %q must be a clean relative path inside the repository (no .., no ./, no //)", p)
	}
	for _, seg := range strings.Split(q, "/") {
		if strings.EqualFold(seg, ".git") {
			return "", fmt.Errorf("path %q names git metadata", p)
		}
	}
	return q, nil
}
