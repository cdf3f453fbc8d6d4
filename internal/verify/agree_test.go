package verify_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/render"
	"github.com/kudo-render/kudo-render/internal/verify"
)

const schemaOperator = `apiVersion: kudo.dev/v1beta1
name: web
operatorVersion: 0.1.0
tasks:
  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}
plans:
  deploy:
    strategy: serial
    phases: [{name: main, strategy: serial, steps: [{name: app, tasks: [app]}]}]
`

const replicasSchema = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
  "properties": {"REPLICAS": {"type": "integer", "minimum": 1, "maximum": 5}}}`

// TestVerifyRefusesWhatRenderRefuses: verify and render agree both ways
// on a package's own params.schema.json. A default the schema refuses made
// neither fail before: now the render that uses it fails, and verify
// reports it at the parameter's line in params.yaml, also when the plans
// cannot be rendered with defaults (another parameter needs a value) and
// when a value would override it (verify checks the package, not one
// render). A schema the render cannot use is a verify error too.
func TestVerifyRefusesWhatRenderRefuses(t *testing.T) {
	cases := map[string]struct {
		reason string
		params string
		schema string
		values map[string]any // for the render
		// renderErr: part of the render's error, "" when it renders.
		renderErr string
		// verifyErr: an error finding, as "file:line: message" (part of
		// it); "" when verify finds no error.
		verifyErr string
	}{
		"DefaultWithinTheSchema": {
			reason: "A default the schema accepts: both pass.",
			params: "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    type: integer\n    default: \"3\"\n",
			schema: replicasSchema,
		},
		"DefaultAboveMaximum": {
			reason:    "Today's bug: a default of 9 under the schema's maximum 5 rendered and verified.",
			params:    "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    type: integer\n    default: \"9\"\n",
			schema:    replicasSchema,
			renderErr: "invalid parameter: params.yaml:5: parameters[0].default: REPLICAS: default refused by params.schema.json: maximum: got 9, want 5",
			verifyErr: `params.yaml:3: parameter "REPLICAS" has an invalid default value: refused by params.schema.json: maximum: got 9, want 5`,
		},
		"PlansNotRenderedWithDefaults": {
			reason:    "Another parameter needs a value, so verify does not render the plans: it still checks every default against the schema.",
			params:    "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    type: integer\n    default: \"0\"\n  - name: PASSWORD\n",
			schema:    replicasSchema,
			values:    map[string]any{"PASSWORD": "x"},
			renderErr: "invalid parameter: params.yaml:5: parameters[0].default: REPLICAS: default refused by params.schema.json: minimum: got 0, want 1",
			verifyErr: `params.yaml:3: parameter "REPLICAS" has an invalid default value: refused by params.schema.json: minimum: got 0, want 1`,
		},
		"ValueOverridesTheDefault": {
			reason:    "A render whose value replaces the broken default goes on (a user can work around it); the package is still wrong, so verify reports it.",
			params:    "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    type: integer\n    default: \"9\"\n",
			schema:    replicasSchema,
			values:    map[string]any{"REPLICAS": "2"},
			verifyErr: `params.yaml:3: parameter "REPLICAS" has an invalid default value: refused by params.schema.json: maximum: got 9, want 5`,
		},
		"SchemaThatDoesNotCompile": {
			reason:    "A schema the render cannot use is an error of verify too, even without rendering the plans.",
			params:    "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: REPLICAS\n    default: \"1\"\n  - name: PASSWORD\n",
			schema:    `{"type": "object", "properties": {"REPLICAS": {"type": "integr"}}}`,
			values:    map[string]any{"PASSWORD": "x"},
			renderErr: "invalid schema params.schema.json",
			verifyErr: "params.schema.json: invalid schema: /properties/REPLICAS/type: is not a valid schema",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fsys := kudoPackage(schemaOperator, tc.params, map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n"})
			fsys["params.schema.json"] = &fstest.MapFile{Data: []byte(tc.schema)}
			b, err := bundle.Load(fsys, "web")
			if err != nil {
				t.Fatalf("\n%s\nload: %v", tc.reason, err)
			}
			_, err = engine.Render(engine.Request{Bundle: b, Instance: render.Instance{Name: "web", Namespace: "ns"}, Params: tc.values})
			switch {
			case tc.renderErr == "" && err != nil:
				t.Errorf("\n%s\nrender: %v", tc.reason, err)
			case tc.renderErr != "" && (err == nil || !strings.Contains(err.Error(), tc.renderErr)):
				t.Errorf("\n%s\nrender: want an error containing %q, got %v", tc.reason, tc.renderErr, err)
			}
			var errs []string
			for _, f := range verify.Errors(verify.Package(b, verify.Options{})) {
				errs = append(errs, strings.TrimPrefix(f.String(), "error: "))
			}
			found := false
			for _, e := range errs {
				found = found || (tc.verifyErr != "" && strings.Contains(e, tc.verifyErr))
			}
			switch {
			case tc.verifyErr == "" && len(errs) > 0:
				t.Errorf("\n%s\nverify: unexpected errors:\n%s", tc.reason, strings.Join(errs, "\n"))
			case tc.verifyErr != "" && !found:
				t.Errorf("\n%s\nverify: want an error containing %q, got:\n%s", tc.reason, tc.verifyErr, strings.Join(errs, "\n"))
			}
		})
	}
}
