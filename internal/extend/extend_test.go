package extend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/source/location"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
)

// writeTree writes files (path -> content) below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const baseFramework = `name: base
version: "1.0"
tasks:
  deploy:
    resources: [deploy.yaml]
  backup:
    resources: [job.yaml]
    patches: [backup.yaml]
plans:
  deploy:
    steps:
      - name: deploy
        tasks: [deploy]
  backup:
    steps:
      - name: backup
        tasks: [backup]
`

var baseFiles = map[string]string{
	"framework.yaml":         baseFramework,
	"templates/deploy.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deploy}\n",
	"templates/job.yaml":     "apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\n",
	"templates/backup.yaml":  "apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {backoffLimit: 1}\n",
	"templates/restore.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {backoffLimit: 2}\n",
	// The KEP-0012 parameter example, base side.
	"params.yaml": `backup:
  default: backup.sql
  description: The file the backup job saves the sql dump, and the file the restore occurs from.
password:
  default: password
  description: Some words
`,
}

// TestKEP0012Params is KEP-0012's "Add and Updating Parameters" example.
func TestKEP0012Params(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "base"), baseFiles)
	writeTree(t, filepath.Join(dir, "ext"), map[string]string{
		"framework.yaml": "version: \"1.0\"\nextends: {path: ../base}\n",
		"params.yaml": `backup:
  default: /path/to/new/location.sql
password:
  description: A more detailed description of the parameter
data:
  default: /path/to/sample/data.sql
  description: Storage location of sample data to load
`,
	})
	res, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, "ext")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type p struct{ Name, Default, Description string }
	var got []p
	for _, prm := range res.Bundle.Params {
		got = append(got, p{prm.Name, prm.Default.(string), prm.Description})
	}
	want := []p{
		{"backup", "/path/to/new/location.sql", "The file the backup job saves the sql dump, and the file the restore occurs from."},
		{"password", "password", "A more detailed description of the parameter"},
		{"data", "/path/to/sample/data.sql", "Storage location of sample data to load"},
	}
	assert.Check(t, is.DeepEqual(want, got), "merged params")
	if res.Bundle.Name != "base" {
		t.Errorf("an extension without a name keeps the base's: got %q", res.Bundle.Name)
	}
}

func TestMergeTasksAndPlans(t *testing.T) {
	cases := map[string]struct {
		reason    string
		framework string
		check     func(t *testing.T, b *bundle.Bundle)
	}{
		"Inherited": {
			reason:    "An extension without tasks or plans has exactly the base's, its files as base/<file>.",
			framework: "name: ext\nversion: \"2\"\nextends: {path: ../base}\n",
			check: func(t *testing.T, b *bundle.Bundle) {
				assert.Check(t, is.DeepEqual([]string{"base/backup.yaml", "base/job.yaml"}, taskFiles(b.Task("backup"))), "backup task")
				if b.Plan("deploy") == nil || b.Plan("backup") == nil {
					t.Error("base plans not inherited")
				}
				if b.Name != "ext" || b.Version != "2" {
					t.Errorf("name/version = %s/%s, want the extension's", b.Name, b.Version)
				}
			},
		},
		"ReplaceTask": {
			reason:    "A task defined in the extension replaces the base task of that name; base/<task> still names the base's.",
			framework: "name: ext\nversion: \"2\"\nextends: {path: ../base}\ntasks:\n  backup:\n    resources: [mine.yaml]\n",
			check: func(t *testing.T, b *bundle.Bundle) {
				assert.Check(t, is.DeepEqual([]string{"mine.yaml"}, taskFiles(b.Task("backup"))), "backup")
				assert.Check(t, is.DeepEqual([]string{"base/backup.yaml", "base/job.yaml"}, taskFiles(b.Task("base/backup"))), "base/backup")
				// The inherited backup plan runs the final (replaced) task.
				if got := b.Plan("backup").Phases[0].Steps[0].Tasks; !slices.Equal(got, []string{"backup"}) {
					t.Errorf("backup plan tasks = %v", got)
				}
			},
		},
		"FromTaskAppendsAndReplacesByFileName": {
			reason: "from: base/<task> copies resources and patches; entries with the same file name replace, others append.",
			framework: `name: ext
version: "2"
extends: {path: ../base}
tasks:
  backup:
    from: base/backup
    patch: [backup.yaml, extra.yaml]
