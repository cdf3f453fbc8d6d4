package argocd_test

import (
	"testing"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
)

// TestKubeVersionFromArgoCD: the Argo CD plugin renders for the version
// the config names, else the Application's KUBE_VERSION env, else the
// destination cluster's KUBE_VERSION when kudo-render knows it.
func TestKubeVersionFromArgoCD(t *testing.T) {
	cases := []struct {
		reason   string
		spec     string
		settings argocd.Settings
		want     string
	}{
		{reason: "the cluster's version when nothing else says", settings: argocd.Settings{ClusterVersion: "1.31.4"}, want: "1.31.4"},
		{reason: "the config wins over the cluster", spec: "1.29", settings: argocd.Settings{ClusterVersion: "1.31.4"}, want: "1.29"},
		{reason: "the Application's plugin env wins over the config", spec: "1.29", settings: argocd.Settings{KubeVersion: "1.33", ClusterVersion: "1.31.4"}, want: "1.33"},
		{reason: "a cluster newer than kudo-render knows gets the default", settings: argocd.Settings{ClusterVersion: "1.40.0"}, want: ""},
		{reason: "a cluster version that is no version is ignored", settings: argocd.Settings{ClusterVersion: "v1.x"}, want: ""},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			src := "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: a}\nspec:\n  framework: {path: .}\n"
			if c.spec != "" {
				src += "  kubeVersion: \"" + c.spec + "\"\n"
			}
			cfg, err := config.Parse("kudo-render.yaml", t.TempDir(), []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			c.settings.Apply(cfg)
			if got := cfg.Spec.KubeVersion; got != c.want {
				t.Errorf("spec.kubeVersion = %q, want %q", got, c.want)
			}
			if err := cfg.Check(); err != nil {
				t.Errorf("the config no longer checks: %v", err)
			}
		})
	}
}
