package fn

import (
	"testing"

	"gotest.tools/v3/assert"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// TestResult: a diagnostic maps onto kyaml's framework.Result: severity,
// file, field and resource in their fields, the line in the message and
// the "line" tag (Result has no field for it).
func TestResult(t *testing.T) {
	ref := &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, NameMeta: yaml.NameMeta{Name: "c", Namespace: "ns"}}
	cases := []struct {
		reason string
		d      *diag.Diagnostic
		want   *framework.Result
	}{
		{"a message alone is an error",
			&diag.Diagnostic{Msg: "m"},
			&framework.Result{Message: "m", Severity: framework.Error}},
		{"file, line, field and resource",
			&diag.Diagnostic{File: "templates/cm.yaml", Line: 3, Field: "data.x", Resource: &diag.Resource{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"}, Msg: "bad"},
			&framework.Result{Message: "line 3: bad", Severity: framework.Error, ResourceRef: ref, Field: &framework.Field{Path: "data.x"}, File: &framework.File{Path: "templates/cm.yaml"}, Tags: map[string]string{"line": "3"}}},
		{"a file without a line",
			&diag.Diagnostic{Severity: diag.SeverityWarning, File: "params.yaml", Msg: "w"},
			&framework.Result{Message: "w", Severity: framework.Warning, File: &framework.File{Path: "params.yaml"}}},
		{"a note on a field",
			&diag.Diagnostic{Severity: diag.SeverityInfo, Field: "spec.params.X", Msg: "i"},
			&framework.Result{Message: "i", Severity: framework.Info, Field: &framework.Field{Path: "spec.params.X"}}},
	}
	for _, tc := range cases {
		assert.DeepEqual(t, Result(tc.d), tc.want)
	}
	// As an error, results read as kyaml prints them.
	rs := framework.Results{Result(cases[0].d), Result(cases[1].d)}
	assert.Equal(t, rs.Error(), "[error]: m\n\n[error] v1/ConfigMap/ns/c data.x: line 3: bad")
}
