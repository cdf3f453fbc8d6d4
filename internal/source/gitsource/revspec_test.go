package gitsource

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

// revRepo is a repository with merges, tags, remote-tracking branches and
// names that look like ids:
//
//	c1 - c2 - c3 ------ m (main, HEAD) - c5
//	      \            /
//	       d1 - d2 (dev)
func revRepo(t *testing.T) *gittest.Repo {
	t.Helper()
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("org/revs")
	c1 := repo.Commit("c1", map[string]string{"a.txt": "1"})
	c2 := repo.Commit("c2", map[string]string{"a.txt": "2"})
	repo.Checkout("dev")
	repo.Commit("d1", map[string]string{"d.txt": "1"})
	repo.Commit("d2", map[string]string{"d.txt": "2"})
	repo.Checkout("main")
	repo.Commit("c3", map[string]string{"a.txt": "3"})
	repo.Git("merge", "-q", "--no-ff", "-m", "merge dev", "dev")
	repo.Tag("v1", c1)
	repo.AnnotatedTag("v2", c2, "release 2")
	repo.Branch("same", c1) // a branch and a tag of one name: git takes the tag
	repo.Tag("same", c2)
	repo.Git("update-ref", "refs/remotes/origin/main", c2)
	repo.Git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	repo.Branch("cafe", c1) // a branch that looks like an abbreviated id
	repo.Branch("x-g"+c2[:7], c1)
	return repo
}

// TestRevisionsAsGit: every spec kudo-render accepts names the commit git
// names, and every spec git reads some other way is refused, naming it.
func TestRevisionsAsGit(t *testing.T) {
	repo := revRepo(t)
	head := repo.Rev("HEAD")
	c1 := repo.Rev("v1")
	accepted := []string{
		"HEAD", "@", "main", "dev", "v1", "v2", "same", "tags/v1", "heads/dev", "refs/heads/dev", "refs/tags/v2",
		"origin/main", "origin", "remotes/origin/main", "cafe", "x-g" + repo.Rev("v2")[:7],
		head, strings.ToUpper(head), head[:7], head[:4], c1[:10],
		"v1.0-3-g" + head[:8], "HEAD~", "HEAD~1", "HEAD~2", "HEAD^", "HEAD^1", "HEAD^2", "HEAD^0", "HEAD~0",
		"main^2~1", "HEAD~~", "HEAD^^", "v2^0", "v2~1", "dev~01", "@~1", head[:8] + "^2",
	}
	rp, err := openRepo(repo.Dir, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range accepted {
		want := repo.Git("rev-parse", "--verify", "-q", rev+"^{commit}")
		spec, err := parseRevision(rev)
		if err != nil {
			t.Errorf("%s: %v", rev, err)
			continue
		}
		c, err := spec.resolve(rp)
		if err != nil || c.Hash.String() != want {
			t.Errorf("%s: got %v %v, git says %s", rev, c, err, want)
		}
	}
	refused := []string{
		"HEAD@{5}", "@{upstream}", "@{u}", "main@{1}", "@{-1}", "HEAD:a.txt", ":/c3", "HEAD^{tree}", "v2^{}",
		"HEAD^{/c2}", "main..dev", "main...dev", "HEAD^!", "HEAD^@", "HEAD^-1", "FETCH_HEAD", "ORIG_HEAD",
		"~1", "", "-n", "HEAD~x", "HEAD~99999999999", "ma in", "main/", ".hidden",
	}
	for _, rev := range refused {
		_, err := parseRevision(rev)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "is not supported") || !strings.Contains(err.Error(), "revision "+strconvQuote(rev)) {
			t.Errorf("%q: got %v, want a refusal naming it", rev, err)
		}
	}
	notFound := []string{"nope", "HEAD~10", "HEAD^3", "dead", "v1~1"}
	for _, rev := range notFound {
		if out, err := repo.TryGit("rev-parse", "--verify", "-q", rev+"^{commit}"); err == nil {
			t.Fatalf("%s: git resolves it to %s", rev, out)
		}
		spec, err := parseRevision(rev)
		if err != nil {
			t.Errorf("%s: %v", rev, err)
			continue
		}
		if _, err := spec.resolve(rp); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: got %v, want not found", rev, err)
		}
	}
}

func strconvQuote(s string) string { return `"` + s + `"` }

// TestCheckoutRevisionBounded: a loose object over --max-git-blob-bytes is
// refused from its header (never read into memory), and a tree over
// --max-git-tree-entries before any file is written.
func TestCheckoutRevisionBounded(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("org/local")
	repo.Commit("init", map[string]string{"pkg/render.yaml": "x: 1\n"})
	init := repo.Rev("HEAD")
	big := repo.CommitEntry("zeros", "zeros", "100644", repo.LooseZeros("blob", 64<<20))
	repo.Branch("main", init)
	tree := repo.LooseZeros("tree", 64<<20)
	bigTree := repo.CommitEntry("a big folder", "big", "040000", tree)
	repo.Branch("main", init)
	wide := repo.CommitEntry("wide", "wide", "040000", repo.WideTree(100, 2))
	withLimits(t, func(l *limits.Limits) { l.GitBlobBytes, l.GitTreeEntries = 1<<20, 1000 })
	cases := map[string]string{
		big:     "zeros: git blob size exceeds the limit of 1048576 bytes (raise it with --max-git-blob-bytes",
		bigTree: "object " + tree[:12] + ": git blob size exceeds the limit of 1048576 bytes (raise it with --max-git-blob-bytes",
		wide:    "the tree: git tree entries exceeds the limit of 1000 entries (raise it with --max-git-tree-entries",
	}
	for rev, want := range cases {
		dst := t.TempDir()
		alloc := allocated(func() {
			_, err := CheckoutRevision(filepath.Join(repo.Dir, "pkg"), rev, dst)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, want %q", rev, err, want)
			}
		})
		if alloc > 16<<20 {
			t.Errorf("%s: allocated %d MiB", rev, alloc>>20)
		}
		if left, _ := os.ReadDir(dst); len(left) > 0 {
			t.Errorf("%s: %d entries written before the refusal", rev, len(left))
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
