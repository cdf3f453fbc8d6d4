package gittest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// epoch is the date of the first commit of every repository.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Repo is a repository served by a [Server], with a work tree to commit from.
type Repo struct {
	t   testing.TB
	srv *Server
	// Name is the repository's path below the server root.
	Name string
	// Dir is the repository's work tree.
	Dir   string
	ticks int
}

// URL returns the repository's clone URL.
func (r *Repo) URL() string { return r.srv.URL(r.Name) }

// Git runs git with args in the repository and returns its trimmed standard
// output; a failure fails the test.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	out, err := r.run(args...)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// TryGit runs git with args in the repository and returns its trimmed
// standard output, or its failure.
func (r *Repo) TryGit(args ...string) (string, error) { return r.runIn("", args...) }

func (r *Repo) run(args ...string) (string, error) { return r.runIn("", args...) }

// gitIn is Git with stdin.
func (r *Repo) gitIn(stdin string, args ...string) string {
	r.t.Helper()
	out, err := r.runIn(stdin, args...)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *Repo) runIn(stdin string, args ...string) (string, error) {
	cmd := exec.Command(r.srv.git, args...)
	cmd.Dir = r.Dir
	cmd.Stdin = strings.NewReader(stdin)
	date := epoch.Add(time.Duration(r.ticks) * time.Second).Format(time.RFC3339)
	cmd.Env = append(os.Environ(), gitEnv(r.srv.home)...)
	cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// Commit writes files (path with forward slashes -> content) into the work
// tree, commits every change on the current branch and returns the new
// commit's SHA. A nil files map makes an empty commit.
func (r *Repo) Commit(msg string, files map[string]string) string {
	r.t.Helper()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	return r.commitAll(msg)
}

// Remove deletes paths from the work tree and commits.
func (r *Repo) Remove(msg string, paths ...string) string {
	r.t.Helper()
	for _, p := range paths {
		if err := os.RemoveAll(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
	return r.commitAll(msg)
}

// Symlink creates the symbolic link link -> target (both as git stores them:
// link is a path in the repository, target is the link's text) and commits.
func (r *Repo) Symlink(msg, link, target string) string {
	r.t.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		r.t.Fatal(err)
	}
	return r.commitAll(msg)
}

// Submodule records a submodule at path pointing at url and commit (a
// gitlink plus .gitmodules), without cloning anything, and commits.
func (r *Repo) Submodule(msg, path, url, commit string) string {
	r.t.Helper()
	gm := filepath.Join(r.Dir, ".gitmodules")
	f, err := os.OpenFile(gm, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		r.t.Fatal(err)
	}
	fmt.Fprintf(f, "[submodule %q]\n\tpath = %s\n\turl = %s\n", path, path, url)
	if err := f.Close(); err != nil {
		r.t.Fatal(err)
	}
	// An uninitialized submodule is an empty folder: `git add -A` keeps it.
	if err := os.MkdirAll(filepath.Join(r.Dir, filepath.FromSlash(path)), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+commit+","+path)
	return r.commitAll(msg)
}

func (r *Repo) commitAll(msg string) string {
	r.t.Helper()
	r.ticks++
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "--no-verify", "-m", msg)
	return r.Rev("HEAD")
}

// Rev returns the commit SHA that rev (a branch, tag or SHA) names.
func (r *Repo) Rev(rev string) string {
	r.t.Helper()
	return r.Git("rev-parse", "--verify", "-q", rev+"^{commit}")
}

// Branch creates or moves the branch name to rev. Moving the checked-out
// branch resets the work tree to rev.
func (r *Repo) Branch(name, rev string) {
	r.t.Helper()
	if cur, _ := r.run("symbolic-ref", "--short", "-q", "HEAD"); cur == name {
		r.Git("reset", "-q", "--hard", rev)
		return
	}
	r.Git("update-ref", "refs/heads/"+name, r.Rev(rev))
}

// Checkout switches the work tree to branch, creating it at the current
// commit if it does not exist. Later commits go to that branch.
func (r *Repo) Checkout(branch string) {
	r.t.Helper()
	if _, err := r.run("rev-parse", "--verify", "-q", "refs/heads/"+branch); err == nil {
		r.Git("checkout", "-q", branch)
		return
	}
	r.Git("checkout", "-q", "-b", branch)
}

// Tag creates or moves the lightweight tag name to rev.
func (r *Repo) Tag(name, rev string) {
	r.t.Helper()
	r.Git("tag", "-f", name, r.Rev(rev))
}

// AnnotatedTag creates or moves the annotated tag name to rev.
func (r *Repo) AnnotatedTag(name, rev, msg string) {
	r.t.Helper()
	r.ticks++
	r.Git("tag", "-f", "-a", "-m", msg, name, r.Rev(rev))
}

// DeleteRef deletes a branch or tag (a full ref name such as refs/heads/x).
func (r *Repo) DeleteRef(ref string) {
	r.t.Helper()
	r.Git("update-ref", "-d", ref)
}

// Config sets a configuration value of the repository, e.g.
// uploadpack.allowReachableSHA1InWant.
func (r *Repo) Config(key, value string) {
	r.t.Helper()
	r.Git("config", key, value)
}
