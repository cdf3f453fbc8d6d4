package fn

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestResultMatchesKyaml: KRMResult encodes and prints exactly as kyaml's
// framework.Result, which kpt and kustomize read.
func TestResultMatchesKyaml(t *testing.T) {
	ref := &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, NameMeta: yaml.NameMeta{Name: "c", Namespace: "ns"}}
	cases := []struct {
		reason string
		ours   *KRMResult
		theirs *framework.Result
	}{
		{"message only", &KRMResult{Message: "m"}, &framework.Result{Message: "m"}},
		{"an error on a field of a resource in a file", &KRMResult{Message: "bad", Severity: severityError, ResourceRef: ref, Field: &ResultField{Path: "spec.x"}, File: &ResultFile{Path: "a.yaml", Index: 2}, Tags: map[string]string{"line": "3"}},
			&framework.Result{Message: "bad", Severity: framework.Error, ResourceRef: ref, Field: &framework.Field{Path: "spec.x"}, File: &framework.File{Path: "a.yaml", Index: 2}, Tags: map[string]string{"line": "3"}}},
		{"a warning", &KRMResult{Message: "w", Severity: severityWarning}, &framework.Result{Message: "w", Severity: framework.Warning}},
		{"info", &KRMResult{Message: "i", Severity: severityInfo, Field: &ResultField{Path: "p", CurrentValue: 1, ProposedValue: "2"}},
			&framework.Result{Message: "i", Severity: framework.Info, Field: &framework.Field{Path: "p", CurrentValue: 1, ProposedValue: "2"}}},
	}
	var ours KRMResults
	var theirs framework.Results
	for _, tc := range cases {
		a, err := yaml.Marshal(tc.ours)
		if err != nil {
			t.Fatal(err)
		}
		b, err := yaml.Marshal(tc.theirs)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(b), string(a)); d != "" {
			t.Errorf("%s: YAML -kyaml +ours:\n%s", tc.reason, d)
		}
		if tc.ours.String() != tc.theirs.String() {
			t.Errorf("%s: %q, kyaml %q", tc.reason, tc.ours.String(), tc.theirs.String())
		}
		ours, theirs = append(ours, tc.ours), append(theirs, tc.theirs)
	}
	if ours.Error() != theirs.Error() {
		t.Errorf("Error(): %q, kyaml %q", ours.Error(), theirs.Error())
	}
}
