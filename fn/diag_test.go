package fn

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// TestResult: a diagnostic maps onto one result, field for field; the
// line, which framework.Result has no field for, leads the message and is
// the "line" tag.
func TestResult(t *testing.T) {
	cases := map[string]struct {
		reason string
		d      *diag.Diagnostic
		want   *KRMResult
	}{
		"Full": {
			reason: "File, line, field and resource.",
			d: &diag.Diagnostic{File: "templates/cm.yaml", Line: 7, Field: "data.port", Msg: "object not found",
				Resource: &diag.Resource{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "cache"}},
			want: &KRMResult{Message: "line 7: object not found", Severity: severityError, File: &ResultFile{Path: "templates/cm.yaml"},
				Field: &ResultField{Path: "data.port"}, Tags: map[string]string{"line": "7"},
				ResourceRef: &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, NameMeta: yaml.NameMeta{Name: "cache", Namespace: "ns"}}},
		},
		"LineWithoutFile": {
			reason: "A line is kept when the diagnostic has a field but no file.",
			d:      &diag.Diagnostic{Line: 3, Field: "spec", Msg: "bad"},
			want:   &KRMResult{Message: "line 3: bad", Severity: severityError, Field: &ResultField{Path: "spec"}, Tags: map[string]string{"line": "3"}},
		},
		"MessageOnly": {
			reason: "A diagnostic with nothing but a message (and a line) is its whole text.",
			d:      &diag.Diagnostic{Line: 3, Msg: "bad"},
			want:   &KRMResult{Message: "line 3: bad", Severity: severityError},
		},
		"Warning": {
			reason: "The severity is kept.",
			d:      &diag.Diagnostic{Severity: diag.SeverityWarning, File: "operator.yaml", Field: "tasks[0].spec.x", Msg: "unknown"},
			want:   &KRMResult{Message: "unknown", Severity: severityWarning, File: &ResultFile{Path: "operator.yaml"}, Field: &ResultField{Path: "tasks[0].spec.x"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Result(tc.d)); diff != "" {
				t.Errorf("%s\nResult(...): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
