package gitsource

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/source/gitsource/gittest"
)

func TestSymlinks(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{})
	repo := srv.NewRepo("org/links")
	repo.Commit("base", map[string]string{
		"secret.yaml":            "secret\n",
		"pkg/operator.yaml":      "name: x\n",
		"pkg/real.yaml":          "real\n",
		"pkg/templates/cm.yaml":  "kind: ConfigMap\n",
		"other/outside.yaml":     "outside\n",
		"pkg/templates/sub/s.md": "s\n",
	})
	branch := func(name string, links ...[2]string) {
		repo.Checkout("main")
		repo.Checkout(name)
		for _, l := range links {
			repo.Symlink("link "+l[0], l[0], l[1])
		}
	}
	branch("inside", [2]string{"pkg/templates/real.yaml", "../real.yaml"}, [2]string{"pkg/tdir", "templates/sub"})
	branch("chain", [2]string{"pkg/a.yaml", "b.yaml"}, [2]string{"pkg/b.yaml", "templates/cm.yaml"})
	branch("out-of-path", [2]string{"pkg/templates/secret.yaml", "../../secret.yaml"})
	branch("absolute", [2]string{"pkg/templates/passwd.yaml", "/etc/passwd"})
	branch("out-of-repo", [2]string{"pkg/templates/passwd.yaml", "../../../../etc/passwd"})
	branch("chain-out", [2]string{"pkg/a.yaml", "b.yaml"}, [2]string{"pkg/b.yaml", "../other/outside.yaml"})
	branch("dir-out", [2]string{"pkg/up", ".."})
	branch("loop", [2]string{"pkg/l1", "l2"}, [2]string{"pkg/l2", "l1"})
	branch("path-is-link", [2]string{"pkglink", "pkg"})
	branch("outside-path-only", [2]string{"other/link.yaml", "../secret.yaml"})

	base := map[string]string{"operator.yaml": "name: x\n", "real.yaml": "real\n", "templates/cm.yaml": "kind: ConfigMap\n", "templates/sub/s.md": "s\n"}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	cases := map[string]struct {
		reason string
		branch string
		path   string
		want   map[string]string
		msg    string
	}{
		"Inside": {
			reason: "Links that stay inside the package folder are followed.",
			branch: "inside", path: "pkg",
			want: with(map[string]string{"templates/real.yaml": "real\n", "tdir/s.md": "s\n"}),
		},
		"Chain": {
			reason: "A chain of links inside the folder is followed.",
			branch: "chain", path: "pkg",
			want: with(map[string]string{"a.yaml": "kind: ConfigMap\n", "b.yaml": "kind: ConfigMap\n"}),
		},
		"OutOfPath": {
			reason: "A link to a file of the repository outside the package folder is an error.",
			branch: "out-of-path", path: "pkg",
			msg: "symbolic link templates/secret.yaml -> ../../secret.yaml: points outside the package folder pkg",
		},
		"OutOfPathAtRoot": {
			reason: "The same link is fine when the package is the whole repository.",
			branch: "out-of-path", path: "",
			want: map[string]string{"secret.yaml": "secret\n", "other/outside.yaml": "outside\n", "pkg/operator.yaml": "name: x\n",
				"pkg/real.yaml": "real\n", "pkg/templates/cm.yaml": "kind: ConfigMap\n", "pkg/templates/sub/s.md": "s\n",
				"pkg/templates/secret.yaml": "secret\n"},
		},
		"Absolute": {
			reason: "An absolute link is an error.",
			branch: "absolute", path: "pkg",
			msg: "symbolic link templates/passwd.yaml -> /etc/passwd: absolute target",
		},
		"OutOfRepository": {
			reason: "A link out of the repository is an error.",
			branch: "out-of-repo", path: "pkg",
			msg: "points outside the repository",
		},
		"ChainOut": {
			reason: "A chain of links that ends outside is an error.",
			branch: "chain-out", path: "pkg",
			msg: "symbolic link a.yaml -> b.yaml: points outside the package folder pkg",
		},
		"DirectoryOut": {
			reason: "A link to a parent folder is an error.",
			branch: "dir-out", path: "pkg",
			msg: "symbolic link up -> ..: points outside the package folder pkg",
		},
		"Loop": {
			reason: "A loop of links is an error.",
			branch: "loop", path: "pkg",
			msg: "too many levels of symbolic links",
		},
		"PathIsALink": {
			reason: "The package folder cannot be reached through a link.",
			branch: "path-is-link", path: "pkglink",
			msg: `path "pkglink": pkglink is a symbolic link`,
		},
		"LinkOutsideThePackage": {
			reason: "Links outside the package folder do not matter.",
			branch: "outside-path-only", path: "pkg",
			want: base,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, _ := newFetcher(t, Options{})
			ref := Ref{URL: repo.URL(), Ref: tc.branch, Path: tc.path}
			fsys, _, err := f.Open(context.Background(), ref)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("%s\nOpen(%+v): %v, want an error containing %q", tc.reason, ref, err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nOpen(%+v): %v", tc.reason, ref, err)
			}
			assert.Check(t, is.DeepEqual(tc.want, readFiles(t, fsys)), "%s\nOpen(%+v)", tc.reason, ref)
		})
	}
}

func TestResolveLink(t *testing.T) {
	links := map[string]string{
		"a/l":    "../b/f",
		"a/dir":  "../b",
		"a/viad": "dir/f",
		"a/abs":  "/x",
		"a/up":   "../../x",
		"a/self": "self",
	}
	cases := map[string]struct {
		link, want, err string
	}{
		"Relative":      {link: "a/l", want: "b/f"},
		"Dir":           {link: "a/dir", want: "b"},
		"ThroughDir":    {link: "a/viad", want: "b/f"},
		"Absolute":      {link: "a/abs", err: "absolute target"},
		"OutOfTheTree":  {link: "a/up", err: "points outside the repository"},
		"SelfReference": {link: "a/self", err: "too many levels"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := resolveLink(links, tc.link)
			if fmt.Sprint(err) != "<nil>" && (tc.err == "" || !strings.Contains(err.Error(), tc.err)) || err == nil && tc.err != "" {
				t.Fatalf("resolveLink(%q): %v, want error %q", tc.link, err, tc.err)
			}
			if got != tc.want {
				t.Errorf("resolveLink(%q) = %q, want %q", tc.link, got, tc.want)
			}
		})
	}
}

func TestSubmodulesAreNotFetched(t *testing.T) {
	srv := gittest.NewServer(t, gittest.Options{AllowSHA1InWant: true})
	lib := srv.NewRepo("org/lib")
	libCommit := lib.Commit("lib", map[string]string{"lib.yaml": "lib\n"})
	repo := srv.NewRepo("org/app")
	repo.Commit("app", map[string]string{"pkg/operator.yaml": "name: app\n"})
	repo.Submodule("add lib", "pkg/vendor/lib", lib.URL(), libCommit)
	srv.Reset()

	f, w := newFetcher(t, Options{})
	fsys, _, err := f.Open(context.Background(), Ref{URL: repo.URL(), Ref: "main", Path: "pkg"})
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.DeepEqual(map[string]string{"operator.yaml": "name: app\n"}, readFiles(t, fsys)), "Open of a repository with a submodule")
	if n := srv.RequestsFor("org/lib"); n != 0 {
		t.Errorf("the submodule's repository got %d requests, want 0", n)
	}
	if !strings.Contains(w.all(), "submodules are not fetched; vendor/lib") {
		t.Errorf("warnings %q do not mention the submodule", w.all())
	}
}
