package gitsource_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/kudo-render/kudo-render/internal/source/gitsource"
)

func ExampleScrub() {
	fmt.Println(gitsource.Scrub("https://bot:s3cret@git.example.com/platform/operators.git"))
	fmt.Println(gitsource.ValidateURL("http://git.example.com/x.git", gitsource.Options{}) != nil)
	fmt.Println(gitsource.ValidateURL("https://git.example.com/x.git", gitsource.Options{}))
	// Output:
	// https://git.example.com/platform/operators.git
	// true
	// <nil>
}

// ExampleNew opens the package folder of a repository at a pinned commit,
// as a render opens a framework named by git: {url, commit, path}. The
// repository is a local one here (AllowLocal); a remote one is fetched
// shallowly into the cache first.
func ExampleNew() {
	tmp, _ := os.MkdirTemp("", "gitsource-example")
	defer os.RemoveAll(tmp)
	commit := exampleRepo(filepath.Join(tmp, "repo"), map[string]string{
		"mysql/framework.yaml": "name: mysql\nversion: \"5.7\"\n",
		"README.md":            "# frameworks\n",
	})

	f, err := gitsource.New(gitsource.Options{
		CacheDir:   filepath.Join(tmp, "cache"),
		AllowLocal: true,
		Auth:       &gitsource.Auth{}, // no credentials: not read from the environment
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fsys, res, err := f.Open(context.Background(), gitsource.Ref{URL: filepath.Join(tmp, "repo"), Commit: commit, Path: "mysql"})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, _ := fs.ReadFile(fsys, "framework.yaml")
	fmt.Print(string(data))
	_, err = fs.ReadFile(fsys, "../README.md") // the folder is all it can read
	fmt.Println(err != nil, res.Commit == commit)
	// Output:
	// name: mysql
	// version: "5.7"
	// true true
}

// exampleRepo commits files into a new repository at dir and returns the
// commit's SHA.
func exampleRepo(dir string, files map[string]string) string {
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		panic(err)
	}
	wt, _ := repo.Worktree()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := wt.Add(name); err != nil {
			panic(err)
		}
	}
	sig := &object.Signature{Name: "example", Email: "example@example.com", When: time.Unix(1_700_000_000, 0).UTC()}
	h, err := wt.Commit("frameworks", &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		panic(err)
	}
	return h.String()
}
