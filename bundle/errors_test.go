package bundle_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestErrorsPointAtTheMistake (issue 26.7): an undefined task is reported
// at the line that names it, with a "did you mean" from the tasks; a
// scalar where a mapping or list belongs names its field path.
func TestErrorsPointAtTheMistake(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		want   []wantProblem
	}{
		"KudoTaskMisspelt": {
			reason: "A plan step's misspelt task is reported at the line of the task name, not the plan's, with the task it is close to.",
			files:  edit(kudoFiles(), "operator.yaml", "tasks: [app, metrics]", "tasks: [app,\n              metrix]"),
			want: []wantProblem{{"operator.yaml", "              metrix]", "plans.deploy.phases[0].steps[1].tasks[1]",
				`plan "deploy" uses task "metrix", which is not defined; did you mean "metrics"?`}},
		},
		"FrameworkTaskMisspelt": {
			reason: "The same in a framework bundle's plan.",
			files:  edit(frameworkFiles(), "framework.yaml", "          - monitoring\n", "          - monitorin\n"),
			want: []wantProblem{{"framework.yaml", "          - monitorin", "plans.deploy.steps[0].tasks[1]",
				`plan "deploy" uses task "monitorin", which is not defined; did you mean "monitoring"?`}},
		},
		"TaskUnknown": {
			reason: "A task close to none is still reported at its line, without a suggestion.",
			files:  edit(frameworkFiles(), "framework.yaml", "        tasks: [init]", "        tasks: [zzzzzzzz]"),
			want: []wantProblem{{"framework.yaml", "        tasks: [zzzzzzzz]", "plans.backup.steps[0].tasks[0]",
				`plan "backup" uses task "zzzzzzzz", which is not defined`}},
		},
		"ToggleParameterMisspelt": {
			reason: "A Toggle task's misspelt parameter gets a did you mean from params.yaml.",
			files:  edit(kudoFiles(), "operator.yaml", "parameter: METRICS", "parameter: METRIC"),
			want: []wantProblem{{"operator.yaml", "  - name: metrics", "tasks[2].spec.parameter",
				`Toggle task "metrics" uses parameter "METRIC", which params.yaml does not define; did you mean "METRICS"?`}},
		},
		"TemplateMisspelt": {
			reason: "A task's misspelt template gets a did you mean from templates/.",
			files:  edit(kudoFiles(), "operator.yaml", "resources: [config/cm.yaml]", "resources: [config/cm.yml]"),
			want: []wantProblem{{"operator.yaml", "  - name: cleanup", "tasks[3].resources[0]",
				`task "cleanup" uses template "config/cm.yml", which is not in templates/; did you mean "config/cm.yaml"?`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := bundle.Load(mapFS(tc.files), "folder")
			if err == nil {
				t.Fatalf("\n%s\nLoad(...) accepted it", tc.reason)
			}
			checkProblems(t, tc.reason, tc.files, err, tc.want)
		})
	}
}
