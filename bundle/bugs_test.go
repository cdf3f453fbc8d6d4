package bundle_test

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestFrameworkParamsUnknownFieldPath: an unknown field in a KEP-0009
// params.yaml must name the parameter it belongs to (and the field).
func TestFrameworkParamsUnknownFieldPath(t *testing.T) {
	files := with(frameworkFiles(), map[string]string{"params.yaml": strings.Replace(frameworkParams, "  description: Password.\n", "  description: Password.\n  defualt: x\n", 1)})
	_, err := bundle.Load(mapFS(files), "folder")
	got, msgs := loadProblems(t, err)
	want := []problem{{File: "params.yaml", Line: lineOf(files["params.yaml"], "defualt"), Field: "password.defualt"}}
	assert.Check(t, is.DeepEqual(want, got), "Load(...):\n\n%v", msgs)
}

// TestMaintainerUnknownField: maintainers are decoded by hand (they may be
// "Name <email>" strings), which must not make them lenient: a typo in a
// maintainer mapping is dropped silently today.
func TestMaintainerUnknownField(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
	}{
		"KUDO": {
			reason: "A typo in a KUDO maintainer is an unknown field: a warning, as KUDO ignored it.",
			files:  with(kudoFiles(), map[string]string{"operator.yaml": strings.Replace(kudoOperator, "    email: adukhovniy@D2iQ.com\n", "    emial: adukhovniy@D2iQ.com\n", 1)}),
		},
		"Framework": {
			reason: "A typo in a mapping-form framework maintainer is an unknown field.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "  - Nobody\n", "  - {name: Nobody, emial: no@example.com}\n", 1)}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.Load(mapFS(tc.files), "folder")
			if name == "KUDO" {
				if err != nil || len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0].Msg, `unknown field "emial"; did you mean "email"?`) {
					t.Errorf("\n%s\nLoad(...): want one warning, got %v, %v", tc.reason, err, b)
				}
				return
			}
			var le *bundle.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("\n%s\nLoad(...): want *bundle.LoadError, got %v (maintainers %+v)", tc.reason, err, b.Maintainers)
			}
			if !strings.Contains(le.Error(), `unknown field "emial"`) {
				t.Errorf("\n%s\nLoad(...): want unknown field \"emial\", got %v", tc.reason, err)
			}
		})
	}
}

// TestLoadReportsEveryFile: LoadError promises every problem in one run,
// but once operator.yaml has a problem, params.yaml is not read at all.
func TestLoadReportsEveryFile(t *testing.T) {
	files := with(kudoFiles(), map[string]string{
		"operator.yaml": strings.Replace(kudoOperator, "url: https://kudo.dev\n", "url: https://kudo.dev\nplan: {}\n", 1),
		"params.yaml":   strings.Replace(kudoParams, "    immutable: true\n", "    immutable: true\n    defualt: x\n", 1),
	})
	b, err := bundle.Load(mapFS(files), "folder")
	if err != nil {
		t.Fatalf("unknown fields of KUDO files are warnings: %v", err)
	}
	var got []problem
	for _, d := range b.Warnings {
		got = append(got, problem{File: d.File, Line: d.Line, Field: d.Field})
	}
	want := []problem{
		{File: "operator.yaml", Line: lineOf(files["operator.yaml"], "plan: {}"), Field: "plan"},
		{File: "params.yaml", Line: lineOf(files["params.yaml"], "defualt"), Field: "parameters[1].defualt"},
	}
	assert.Check(t, is.DeepEqual(want, got), "Load(...)")
}

// TestExtensionToggleUsesBaseParameter: in an extension (KEP-0012) plan
// tasks and base/ templates may live in the base and are checked after the
// merge, but a Toggle task's parameter must already be in the extension's
// own params.yaml, so an extension cannot toggle on a base parameter.
func TestExtensionToggleUsesBaseParameter(t *testing.T) {
	files := map[string]string{
		"framework.yaml": `name: ext
version: 1.0.0
extends:
  path: ../base
tasks:
  debug:
    kind: Toggle
    parameter: DEBUG
    resources: [debug.yaml]
plans:
  deploy:
    steps:
      - name: debug
        tasks: [base/app, debug]
`,
		"templates/debug.yaml": "kind: ConfigMap\n",
	}
	if _, err := bundle.Load(mapFS(files), "ext"); err != nil {
		t.Errorf("Load(extension): want the Toggle parameter to be resolved against the base after the merge, got %v", err)
	}
}

// TestFrameworkToggleFieldPath: framework.yaml has no `spec` below a task;
// a problem with a framework Toggle task's parameter must name the field
// as it is written there.
func TestFrameworkToggleFieldPath(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		msg    string
	}{
		"UndefinedParameter": {
			reason: "A Toggle parameter missing from params.yaml.",
			files:  with(frameworkFiles(), map[string]string{"params.yaml": "storage:\n  default: 1Gi\n"}),
			msg:    `uses parameter "monitoring", which params.yaml does not define`,
		},
		"NoParameter": {
			reason: "A Toggle task without parameter.",
			files:  with(frameworkFiles(), map[string]string{"framework.yaml": strings.Replace(frameworkYAML, "    parameter: monitoring\n", "", 1)}),
			msg:    "needs a parameter",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := bundle.Load(mapFS(tc.files), "folder")
			got, msgs := loadProblems(t, err)
			want := []problem{{File: "framework.yaml", Line: lineOf(tc.files["framework.yaml"], "    kind: Toggle"), Field: "tasks.monitoring.parameter"}}
			assert.Check(t, is.DeepEqual(want, got), "%s\nLoad(...)", tc.reason)
			if len(msgs) > 0 && !strings.Contains(msgs[0], tc.msg) {
				t.Errorf("\n%s\nLoad(...): want message containing %q, got %q", tc.reason, tc.msg, msgs[0])
			}
		})
	}
}

// TestParamDefaultPos: a parameter's default knows where it is written
// (file, line, field path), so that a default a render refuses is
// reported there rather than as a value of the FunctionConfig (issue
// 25.3).
func TestParamDefaultPos(t *testing.T) {
	cases := map[string]struct {
		reason string
		files  map[string]string
		param  string
		want   bundle.Pos
	}{
		"KUDO": {
			reason: "A KUDO parameter's default is parameters[i].default.",
			files:  kudoFiles(), param: "METRICS",
			want: bundle.Pos{File: "params.yaml", Line: lineOf(kudoParams, `default: "false"`), Field: "parameters[2].default"},
		},
		"Framework": {
			reason: "A KEP-0009 parameter's default is <name>.default.",
			files:  frameworkFiles(), param: "monitoring",
			want: bundle.Pos{File: "params.yaml", Line: lineOf(frameworkParams, `default: "false"`), Field: "monitoring.default"},
		},
		"NoDefault": {
			reason: "A parameter without a default has no place for it.",
			files:  frameworkFiles(), param: "password",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := bundle.Load(mapFS(tc.files), "folder")
			if err != nil {
				t.Fatal(err)
			}
			assert.Check(t, is.DeepEqual(tc.want, b.Param(tc.param).DefaultPos), "%s\nDefaultPos", tc.reason)
		})
	}
}
