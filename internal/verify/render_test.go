package verify_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/verify"
)

func kudoPackage(operator, params string, templates map[string]string) fstest.MapFS {
	fs := fstest.MapFS{"operator.yaml": {Data: []byte(operator)}, "params.yaml": {Data: []byte(params)}}
	for k, v := range templates {
		fs["templates/"+k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fs
}

const toggleOperator = `apiVersion: kudo.dev/v1beta1
name: web
operatorVersion: 0.1.0
tasks:
  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}
  - {name: debug, kind: Toggle, spec: {parameter: DEBUG, resources: [debug.yaml]}}
plans:
  deploy:
    strategy: serial
    phases: [{name: main, strategy: serial, steps: [{name: app, tasks: [app, debug]}]}]
`

// TestVerifyAgreesWithRender: what makes a render with the default
// parameters fail is a verification error too, even when every template
// renders on its own.
func TestVerifyAgreesWithRender(t *testing.T) {
	cases := []struct {
		reason, params string
		want           string // a finding containing this; "" for none of severity error
		sev            verify.Severity
	}{
		{"a Toggle whose default is not a boolean fails the plan",
			"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: DEBUG\n    default: maybe\n", `plan "deploy" does not render with the default parameters`, verify.Error},
		{"a good default renders",
			"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: DEBUG\n    default: \"false\"\n", "", ""},
		{"a parameter without a default: the plans cannot be rendered with defaults, which is said, not an error",
			"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: DEBUG\n", "DEBUG need a value", verify.Info},
		{"an unknown field KUDO ignored is a warning with a suggestion",
			"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: DEBUG\n    default: \"false\"\n    desription: x\n", `unknown field "desription"; did you mean "description"?`, verify.Warning},
	}
	for _, tc := range cases {
		b, err := bundle.Load(kudoPackage(toggleOperator, tc.params, map[string]string{
			"cm.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n",
			"debug.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: debug}\n",
		}), "web")
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		findings := verify.Package(b, verify.Options{})
		var found bool
		for _, f := range findings {
			if tc.want != "" && strings.Contains(f.Msg, tc.want) && f.Severity == tc.sev {
				found = true
			}
			if tc.want == "" && f.Severity == verify.Error {
				t.Errorf("%s: unexpected error %v", tc.reason, f)
			}
		}
		if tc.want != "" && !found {
			t.Errorf("%s: no %s finding with %q in %v", tc.reason, tc.sev, tc.want, findings)
		}
	}
}
