package migrate_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
	"github.com/kudo-render/kudo-render/internal/test/kudotest"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// copyPackage copies the package folder src to dst.
func copyPackage(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	assert.NilError(t, err)
}

// importAndRender exports an install of the package pkg (instance zk in
// namespace data, NODE_COUNT or BROKER_COUNT 5 where the package has it),
// imports it with --operators ops, and renders the import; it returns the
// render, and the render of the package in place with the same values.
func importAndRender(t *testing.T, pkg, ops string, params map[string]string) (got, want string) {
	t.Helper()
	tmp := t.TempDir()
	export := filepath.Join(tmp, "export.yaml")
	assert.NilError(t, os.WriteFile(export, kudotest.Export(t, pkg, "data", kudotest.Instance{Name: "inst", Params: params}), 0o644))
	out := filepath.Join(tmp, "gitops")
	if _, stderr, err := run("import", "--from", export, "--output-dir", out, "--operators", ops); err != nil {
		t.Fatalf("import --operators %s: %v\n%s", ops, err, stderr)
	}
	got, stderr, err := run("render", filepath.Join(out, "data", "inst", "kudo-render.yaml"))
	if err != nil {
		t.Fatalf("render of the import: %v\n%s", err, stderr)
	}
	pipes, ssa := importedSpec(t, filepath.Join(out, "data", "inst", "kudo-render.yaml"))
	original := filepath.Join(tmp, "original.yaml")
	assert.NilError(t, os.WriteFile(original, originalConfig(t, pkg, "inst", pipes, ssa), 0o644))
	args := []string{"render", original}
	for k, v := range params {
		args = append(args, "-p", k+"="+v)
	}
	want, _, err = run(args...)
	assert.NilError(t, err)
	return got, want
}

// TestImportOperatorsLayouts: --operators finds a package by the name and
// version its operator.yaml declares wherever it is below the folder:
// <name>/, <name>/<version>/, and kudobuilder/operators' checkout,
// repository/<name>/operator/ and repository/<name>/<app version>/operator/
// (it said "package zookeeper version 0.3.3 is not in --operators", issue
// 33). The imported instance renders as the package does in place. The
// layouts are built here from the corpus packages.
func TestImportOperatorsLayouts(t *testing.T) {
	ops := testcorpus.Operators(t)
	zk, err := bundle.LoadDir(ops["zookeeper"])
	assert.NilError(t, err)
	cases := []struct {
		reason, pkg string
		layout      map[string]string // corpus package -> folder below --operators
		params      map[string]string
	}{
		{"<name>/", "zookeeper", map[string]string{"zookeeper": "zookeeper"}, map[string]string{"NODE_COUNT": "5"}},
		{"<name>/<version>/", "zookeeper", map[string]string{"zookeeper": "zookeeper/" + zk.Version}, nil},
		{"kudobuilder/operators' checkout", "zookeeper", map[string]string{"zookeeper": "repository/zookeeper/operator", "kafka": "repository/kafka/operator", "redis": "repository/redis/operator"}, map[string]string{"NODE_COUNT": "5"}},
		{"kudobuilder's <name>/<app version>/operator/", "kafka", map[string]string{"kafka": "repository/kafka/2.5/operator", "zookeeper": "repository/zookeeper/operator"}, map[string]string{"BROKER_COUNT": "5"}},
		{"any folder, four levels down", "zookeeper", map[string]string{"zookeeper": "teams/data/packages/zk-fork"}, nil},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			dir := t.TempDir()
			for name, rel := range c.layout {
				copyPackage(t, ops[name], filepath.Join(dir, rel))
			}
			got, want := importAndRender(t, ops[c.pkg], dir, c.params)
			if got != want {
				t.Errorf("%s: the imported instance renders differently:\n%s", c.reason, firstDiff(want, got))
			}
		})
	}
}

