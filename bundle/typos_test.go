package bundle_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestTyposThatChangeMeaning: an enumerated field of operator.yaml,
// framework.yaml or params.yaml whose value is not one of its values is
// refused when the bundle is loaded (so by render, strict or not, and by
// verify), naming the file, the line of the value and the field path,
// with a "did you mean" when a value is close. KUDO accepted an unknown
// strategy and ran it in parallel: `strategy: Serial` silently moved the
// second phase of a plan next to the first. Values KUDO gave a meaning to
// and that change nothing in a render (no strategy, a trigger naming no
// plan) still load.
func TestTyposThatChangeMeaning(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   []wantProblem // nil: loads
	}{
		"PlanStrategyCapitalised": {
			reason: `"Serial" is not "serial": KUDO ran the plan's phases in parallel; refused, with the exact spelling suggested.`,
			files:  edit(kudoFiles(), "operator.yaml", "  deploy:\n    strategy: serial\n", "  deploy:\n    strategy: Serial\n"),
			want: []wantProblem{{"operator.yaml", "    strategy: Serial", "plans.deploy.strategy",
				`"Serial" is not a strategy; did you mean "serial"?`}},
		},
		"PhaseStrategyCapitalised": {
			reason: "A phase's strategy is checked like a plan's, its field path naming the phase's index.",
			files:  edit(kudoFiles(), "operator.yaml", "        strategy: parallel\n", "        strategy: Parallel\n"),
			want: []wantProblem{{"operator.yaml", "        strategy: Parallel", "plans.deploy.phases[0].strategy",
				`"Parallel" is not a strategy; did you mean "parallel"?`}},
		},
		"StrategyUpperCase": {
			reason: "Case matters, as in KUDO: SERIAL was parallel there.",
			files:  edit(kudoFiles(), "operator.yaml", "  cleanup:\n    strategy: serial\n", "  cleanup:\n    strategy: SERIAL\n"),
			want: []wantProblem{{"operator.yaml", "    strategy: SERIAL", "plans.cleanup.strategy",
				`"SERIAL" is not a strategy; did you mean "serial"?`}},
		},
		"StrategyMisspelt": {
			reason: "A misspelt strategy two edits away gets a suggestion.",
			files:  edit(kudoFiles(), "operator.yaml", "        strategy: parallel\n", "        strategy: paralel\n"),
			want: []wantProblem{{"operator.yaml", "        strategy: paralel", "plans.deploy.phases[0].strategy",
				`"paralel" is not a strategy; did you mean "parallel"?`}},
		},
		"StrategyUnknownWord": {
			reason: "A strategy close to none is refused with the list of strategies.",
			files:  edit(kudoFiles(), "operator.yaml", "        strategy: parallel\n", "        strategy: sequential\n"),
			want: []wantProblem{{"operator.yaml", "        strategy: sequential", "plans.deploy.phases[0].strategy",
				`"sequential" is not a strategy (want "serial" or "parallel")`}},
		},
		"EveryStrategyAtOnce": {
			reason: "Every wrong strategy is reported in one run.",
			files: edit(edit(kudoFiles(), "operator.yaml", "  deploy:\n    strategy: serial\n", "  deploy:\n    strategy: Serial\n"),
				"operator.yaml", "        strategy: parallel\n", "        strategy: Parallel\n"),
			want: []wantProblem{
				{"operator.yaml", "    strategy: Serial", "plans.deploy.strategy", `"Serial" is not a strategy; did you mean "serial"?`},
				{"operator.yaml", "        strategy: Parallel", "plans.deploy.phases[0].strategy", `"Parallel" is not a strategy; did you mean "parallel"?`},
			},
		},
		"TaskKindLowerCase": {
			reason: "KUDO refused a task kind it did not know (case matters); the message suggests the kind.",
			files:  edit(kudoFiles(), "operator.yaml", "    kind: Delete\n", "    kind: delete\n"),
			want: []wantProblem{{"operator.yaml", "  - name: cleanup", "tasks[3].kind",
				`task "cleanup" has unknown kind "delete"; did you mean "Delete"?`}},
		},
		"TaskKindUnknown": {
			reason: "A kind close to none lists the kinds.",
			files:  edit(kudoFiles(), "operator.yaml", "    kind: Delete\n", "    kind: Remove\n"),
			want: []wantProblem{{"operator.yaml", "  - name: cleanup", "tasks[3].kind",
				`task "cleanup" has unknown kind "Remove" (want Apply, Delete, Dummy, Toggle, Pipe or KudoOperator)`}},
		},
		"FrameworkTaskKindLowerCase": {
			reason: "A framework task's kind gets a suggestion too.",
			files:  edit(frameworkFiles(), "framework.yaml", "    kind: Toggle\n", "    kind: toggle\n"),
			want: []wantProblem{{"framework.yaml", "    kind: toggle", "tasks.monitoring.kind",
				`must be Apply, Delete or Toggle in a framework bundle, got "toggle"; did you mean "Toggle"?`}},
		},
		"PipeKindLowerCase": {
			reason: "A pipe file's kind is Secret or ConfigMap, spelt so.",
			files:  edit(kudoFiles(), "operator.yaml", "kind: ConfigMap", "kind: configmap"),
			want: []wantProblem{{"operator.yaml", "  - name: genwww", "tasks[1].spec.pipe[0].kind",
				`must be Secret or ConfigMap, got "configmap"; did you mean "ConfigMap"?`}},
		},
		"ParamTypeCapitalised": {
			reason: "A parameter type is one of KUDO's, spelt so; the error is at the line of the type.",
			files:  edit(kudoFiles(), "params.yaml", "    type: integer\n", "    type: Integer\n"),
			want: []wantProblem{{"params.yaml", "    type: Integer", "parameters[0].type",
				`unknown type "Integer"; did you mean "integer"?`}},
		},
		"ParamTypeAlias": {
			reason: "Another language's name of a type is suggested as the parameter type.",
			files:  edit(kudoFiles(), "params.yaml", "    type: boolean\n", "    type: bool\n"),
			want: []wantProblem{{"params.yaml", "    type: bool", "parameters[2].type",
				`unknown type "bool"; did you mean "boolean"?`}},
		},
		"NoStrategyIsParallel": {
			reason: "A plan or phase without a strategy is parallel, as in KUDO: not a typo, it loads (verify warns).",
			files: edit(edit(kudoFiles(), "operator.yaml", "  deploy:\n    strategy: serial\n", "  deploy:\n"),
				"operator.yaml", "        strategy: parallel\n", ""),
		},
		"TriggerOfNoPlan": {
			reason: "A trigger naming no plan changes nothing in a render (no instance is updated); KUDO installed such packages, so it loads (verify reports it, as KUDO's verify did).",
			files:  edit(kudoFiles(), "params.yaml", "    trigger: deploy\n", "    trigger: deplyo\n"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.Load(mapFS(tc.files), "folder")
			if tc.want == nil {
				if err != nil {
					t.Fatalf("\n%s\nLoad(...): %v", tc.reason, err)
				}
				if name == "NoStrategyIsParallel" && (b.Plan("deploy").Strategy != "" || b.Plan("deploy").Phases[0].Strategy != "") {
					t.Errorf("\n%s\nthe strategies are kept empty", tc.reason)
				}
				return
			}
			if err == nil {
				t.Fatalf("\n%s\nLoad(...) accepted the typo", tc.reason)
			}
			checkProblems(t, tc.reason, tc.files, err, tc.want)
		})
	}
}

