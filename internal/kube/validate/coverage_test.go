package validate

import (
	"os"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/kube/kinds"
)

// TestEveryServedKindIsChecked: every kind Kubernetes serves is validated
// by its registry's create validation, refused as a request, or listed
// as not checked with its reason, which docs/validation.md gives.
func TestEveryServedKindIsChecked(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range servedKinds {
		gk := k.GroupKind()
		switch {
		case validatorOf(gk) != nil:
		case requests[gk] != "":
		case notChecked[gk] != "":
			if !strings.Contains(string(doc), gk.Kind) {
				t.Errorf("docs/validation.md does not say why %s is not checked", gk)
			}
		default:
			t.Errorf("%s is served, neither validated nor listed as not checked", k)
		}
	}
	for gk := range notChecked {
		if validatorOf(gk) != nil {
			t.Errorf("%s is validated and listed as not checked", gk)
		}
	}
}

// TestEveryServedKindHasAScope: the table of kinds (package kube/kinds)
// knows whether each served kind is namespaced, which the validation of
// its metadata needs.
func TestEveryServedKindHasAScope(t *testing.T) {
	for _, k := range servedKinds {
		if _, ok := kinds.Lookup(k.Group, k.Kind); !ok {
			t.Errorf("package kinds does not know %s", k)
		}
	}
}
