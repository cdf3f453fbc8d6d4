package output_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/fs"

	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func obj(apiVersion, kind, ns, name string) *object.Object {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	return object.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
}

func TestNames(t *testing.T) {
	long := strings.Repeat("a", 300)
	cases := map[string]struct {
		reason string
		objs   []*object.Object
		want   []string
	}{
		"Plain": {
			reason: "kind_name.yaml, lower case",
			objs:   []*object.Object{obj("v1", "ConfigMap", "ns", "cm")},
			want:   []string{"configmap_cm.yaml"},
		},
		"Separators": {
			reason: "a name can never hold a path separator, .. or a NUL",
			objs:   []*object.Object{obj("v1", "ConfigMap", "ns", "../../etc/passwd\x00x")},
			want:   []string{"configmap_..-..-etc-passwd-x.yaml"},
		},
		"LeadingDot": {
			reason: "a name never starts with a dot (no hidden files, no ..)",
			objs:   []*object.Object{obj("v1", "", "", "..")},
			want:   []string{"_...yaml"},
		},
		"Namespaces": {
			reason: "two objects of one kind and name in two namespaces get their namespace",
			objs:   []*object.Object{obj("v1", "ConfigMap", "a", "cm"), obj("v1", "ConfigMap", "b", "cm")},
			want:   []string{"configmap_a_cm.yaml", "configmap_b_cm.yaml"},
		},
		"SanitisedClash": {
			reason: "names that only sanitising made equal get a hash of their identity",
			objs:   []*object.Object{obj("v1", "ConfigMap", "n", "a-b"), obj("v1", "ConfigMap", "n", "a/b")},
			want:   []string{"configmap_n_a-b-dedba3d3.yaml", "configmap_n_a-b-27b0d1ed.yaml"},
		},
		"Groups": {
			reason: "the same kind and name in two groups differ by a hash",
			objs:   []*object.Object{obj("a.example/v1", "Thing", "n", "x"), obj("b.example/v1", "Thing", "n", "x")},
			want:   []string{"thing_n_x-60ebdc85.yaml", "thing_n_x-f904da2b.yaml"},
		},
		"Duplicates": {
			reason: "the very same object twice is numbered",
			objs:   []*object.Object{obj("v1", "ConfigMap", "n", "x"), obj("v1", "ConfigMap", "n", "x")},
			want:   []string{"configmap_n_x-9d7a8893.yaml", "configmap_n_x-9d7a8893-2.yaml"},
		},
		"Long": {
			reason: "a long name is cut and ends in a hash",
			objs:   []*object.Object{obj("v1", "ConfigMap", "n", long)},
			want:   []string{"configmap_" + strings.Repeat("a", 200-5-9-10) + "-c702be14.yaml"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := output.Names(tc.objs)
			assert.Check(t, is.DeepEqual(tc.want, got), "%s", tc.reason)
			for _, n := range got {
				if err := output.CheckPath(n); err != nil || len(n) > output.MaxNameLen || strings.Contains(n, "/") {
					t.Errorf("%s: unsafe name %q (%v)", tc.reason, n, err)
				}
			}
		})
	}
}

func TestNamesIgnoreOrder(t *testing.T) {
	objs := []*object.Object{obj("v1", "ConfigMap", "a", "cm"), obj("v1", "Secret", "a", "cm"), obj("v1", "ConfigMap", "b", "cm")}
	a := output.Names(objs)
	b := output.Names([]*object.Object{objs[2], objs[0], objs[1]})
	assert.Check(t, is.DeepEqual([]string{a[2], a[0], a[1]}, b), "an object's name must not depend on the order")
}

func FuzzNames(f *testing.F) {
	f.Add("ConfigMap", "ns", "cm", "ConfigMap", "ns", "cm")
	f.Add("", "", "..", "x/y", "..", "../x")
	f.Add("K\x00", "n", strings.Repeat("é", 200), "K", "n", "a")
	f.Fuzz(func(t *testing.T, k1, n1, name1, k2, n2, name2 string) {
		names := output.Names([]*object.Object{obj("v1", k1, n1, name1), obj("v1", k2, n2, name2), obj("v1", k1, n1, name1)})
		seen := map[string]bool{}
		for _, n := range names {
			if err := output.CheckPath(n); err != nil || strings.Contains(n, "/") || len(n) > output.MaxNameLen || strings.HasPrefix(n, ".") {
				t.Fatalf("unsafe name %q: %v", n, err)
			}
			if seen[n] {
				t.Fatalf("duplicate name %q in %q", n, names)
			}
			seen[n] = true
		}
	})
}

func TestWriteDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := output.WriteDir(dir, map[string][]byte{"a.yaml": []byte("a1"), "sub/b.yaml": []byte("b1")}); err != nil {
		t.Fatal(err)
	}
	// The folders expected are laid out by gotest.tools/fs under the same
	// umask; WriteDir gives the folder itself mode 0755 whatever the umask.
	want := fs.NewDir(t, "want", fs.WithMode(0o755),
		fs.WithFile("a.yaml", "a1"), fs.WithDir("sub", fs.WithFile("b.yaml", "b1")),
		fs.WithFile(output.ManifestName, "a.yaml\nsub/b.yaml\n"))
	assert.Assert(t, fs.Equal(dir, fs.ManifestFromDir(t, want.Path())), "first write")
	// the user adds files of their own, including a link that leaves DIR
	outside := filepath.Join(root, "outside.txt")
	os.WriteFile(outside, []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "kustomization.yaml"), []byte("mine too"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))
	before, _ := os.Stat(filepath.Join(dir, "README.md"))

	if err := output.WriteDir(dir, map[string][]byte{"a.yaml": []byte("a2"), "c.yaml": []byte("c")}); err != nil {
		t.Fatal(err)
	}
	want = fs.NewDir(t, "want", fs.WithMode(0o755),
		fs.WithFile("a.yaml", "a2"), fs.WithFile("c.yaml", "c"), fs.WithFile("README.md", "mine"),
		fs.WithDir("sub", fs.WithFile("kustomization.yaml", "mine too")),
		fs.WithFile(output.ManifestName, "a.yaml\nc.yaml\n"))
	assert.NilError(t, os.Symlink(outside, want.Join("link")))
	assert.Check(t, fs.Equal(dir, fs.ManifestFromDir(t, want.Path())), "second write: files no longer produced go, other files stay")
	after, _ := os.Stat(filepath.Join(dir, "README.md"))
	if !os.SameFile(before, after) {
		t.Errorf("a file kudo-render does not own must be carried over as it is (same inode)")
	}
	if data, _ := os.ReadFile(outside); string(data) != "secret" {
		t.Errorf("the link's target changed: %q", data)
	}
	matches, _ := filepath.Glob(filepath.Join(root, ".out.kudo-render-*"))
	if len(matches) > 0 {
		t.Errorf("temporary trees left behind: %v", matches)
	}
}

func TestWriteDirAllOrNothing(t *testing.T) {
	cases := map[string]struct {
		reason string
		setup  func(t *testing.T, dir, root string)
		files  map[string][]byte
		err    string
	}{
		"UnownedFileInTheWay": {
			reason: "a file kudo-render did not write is never replaced",
			setup: func(t *testing.T, dir, _ string) {
				os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("user"), 0o644)
			},
			files: map[string][]byte{"a.yaml": []byte("new"), "b.yaml": []byte("new")},
			err:   "in the way",
		},
		"LinkedFolder": {
			reason: "a link inside DIR is never followed to write through it",
			setup: func(t *testing.T, dir, root string) {
				os.Mkdir(filepath.Join(root, "elsewhere"), 0o755)
				os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(dir, "sub"))
			},
			files: map[string][]byte{"a.yaml": []byte("new"), "sub/x.yaml": []byte("new")},
			err:   "in the way",
		},
		"FileAsFolder": {
			reason: "a failure after some files were written leaves DIR as it was",
			setup: func(t *testing.T, dir, _ string) {
				os.WriteFile(filepath.Join(dir, "z"), []byte("user"), 0o644)
			},
			files: map[string][]byte{"a.yaml": []byte("new"), "z/x.yaml": []byte("new")},
			err:   "in the way",
		},
		"Escape": {
			reason: "paths that leave DIR are refused before anything is written",
			files:  map[string][]byte{"a.yaml": []byte("new"), "../x.yaml": []byte("new")},
			err:    "leaves the output folder",
		},
		"NUL": {
			reason: "a NUL in a path is refused",
			files:  map[string][]byte{"a\x00.yaml": []byte("new")},
			err:    "NUL",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "out")
			if err := output.WriteDir(dir, map[string][]byte{"a.yaml": []byte("old")}); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, dir, root)
			}
			before := fs.ManifestFromDir(t, dir)
			err := output.WriteDir(dir, tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%s: got %v, want an error with %q", tc.reason, err, tc.err)
			}
			assert.Check(t, fs.Equal(dir, before), "%s: DIR changed", tc.reason)
			if m, _ := filepath.Glob(filepath.Join(root, ".out.kudo-render-*")); len(m) > 0 {
				t.Errorf("%s: temporary trees left behind: %v", tc.reason, m)
			}
			if _, err := os.Stat(filepath.Join(root, "elsewhere", "x.yaml")); err == nil {
				t.Errorf("%s: wrote through a link", tc.reason)
			}
		})
	}
}

