package adopt

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

func entry(manager string, op metav1.ManagedFieldsOperationType, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, APIVersion: "apps/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

func set(t *testing.T, fields string) *fieldpath.Set {
	t.Helper()
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader([]byte(fields))); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHandOver: the GitOps manager gets the fields KUDO's manager owns
// that the render sets, and only those; KUDO's entry goes.
func TestHandOver(t *testing.T) {
	const (
		kudoFields  = `{"f:spec":{"f:replicas":{},"f:revisionHistoryLimit":{},"f:template":{"f:spec":{"f:dnsPolicy":{}}}}}`
		rendered    = `{"f:spec":{"f:replicas":{},"f:paused":{}}}`
		argoFields  = `{"f:metadata":{"f:annotations":{"f:a":{}}}}`
		statusField = `{"f:status":{"f:replicas":{}}}`
	)
	cases := []struct {
		reason  string
		entries []metav1.ManagedFieldsEntry
		want    string // the GitOps manager's fields; "" for no patch
	}{
		{"KUDO's defaults (revisionHistoryLimit, dnsPolicy) are not handed over; what the render sets is",
			[]metav1.ManagedFieldsEntry{entry("manager", metav1.ManagedFieldsOperationUpdate, kudoFields)},
			`{"f:spec":{"f:replicas":{}}}`},
		{"the GitOps manager's own fields stay its own",
			[]metav1.ManagedFieldsEntry{entry("argocd-controller", metav1.ManagedFieldsOperationApply, argoFields), entry("manager", metav1.ManagedFieldsOperationUpdate, kudoFields)},
			`{"f:metadata":{"f:annotations":{"f:a":{}}},"f:spec":{"f:replicas":{}}}`},
		{"nothing of KUDO's: no patch (a second run changes nothing)",
			[]metav1.ManagedFieldsEntry{entry("argocd-controller", metav1.ManagedFieldsOperationApply, argoFields)},
			""},
		{"another client's fields are not KUDO's",
			[]metav1.ManagedFieldsEntry{entry("kubectl-edit", metav1.ManagedFieldsOperationUpdate, kudoFields)},
			""},
	}
	for _, c := range cases {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d", "resourceVersion": "7"}}}
		sub := c.entries[0]
		sub.Subresource, sub.FieldsV1 = "status", &metav1.FieldsV1{Raw: []byte(statusField)}
		sub.Manager = "manager"
		u.SetManagedFields(append(slices.Clone(c.entries), sub))
		data, err := handOver(u, []string{"manager"}, "argocd-controller", set(t, rendered))
		if err != nil {
			t.Fatalf("%s: %v", c.reason, err)
		}
		if c.want == "" {
			if data != nil {
				t.Errorf("%s: want no patch, got %s", c.reason, data)
			}
			continue
		}
		var ops []struct {
			Op, Path string
			Value    json.RawMessage
		}
		if err := json.Unmarshal(data, &ops); err != nil || len(ops) != 2 || ops[1].Path != "/metadata/resourceVersion" || string(ops[1].Value) != `"7"` {
			t.Fatalf("%s: patch %s (%v), want managedFields then the resourceVersion", c.reason, data, err)
		}
		var got []metav1.ManagedFieldsEntry
		if err := json.Unmarshal(ops[0].Value, &got); err != nil {
			t.Fatal(err)
		}
		var gitops, status int
		for _, e := range got {
			switch {
			case e.Subresource == "status":
				status++
			case e.Manager == "manager":
				t.Errorf("%s: KUDO's entry is left: %s", c.reason, e.FieldsV1.Raw)
			case e.Manager == "argocd-controller" && e.Operation == metav1.ManagedFieldsOperationApply:
				gitops++
				if !set(t, string(e.FieldsV1.Raw)).Equals(set(t, c.want)) {
					t.Errorf("%s: the GitOps manager owns %s, want %s", c.reason, e.FieldsV1.Raw, c.want)
				}
			}
		}
		if gitops != 1 || status != 1 {
			t.Errorf("%s: %d GitOps entries and %d status entries, want one of each: %+v", c.reason, gitops, status, got)
		}
	}
}