// TestImportOperatorsDependencyByName: a package whose KudoOperator task
// names its dependency by name, both in kudobuilder/operators' layout:
// the import's spec.repositories find the dependency where the package
// search found it.
func TestImportOperatorsDependencyByName(t *testing.T) {
	dir := t.TempDir()
	copyPackage(t, "testdata/operators/cache/1.2.0", filepath.Join(dir, "repository", "cache", "operator"))
	shop := filepath.Join(dir, "repository", "shop", "operator")
	copyPackage(t, "testdata/operators/shop", shop)
	op, err := os.ReadFile(filepath.Join(shop, "operator.yaml"))
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(filepath.Join(shop, "operator.yaml"), []byte(strings.Replace(string(op), "package: ../cache/1.2.0", "package: cache", 1)), 0o644))
	tmp := t.TempDir()
	export := filepath.Join(tmp, "export.yaml")
	assert.NilError(t, os.WriteFile(export, shopExport(t), 0o644))
	out := filepath.Join(tmp, "gitops")
	if _, stderr, err := run("import", "--from", export, "--output-dir", out, "--operators", dir); err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	got, stderr, err := run("render", filepath.Join(out, "web", "shop", "kudo-render.yaml"))
	assert.NilError(t, err, stderr)
	assert.Check(t, strings.Contains(got, "kudo.dev/operator: cache"), "the dependency's objects are not rendered:\n%s", got)
}

// TestImportOperatorsRefusals: the search of --operators is bounded and
// stays inside the folder; a package found twice is refused, naming both
// folders.
func TestImportOperatorsRefusals(t *testing.T) {
	zk := testcorpus.Operators(t)["zookeeper"]
	export := filepath.Join(t.TempDir(), "export.yaml")
	assert.NilError(t, os.WriteFile(export, kudotest.Export(t, zk, "data", kudotest.Instance{Name: "inst"}), 0o644))
	cases := map[string]struct {
		reason string
		setup  func(t *testing.T, dir string)
		want   string
	}{
		"Duplicate": {reason: "The same name and version in two folders is ambiguous.",
			setup: func(t *testing.T, dir string) {
				copyPackage(t, zk, filepath.Join(dir, "repository", "zookeeper", "operator"))
				copyPackage(t, zk, filepath.Join(dir, "old", "zookeeper"))
			},
			want: "is in several folders of --operators " + "DIR: old/zookeeper and repository/zookeeper/operator"},
		"TooDeep": {reason: "Folders below the depth limit are not searched, and the error says so.",
			setup: func(t *testing.T, dir string) {
				copyPackage(t, zk, filepath.Join(dir, "a", "b", "c", "d", "e", "f", "zookeeper"))
			},
			want: fmt.Sprintf("folders more than %d levels down were not searched (a/b/c/d/e/f/zookeeper)", migrate.MaxIndexDepth)},
		"TooMany": {reason: "More entries than the limit is an error before the search goes on.",
			setup: func(t *testing.T, dir string) {
				assert.NilError(t, os.MkdirAll(filepath.Join(dir, "many"), 0o755))
				for i := range migrate.MaxIndexEntries {
					assert.NilError(t, os.WriteFile(filepath.Join(dir, "many", fmt.Sprintf("f%05d", i)), nil, 0o644))
				}
				copyPackage(t, zk, filepath.Join(dir, "zookeeper"))
			},
			want: fmt.Sprintf("holds more than %d files and folders", migrate.MaxIndexEntries)},
		"Link": {reason: "A symbolic link to a folder outside is not followed.",
			setup: func(t *testing.T, dir string) {
				outside := t.TempDir()
				copyPackage(t, zk, filepath.Join(outside, "zookeeper"))
				assert.NilError(t, os.Symlink(outside, filepath.Join(dir, "link")))
			},
			want: "(no folder there holds an operator.yaml)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			out := filepath.Join(t.TempDir(), "gitops")
			stdout, stderr, err := run("import", "--from", export, "--output-dir", out, "--operators", dir)
			want := strings.ReplaceAll(tc.want, "DIR", dir)
			assert.Check(t, err != nil && stdout == "" && strings.Contains(stderr+err.Error(), want), "%s\nwant %q in: %v\n%s", tc.reason, want, err, stderr)
			_, statErr := os.Stat(out)
			assert.Check(t, os.IsNotExist(statErr), "%s: something was written", tc.reason)
		})
	}
}
