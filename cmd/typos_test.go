package cmd

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
)

// TestTyposRefusedByRenderAndVerify (issue 26 item 2): in a copy of the
// corpus' zookeeper, a typo that changes what the package means is refused
// by render, strict or not, and by verify, with the file, the line, the
// field and a "did you mean". `strategy: Serial` used to move the
// validation Job from wave 1 into wave 0, next to the StatefulSet, with
// only a warning of verify. A default that the package's own
// params.schema.json refuses used to render and verify.
func TestTyposRefusedByRenderAndVerify(t *testing.T) {
	zk := filepath.Join(testcorpus.Dir(t), "kudo-operators", "zookeeper")
	type edit struct{ file, old, new string } // old: whole lines of file; "": new is the whole file
	cases := map[string]struct {
		reason string
		edits  []edit
		// at is the line the error names: the first line holding it in
		// file (the first edit's file unless said); the error is
		// "<file>:<line>: " + want.
		at, file string
		want     string
		// verifyWant replaces want for verify, when it words it otherwise.
		verifyWant string
		// args are more render arguments.
		args []string
		// rendersWith are render arguments that make the render succeed.
		rendersWith []string
	}{
		"PlanStrategyCapitalised": {
			reason: "The deploy plan's `strategy: Serial` ran its phases in parallel in KUDO: refused.",
			edits:  []edit{{"operator.yaml", "  deploy:\n    strategy: serial", "  deploy:\n    strategy: Serial"}},
			at:     "    strategy: Serial",
			want:   `plans.deploy.strategy: "Serial" is not a strategy; did you mean "serial"?`,
		},
		"PhaseStrategyCapitalised": {
			reason: "A phase's strategy is named by its index.",
			edits:  []edit{{"operator.yaml", "      - name: validation\n        strategy: serial", "      - name: validation\n        strategy: Serial"}},
			at:     "        strategy: Serial",
			want:   `plans.deploy.phases[1].strategy: "Serial" is not a strategy; did you mean "serial"?`,
		},
		"StrictToo": {
			reason: "--strict refuses it the same way.",
			edits:  []edit{{"operator.yaml", "  deploy:\n    strategy: serial", "  deploy:\n    strategy: Serial"}},
			at:     "    strategy: Serial",
			want:   `plans.deploy.strategy: "Serial" is not a strategy; did you mean "serial"?`,
			args:   []string{"--strict"},
		},
		"TaskKindLowerCase": {
			reason: "KUDO refused a task kind it did not know; now with a suggestion.",
			edits:  []edit{{"operator.yaml", "  - name: validation-cleanup\n    kind: Delete", "  - name: validation-cleanup\n    kind: delete"}},
			at:     "  - name: validation-cleanup", // a task's problems are at its first line
			want:   `tasks[3].kind: task "validation-cleanup" has unknown kind "delete"; did you mean "Delete"?`,
		},
		"DefaultAgainstTheOwnSchema": {
			reason: "NODE_COUNT's default 3 breaks the package's params.schema.json (maximum 2): the render that uses it fails, verify reports it at the parameter.",
			edits: []edit{{"params.schema.json", "", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "properties": {"NODE_COUNT": {"type": "integer", "maximum": 2}}}`}},
			at:         "  - name: NODE_COUNT",
			file:       "params.yaml",
			want:       "NODE_COUNT: default refused by params.schema.json: maximum: got 3, want 2",
			verifyWant: `parameter "NODE_COUNT" has an invalid default value: refused by params.schema.json: maximum: got 3, want 2`,
			// a value replaces the default: nothing refused reaches templates
			rendersWith: []string{"-p", "NODE_COUNT=1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "zookeeper")
			copyTree(t, zk, dir)
			for _, e := range tc.edits {
				p := filepath.Join(dir, e.file)
				text := e.new
				if e.old != "" {
					data, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(string(data), e.old+"\n") {
						t.Fatalf("%s has no %q: the corpus changed", e.file, e.old)
					}
					text = strings.Replace(string(data), e.old+"\n", e.new+"\n", 1)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			file := cmp.Or(tc.file, tc.edits[0].file)
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(string(data), tc.at+"\n")
			if i < 0 {
				t.Fatalf("%s has no line %q", file, tc.at)
			}
			where := fmt.Sprintf("%s:%d: ", file, strings.Count(string(data)[:i], "\n")+1)
			want := where + tc.want
			if strings.HasPrefix(tc.want, "NODE_COUNT: ") {
				want = tc.want // a render's parameter errors name the parameter
			}

			out, _, err := run(append([]string{"render", dir, "--name", "zk", "--namespace", "data"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("\n%s\nrender: want an error containing\n  %s\ngot %v", tc.reason, want, err)
			}
			if out != "" {
				t.Errorf("\n%s\nrender printed on stdout although it failed", tc.reason)
			}

			vwant := want
			if tc.verifyWant != "" {
				vwant = where + tc.verifyWant
			}
			if tc.rendersWith != nil {
				if _, _, err := run(append([]string{"render", dir, "--name", "zk", "--namespace", "data"}, tc.rendersWith...)...); err != nil {
					t.Errorf("\n%s\nrender %v: %v", tc.reason, tc.rendersWith, err)
				}
			}
			_, _, err = run("verify", dir)
			if err == nil || !strings.Contains(err.Error(), vwant) {
				t.Errorf("\n%s\nverify: want an error containing\n  %s\ngot %v", tc.reason, vwant, err)
			}
		})
	}
}

// TestZookeeperStrategiesAsWritten: the corpus' zookeeper as it is renders
// and verifies; its serial deploy plan puts the validation Job after the
// StatefulSet's wave: the order a typo used to change.
func TestZookeeperStrategiesAsWritten(t *testing.T) {
	zk := filepath.Join(testcorpus.Dir(t), "kudo-operators", "zookeeper")
	out, _, err := run("render", zk, "--name", "zk", "--namespace", "data")
	if err != nil {
		t.Fatal(err)
	}
	wave := func(kind, name string) string {
		for _, doc := range strings.Split(out, "\n---\n") {
			if strings.Contains(doc, "\nkind: "+kind+"\n") && strings.Contains(doc, "\n  name: "+name+"\n") {
				for _, l := range strings.Split(doc, "\n") {
					if v, ok := strings.CutPrefix(strings.TrimSpace(l), "argocd.argoproj.io/sync-wave: "); ok {
						return strings.Trim(v, `"`)
					}
				}
			}
		}
		t.Fatalf("no %s %s with a sync wave in the render", kind, name)
		return ""
	}
	if s, j := wave("StatefulSet", "zk-zookeeper"), wave("Job", "zk-validation"); s != "0" || j != "1" {
		t.Errorf("StatefulSet in wave %s, validation Job in wave %s: want 0 and 1", s, j)
	}
	if _, _, err := run("verify", zk); err != nil {
		t.Errorf("verify: %v", err)
	}
}