`,
			check: func(t *testing.T, b *bundle.Bundle) {
				got := b.Task("backup")
				assert.Check(t, is.DeepEqual([]string{"base/job.yaml"}, got.Resources), "resources")
				var patches []string
				for _, p := range got.Patches {
					patches = append(patches, p.Path)
				}
				assert.Check(t, is.DeepEqual([]string{"backup.yaml", "extra.yaml"}, patches), "patches")
			},
		},
		"FromOtherTaskName": {
			reason:    "from may name a base task of another name (KEP-0009's clear-data: from: base/init).",
			framework: "name: ext\nversion: \"2\"\nextends: {path: ../base}\ntasks:\n  clear:\n    from: base/deploy\n    patches: [extra.yaml]\n",
			check: func(t *testing.T, b *bundle.Bundle) {
				assert.Check(t, is.DeepEqual([]string{"base/deploy.yaml", "extra.yaml"}, taskFiles(b.Task("clear"))), "clear")
			},
		},
		"PlanFromAppendsSteps": {
			reason: "from: base/<plan> copies the base plan's steps and appends the extension's.",
			framework: `name: ext
version: "2"
extends: {path: ../base}
plans:
  deploy:
    from: base/deploy
    steps:
      - name: more
        tasks: [base/backup]
`,
			check: func(t *testing.T, b *bundle.Bundle) {
				var steps []string
				for _, st := range b.Plan("deploy").Phases[0].Steps {
					steps = append(steps, st.Name+":"+strings.Join(st.Tasks, ","))
				}
				assert.Check(t, is.DeepEqual([]string{"deploy:deploy", "more:base/backup"}, steps), "steps")
			},
		},
		"ReplacePlan": {
			reason:    "A plan defined in the extension replaces the base plan.",
			framework: "name: ext\nversion: \"2\"\nextends: {path: ../base}\nplans:\n  deploy:\n    steps:\n      - {name: only, tasks: [backup]}\n",
			check: func(t *testing.T, b *bundle.Bundle) {
				if got := b.Plan("deploy").Phases[0].Steps; len(got) != 1 || got[0].Name != "only" {
					t.Errorf("deploy plan not replaced: %+v", got)
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, filepath.Join(dir, "base"), baseFiles)
			writeTree(t, filepath.Join(dir, "ext"), map[string]string{
				"framework.yaml":        tc.framework,
				"templates/mine.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine}\n",
				"templates/backup.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {backoffLimit: 9}\n",
				"templates/extra.yaml":  "apiVersion: batch/v1\nkind: Job\nmetadata: {name: job}\nspec: {parallelism: 1}\n",
			})
			res, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, "ext")}, Options{})
			if err != nil {
				t.Fatalf("%s\n%v", tc.reason, err)
			}
			tc.check(t, res.Bundle)
		})
	}
}

func taskFiles(t *bundle.Task) []string {
	if t == nil {
		return nil
	}
	out := slices.Clone(t.Resources)
	for _, p := range t.Patches {
		out = append(out, p.Path)
	}
	slices.Sort(out)
	return out
}

func TestLoadErrors(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]map[string]string // folder -> files
		top    string
		opts   Options
		want   []string // substrings of the error
		check  func(error) bool
	}{
		"MissingBase": {
			reason: "A base folder that does not exist is an error naming it.",
			files:  map[string]map[string]string{"ext": {"framework.yaml": "name: e\nversion: \"1\"\nextends: {path: ../nowhere}\n"}},
			top:    "ext",
			want:   []string{"nowhere"},
		},
		"MissingBaseTask": {
			reason: "from: base/<task> naming no base task is reported at the task, with the tasks that exist.",
			files: map[string]map[string]string{
				"base": baseFiles,
				"ext":  {"framework.yaml": "name: e\nversion: \"1\"\nextends: {path: ../base}\ntasks:\n  x:\n    from: base/nope\n"},
			},
			top:  "ext",
			want: []string{`framework.yaml:6: task "x": from: "base/nope" names no task of the base`, "backup, deploy"},
			check: func(err error) bool {
				var me *MergeError
				return errors.As(err, &me) && len(diag.From(err)) == 1 && diag.From(err)[0].File == "framework.yaml"
			},
		},
		"UnknownBaseTemplate": {
			reason: "base/<file> naming no base template is an error.",
			files: map[string]map[string]string{
				"base": baseFiles,
				"ext":  {"framework.yaml": "name: e\nversion: \"1\"\nextends: {path: ../base}\ntasks:\n  x:\n    resources: [base/missing.yaml]\n"},
			},
			top:  "ext",
			want: []string{`"base/missing.yaml", which is not a template of the base`},
		},
		"Cycle": {
			reason: "a extends b extends a: the error lists the chain.",
			files: map[string]map[string]string{
				"a": {"framework.yaml": "name: a\nversion: \"1\"\nextends: {path: ../b}\n"},
				"b": {"framework.yaml": "name: b\nversion: \"1\"\nextends: {path: ../a}\n"},
			},
			top:   "a",
			want:  []string{"extends cycle", "/a -> ", "/b -> ", "/a)"},
			check: func(err error) bool { var e *Error; return errors.As(err, &e) && len(e.Chain) == 3 },
		},
		"Depth": {
			reason: "Chains deeper than MaxDepth stop.",
			files: map[string]map[string]string{
				"a": {"framework.yaml": "name: a\nversion: \"1\"\nextends: {path: ../b}\n"},
				"b": {"framework.yaml": "name: b\nversion: \"1\"\nextends: {path: ../c}\n"},
				"c": {"framework.yaml": "name: c\nversion: \"1\"\nextends: {path: ../d}\n"},
				"d": {"framework.yaml": "name: d\nversion: \"1\"\ntasks: {}\nplans: {}\n"},
			},
			top:  "a",
			opts: Options{MaxDepth: 1},
			want: []string{"deeper than 1"},
		},
		"KudoWithoutRepositories": {
			reason: "extends.kudo needs spec.repositories.",
			files:  map[string]map[string]string{"ext": {"framework.yaml": "name: e\nversion: \"1\"\nextends: {kudo: {framework: mysql, version: \"5.7\"}}\n"}},
			top:    "ext",
			want:   []string{"names no spec.repositories"},
		},
		"KudoNotFound": {
			reason: "A framework version that no repository has is reported with the repositories searched.",
			files: map[string]map[string]string{
				"repo/base": baseFiles,
				"ext":       {"framework.yaml": "name: e\nversion: \"1\"\nextends: {kudo: {framework: base, version: \"9.9\"}}\n"},
			},
			top:  "ext",
			want: []string{"framework base version 9.9 not found in repositories local"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for folder, files := range tc.files {
				writeTree(t, filepath.Join(dir, folder), files)
			}
			opts := tc.opts
			opts.Sources = &location.Sources{Repositories: []location.Repository{{Name: "local", Location: location.Local{Dir: filepath.Join(dir, "repo")}}}}
			if name == "KudoWithoutRepositories" {
				opts.Sources = nil
			}
			_, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, tc.top)}, opts)
			if err == nil {
				t.Fatalf("%s: want an error", tc.reason)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s\nerror %q does not contain %q", tc.reason, err, w)
				}
			}
			if tc.check != nil && !tc.check(err) {
				t.Errorf("%s: wrong error type %T", tc.reason, err)
			}
		})
	}
}

func TestKudoRepositories(t *testing.T) {
	cases := map[string]struct {
		reason string
		layout string // folder of the base inside the repository
	}{
		"VersionFolder":   {reason: "<framework>/<version>/", layout: "base/1.0"},
		"FrameworkFolder": {reason: "<framework>/ whose framework.yaml has the version", layout: "base"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, filepath.Join(dir, "repo", tc.layout), baseFiles)
			writeTree(t, filepath.Join(dir, "ext"), map[string]string{
				"framework.yaml": "name: e\nversion: \"1\"\nextends: {kudo: {framework: base, version: \"1.0\"}}\n",
			})
			res, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, "ext")},
				Options{Sources: &location.Sources{Repositories: []location.Repository{{Name: "r", Location: location.Local{Dir: filepath.Join(dir, "repo")}}}}})
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if got := []string{res.Chain[0].ID, res.Chain[1].ID}; !slices.Equal(got, []string{"e@1", "base@1.0"}) {
				t.Errorf("chain = %v", got)
			}
		})
	}
}

func TestBaseOverride(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "base"), baseFiles)
	fork := map[string]string{}
	for k, v := range baseFiles {
		fork[k] = v
	}
	fork["framework.yaml"] = strings.Replace(baseFramework, "name: base", "name: fork", 1)
	writeTree(t, filepath.Join(dir, "fork"), fork)
	writeTree(t, filepath.Join(dir, "ext"), map[string]string{"framework.yaml": "version: \"1\"\nextends: {path: ../base}\n"})
	res, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, "ext")},
		Options{Base: location.Local{Dir: filepath.Join(dir, "fork")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Chain[1].ID != "fork@1.0" {
		t.Errorf("spec.base not used: chain %v", res.Chain)
	}
}

// TestChainBaseMeansImmediateBase: in a chain c -> b -> a, base/ in c means
// b, and b's base/ references keep pointing at a.
func TestChainBaseMeansImmediateBase(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, filepath.Join(dir, "a"), baseFiles)
	writeTree(t, filepath.Join(dir, "b"), map[string]string{
		"framework.yaml":      "name: b\nversion: \"1\"\nextends: {path: ../a}\ntasks:\n  deploy:\n    resources: [base/deploy.yaml, b.yaml]\n",
		"templates/b.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
		"templates/only.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: only}\n",
	})
	writeTree(t, filepath.Join(dir, "c"), map[string]string{
		"framework.yaml": "name: c\nversion: \"1\"\nextends: {path: ../b}\ntasks:\n  extra:\n    resources: [base/only.yaml]\n",
	})
	res, err := Load(context.Background(), location.Local{Dir: filepath.Join(dir, "c")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bundle
	assert.Check(t, is.DeepEqual([]string{"base/b.yaml", "base/base/deploy.yaml"}, taskFiles(b.Task("deploy"))), "deploy")
	assert.Check(t, is.DeepEqual([]string{"base/only.yaml"}, taskFiles(b.Task("extra"))), "extra")
	if _, ok := b.Templates["base/base/job.yaml"]; !ok {
		t.Error("a's templates are not base/base/ in c")
	}
	if got := bundle.TemplatePath("base/base/job.yaml"); got != "base/base/templates/job.yaml" {
		t.Errorf("TemplatePath = %q", got)
	}
}

// TestPrefetchConcurrent: the packages of a bundle's KudoOperator tasks
// are loaded at the same time, and each task gets its own result.
func TestPrefetchConcurrent(t *testing.T) {
	b := &bundle.Bundle{Tasks: []*bundle.Task{
		{Name: "a", Kind: bundle.KindKudoOperator, Operator: &bundle.KudoOperatorSpec{Package: "a"}},
		{Name: "apply", Kind: "Apply"},
		{Name: "b", Kind: bundle.KindKudoOperator, Operator: &bundle.KudoOperatorSpec{Package: "b"}},
		{Name: "c", Kind: bundle.KindKudoOperator, Operator: &bundle.KudoOperatorSpec{Package: "c"}},
	}}
	var mu sync.Mutex
	waiting := 0
	all := make(chan struct{})
	slow := func(task *bundle.Task) (*bundle.Bundle, DependencyResolver, error) {
		mu.Lock()
		if waiting++; waiting == 3 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all: // every load has started before any finishes
		case <-time.After(10 * time.Second):
			return nil, nil, errors.New("loads ran one after another")
		}
		if task.Name == "c" {
			return nil, nil, errors.New("c is broken")
		}
		return &bundle.Bundle{Name: task.Operator.Package}, nil, nil
	}
	r := Prefetch(slow, b)
	for _, task := range b.Tasks {
		if task.Kind != bundle.KindKudoOperator {
			continue
		}
		got, _, err := r(task)
		switch {
		case task.Name == "c" && (err == nil || err.Error() != "c is broken"):
			t.Errorf("task c: error %v", err)
		case task.Name != "c" && (err != nil || got.Name != task.Name):
			t.Errorf("task %s: %v %v", task.Name, got, err)
		}
	}
}

// TestPrefetchShares: tasks that name the same package share one load, at
// every level, so a graph in which each package lists the next one six
// times costs one load per package, not 6^depth.
func TestPrefetchShares(t *testing.T) {
	const depth = 5
	bundles := make([]*bundle.Bundle, depth+1)
	for i := range bundles {
		bundles[i] = &bundle.Bundle{Name: fmt.Sprintf("p%d", i)}
		if i == depth {
			continue
		}
		for k := range 6 {
			bundles[i].Tasks = append(bundles[i].Tasks, &bundle.Task{Name: fmt.Sprintf("d%d", k), Kind: bundle.KindKudoOperator,
				Operator: &bundle.KudoOperatorSpec{Package: fmt.Sprintf("../p%d", i+1), InstanceName: fmt.Sprintf("i%d", k)}})
		}
	}
	var loads atomic.Int64
	var resolver DependencyResolver
	resolver = func(task *bundle.Task) (*bundle.Bundle, DependencyResolver, error) {
		loads.Add(1)
		var n int
		fmt.Sscanf(task.Operator.Package, "../p%d", &n)
		return bundles[n], resolver, nil
	}
	r, b := Prefetch(resolver, bundles[0]), bundles[0]
	for level := 0; level < depth; level++ {
		var next DependencyResolver
		for _, task := range b.Tasks {
			got, nr, err := r(task)
			if err != nil || got.Name != fmt.Sprintf("p%d", level+1) {
				t.Fatalf("level %d, task %s: %v %v", level, task.Name, got, err)
			}
			next = nr
		}
		r, b = next, bundles[level+1]
	}
	if n := loads.Load(); n != depth {
		t.Errorf("%d loads, want %d (one per package)", n, depth)
	}
}

// TestPrefetchOneLevelAhead: the dependencies of a loaded package are
// prefetched once one of its tasks is resolved, not before: loading never
// runs through the graph ahead of the instances the render counts.
func TestPrefetchOneLevelAhead(t *testing.T) {
	const depth = 4
	bundles := make([]*bundle.Bundle, depth+1)
	for i := range bundles {
		bundles[i] = &bundle.Bundle{Name: fmt.Sprintf("p%d", i)}
		if i < depth {
			bundles[i].Tasks = []*bundle.Task{{Name: "d", Kind: bundle.KindKudoOperator, Operator: &bundle.KudoOperatorSpec{Package: fmt.Sprintf("../p%d", i+1)}}}
		}
	}
	var mu sync.Mutex
	var loaded []int
	var resolver DependencyResolver
	resolver = func(task *bundle.Task) (*bundle.Bundle, DependencyResolver, error) {
		var n int
		fmt.Sscanf(task.Operator.Package, "../p%d", &n)
		mu.Lock()
		loaded = append(loaded, n)
		mu.Unlock()
		return bundles[n], resolver, nil
	}
	r := Prefetch(resolver, bundles[0])
	_, next, err := r(bundles[0].Tasks[0]) // p1, an instance the render counted
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // time for loads run ahead to start
	mu.Lock()
	got := slices.Clone(loaded)
	mu.Unlock()
	slices.Sort(got)
	if len(got) == 0 || got[0] != 1 || slices.Max(got) > 2 {
		t.Errorf("loaded %v after resolving p1, want p1 and at most its own dependency", got)
	}
	if b, _, err := next(bundles[1].Tasks[0]); err != nil || b.Name != "p2" {
		t.Errorf("p1's task: %v %v", b, err)
	}
}

// writeDepPackage writes the package name in dir: a KudoOperator task and
// step for each of deps (the folders beside it), then a ConfigMap, and the
// extra files (paths inside the package).
func writeDepPackage(t *testing.T, dir, name string, extra map[string]string, deps ...string) {
	t.Helper()
	var tasks, steps strings.Builder
	for i, d := range deps {
		fmt.Fprintf(&tasks, "  - {name: d%d, kind: KudoOperator, spec: {package: ../%s}}\n", i, d)
		fmt.Fprintf(&steps, "          - {name: d%d, tasks: [d%d]}\n", i, i)
	}
	files := map[string]string{
		name + "/operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: " + name + "\noperatorVersion: 0.1.0\ntasks:\n" + tasks.String() +
			"  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}\nplans:\n  deploy:\n    strategy: serial\n    phases:\n      - name: main\n        strategy: serial\n        steps:\n" +
			steps.String() + "          - {name: app, tasks: [app]}\n",
		name + "/params.yaml":       "apiVersion: kudo.dev/v1beta1\nparameters: []\n",
		name + "/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
	}
	for path, text := range extra {
		files[name+"/"+path] = text
	}
	writeTree(t, dir, files)
}

// TestDependenciesLoadOnce: a package that several packages depend on is
// loaded once: every task that names it gets the same bundle.
func TestDependenciesLoadOnce(t *testing.T) {
	dir := t.TempDir()
	pkg := func(name string, deps ...string) { writeDepPackage(t, dir, name, nil, deps...) }
	pkg("root", "a", "b")
	pkg("a", "shared")
	pkg("b", "shared")
	pkg("shared")
	ctx := context.Background()
	res, err := Load(ctx, location.Local{Dir: filepath.Join(dir, "root")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := Dependencies(ctx, res, Options{})
	var shared []*bundle.Bundle
	for _, task := range res.Bundle.Tasks[:2] {
		b, next, err := r(task)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := next(b.Tasks[0])
		if err != nil {
			t.Fatal(err)
		}
		shared = append(shared, s)
	}
	if shared[0] != shared[1] || shared[0].Name != "shared" {
		t.Errorf("the shared package was loaded for each path: %p %p", shared[0], shared[1])
	}
}

func TestPackageBytes(t *testing.T) {
	dir := t.TempDir()
	big := map[string]string{"templates/big.yaml": "# " + strings.Repeat("x", 10_000) + "\n"} // used by no task, read all the same
	pkg := func(name string, deps ...string) { writeDepPackage(t, dir, name, big, deps...) }
	pkg("root", "a", "b")
	pkg("a", "shared")
	pkg("b", "shared")
	pkg("shared")
	var sizes int64 // the four packages, shared once
	for _, name := range []string{"root", "a", "b", "shared"} {
		sizes += bundle.Size(os.DirFS(filepath.Join(dir, name)))
	}
	// graph loads root, then a, a's shared, b and b's shared (loaded
	// once: not charged again).
	graph := func(budget *limits.Budget) error {
		ctx := context.Background()
		opts := Options{Budget: budget}
		res, err := Load(ctx, location.Local{Dir: filepath.Join(dir, "root")}, opts)
		if err != nil {
			return err
		}
		r := Dependencies(ctx, res, opts)
		for _, task := range res.Bundle.Tasks[:2] {
			b, next, err := r(task)
			if err != nil {
				return err
			}
			if _, _, err := next(b.Tasks[0]); err != nil {
				return err
			}
		}
		return nil
	}
	for name, tc := range map[string]struct {
		reason string
		budget *limits.Budget
		want   string // "" for success
	}{
		"Default": {
			reason: "A graph of four small distinct packages is far under the default package-bytes.",
			budget: limits.NewBudget(limits.Limits{}),
		},
		"NilBudget": {
			reason: "A load outside a render (nil budget) charges nothing.",
		},
		"Exact": {
			reason: "The budget is the sum of the packages' files, each package once however many tasks name it: exactly that much passes.",
			budget: limits.NewBudget(limits.Limits{PackageBytes: sizes}),
		},
		"OneTooMany": {
			reason: "With room for three of the four packages, the fourth (b, after root, a and shared) is refused before it is read, naming it and the limit.",
			budget: limits.NewBudget(limits.Limits{PackageBytes: sizes - 1_000}),
			want:   "the package at " + filepath.Join(dir, "b") + ": total package size exceeds the limit of " + fmt.Sprint(sizes-1_000) + " bytes (raise it with --max-package-bytes or KUDO_RENDER_MAX_PACKAGE_BYTES)",
		},
		"RequestPackage": {
			reason: "The request's own package is charged too.",
			budget: limits.NewBudget(limits.Limits{PackageBytes: 5_000}),
			want:   "the package at " + filepath.Join(dir, "root") + ": total package size exceeds the limit of 5000 bytes (raise it with --max-package-bytes or KUDO_RENDER_MAX_PACKAGE_BYTES)",
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := graph(tc.budget)
			if tc.want == "" {
				assert.NilError(t, err, tc.reason)
				if tc.budget != nil {
					assert.Equal(t, tc.budget.Spent(limits.PackageBytes), sizes, tc.reason)
				}
				return
			}
			assert.Error(t, err, tc.want, tc.reason)
			_, ok := errors.AsType[*diag.LimitError](err)
			assert.Assert(t, ok, "%s: a %T, not a *diag.LimitError", tc.reason, err)
		})
	}
}
