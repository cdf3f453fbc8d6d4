package config_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/config"
)

func TestParseTarget(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   config.Target
		err    bool
	}{
		"Empty":  {reason: "Empty means argocd.", in: "", want: config.ArgoCD},
		"ArgoCD": {reason: "argocd is known.", in: "argocd", want: config.ArgoCD},
		"Plain":  {reason: "plain is known.", in: "plain", want: config.Plain},
		"Case":   {reason: "Targets are case-sensitive.", in: "ArgoCD", err: true},
		"Flux":   {reason: "flux is known.", in: "flux", want: config.Flux},
		"Helm":   {reason: "Other tools are not targets.", in: "helm", err: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := config.ParseTarget(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("\n%s\nParseTarget(%q): want error %t, got %v", tc.reason, tc.in, tc.err, err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "unknown target") || !strings.Contains(err.Error(), "want argocd") || !strings.Contains(err.Error(), tc.in) {
					t.Errorf("\n%s\nParseTarget(%q): error should name the value and the choices, got %v", tc.reason, tc.in, err)
				}
				return
			}
			if got != tc.want {
				t.Errorf("\n%s\nParseTarget(%q): want %q, got %q", tc.reason, tc.in, tc.want, got)
			}
		})
	}
}
