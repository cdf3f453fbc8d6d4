package versions

import (
	"errors"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// FuzzConvert converts YAML objects for targets from Oldest to Default:
// Convert never panics, fails only with an error diagnostic that leaves the
// object as it was, never changes the input's map, gives the same result
// twice, and its outputs hold plain values only, are read strictly as
// their new API version and convert again as no-ops.
func FuzzConvert(f *testing.F) {
	for _, tc := range convertCases {
		f.Add(tc.in, uint8(tc.target.Minor))
	}
	f.Add("apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec: {selector: {matchExpressions: [{key: pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match, operator: Exists}]}}\n", uint8(37))
	f.Add("apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: x, annotations: {deprecated.deployment.rollback.to: \"1\"}}\nspec: {template: {spec: {containers: [{name: a, resources: {limits: {cpu: 1.5}}}]}}}\n", uint8(16))
	f.Add("apiVersion: discovery.k8s.io/v1beta1\nkind: EndpointSlice\nmetadata: {name: x}\naddressType: IPv4\nendpoints: [{addresses: [10.0.0.1], topology: {kubernetes.io/hostname: n1, rack: r1}}]\n", uint8(30))
	f.Add("apiVersion: certificates.k8s.io/v1beta1\nkind: CertificateSigningRequest\nmetadata: {name: x}\nspec: {request: aGk=, usages: [server auth]}\n", uint8(22))
	f.Fuzz(func(t *testing.T, text string, minor uint8) {
		var x any
		if yaml.Unmarshal([]byte(text), &x) != nil {
			return
		}
		m, ok := plainYAML(x).(map[string]any)
		if !ok {
			return
		}
		target := kubeversion.Version{Major: 1, Minor: int(kubeversion.Oldest.Minor) + int(minor)%(kubeversion.Default.Minor-kubeversion.Oldest.Minor+1)}
		in := deepCopyMap(m)
		o := object.New(m)
		d, err := Convert(o, target)
		if !reflect.DeepEqual(m, in) {
			t.Fatalf("the input's map changed:\n%v\n%v", in, m)
		}
		if err != nil {
			var dd *diag.Diagnostic
			if !errors.As(err, &dd) || dd.Severity != diag.SeverityError || d != nil {
				t.Fatalf("failed with %#v (%v)", err, d)
			}
			if !reflect.DeepEqual(o.Map, in) {
				t.Fatalf("refused, but changed the object")
			}
			return
		}
		if d == nil {
			if !reflect.DeepEqual(o.Map, in) {
				t.Fatalf("untouched, but changed")
			}
			return
		}
		again := object.New(deepCopyMap(in))
		if _, err := Convert(again, target); err != nil || !reflect.DeepEqual(again.Map, o.Map) {
			t.Fatalf("a second conversion differs: %v", err)
		}
		checkOutput(t, o, target)
	})
}