// wantProblem is a problem Load must report: at is the text at the start
// of its line in file.
type wantProblem struct {
	file, at, field, msg string
}

// checkProblems compares the problems of Load's error with want, each
// written as the error prints it (file, line, field path, message).
func checkProblems(t *testing.T, reason string, files map[string]string, err error, want []wantProblem) {
	t.Helper()
	var w, got []string
	for _, p := range want {
		w = append(w, (&bundle.FieldError{File: p.file, Line: lineOf(files[p.file], p.at), Field: p.field, Msg: p.msg}).Error())
	}
	ps, msgs := loadProblems(t, err)
	for i, p := range ps {
		got = append(got, (&bundle.FieldError{File: p.File, Line: p.Line, Field: p.Field, Msg: msgs[i]}).Error())
	}
	assert.Check(t, is.DeepEqual(w, got), "%s\nLoad(...)", reason)
}

// TestStrategyProblem: the rule both render (through Load) and verify use.
func TestStrategyProblem(t *testing.T) {
	cases := []struct {
		reason, strategy, want string
	}{
		{"serial is a strategy", "serial", ""},
		{"parallel is a strategy", "parallel", ""},
		{"no strategy is KUDO's parallel", "", ""},
		{"case matters", "Serial", `"Serial" is not a strategy; did you mean "serial"?`},
		{"a word close to none lists the strategies", "one-by-one", `"one-by-one" is not a strategy (want "serial" or "parallel")`},
	}
	for _, tc := range cases {
		if got := bundle.StrategyProblem(tc.strategy); got != tc.want {
			t.Errorf("%s: StrategyProblem(%q) = %q, want %q", tc.reason, tc.strategy, got, tc.want)
		}
	}
}

// edit replaces the first old in the file name of files; old must be there.
func edit(files map[string]string, name, old, new string) map[string]string {
	if !strings.Contains(files[name], old) {
		panic("edit: " + old + " not in " + name)
	}
	return with(files, map[string]string{name: strings.Replace(files[name], old, new, 1)})
}