func TestWriteDirRefusesSurprisingFolders(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	if err := output.WriteDir(root, map[string][]byte{"a.yaml": nil}); err == nil || !strings.Contains(err.Error(), "repository") {
		t.Errorf("a repository root must be refused, got %v", err)
	}
	wd, _ := os.Getwd()
	if err := output.WriteDir(filepath.Dir(wd), map[string][]byte{"a.yaml": nil}); err == nil || !strings.Contains(err.Error(), "working directory") {
		t.Errorf("a parent of the working directory must be refused, got %v", err)
	}
	f := filepath.Join(root, "file")
	os.WriteFile(f, nil, 0o644)
	if err := output.WriteDir(f, map[string][]byte{"a.yaml": nil}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("a file must be refused, got %v", err)
	}
}

func ExampleWriteDir() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out")
	objs := []*object.Object{obj("v1", "ConfigMap", "ns", "settings"), obj("apps/v1", "Deployment", "ns", "web")}
	files := map[string][]byte{}
	for i, name := range output.Names(objs) {
		data, _ := objs[i].Marshal()
		files[name] = data
	}
	if err := output.WriteDir(out, files); err != nil {
		fmt.Println(err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	fmt.Println(strings.Join(names, "\n"))
	// Output:
	// .kudo-render-files
	// configmap_settings.yaml
	// deployment_web.yaml
}

func TestWriterExpire(t *testing.T) {
	var buf strings.Builder
	w := output.NewWriter(&buf)
	if !w.Expire() {
		t.Fatal("an idle writer must expire")
	}
	if err := w.Write([]byte("late")); err != output.ErrExpired || buf.Len() != 0 {
		t.Errorf("an expired writer must write nothing, got %v and %q", err, buf.String())
	}
	w = output.NewWriter(&buf)
	if err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if w.Expire() {
		t.Error("a writer that began writing must not expire: the watchdog would cut the stream")
	}
}

// TestWriteJoined: the stream is the parts joined, however they fall
// across the 1 MiB chunks; a failing stream's error is returned; an
// expired writer writes nothing.
func TestWriteJoined(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 3<<20/2)
	cases := []struct {
		reason string
		parts  [][]byte
	}{
		{"none", nil},
		{"one", [][]byte{[]byte("a: 1\n")}},
		{"empty parts", [][]byte{{}, {}, []byte("b\n")}},
		{"parts larger than a chunk", [][]byte{big, []byte("tail\n"), big}},
		{"many small parts", slices.Repeat([][]byte{[]byte("kind: ConfigMap\n")}, 100_000)},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			var buf bytes.Buffer
			if err := output.NewWriter(&buf).WriteJoined(c.parts, object.StreamSeparator); err != nil {
				t.Fatal(err)
			}
			if want := bytes.Join(c.parts, object.StreamSeparator); !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("wrote %d bytes, want the %d of the joined parts", buf.Len(), len(want))
			}
		})
	}
	if err := output.NewWriter(failingWriter{}).WriteJoined([][]byte{[]byte("a")}, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the stream's", err)
	}
	var buf bytes.Buffer
	w := output.NewWriter(&buf)
	w.Expire()
	if err := w.WriteJoined([][]byte{[]byte("late")}, nil); err != output.ErrExpired || buf.Len() != 0 {
		t.Errorf("an expired writer wrote %q (%v)", buf.String(), err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
