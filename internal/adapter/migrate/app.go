package migrate

import (
	"fmt"
	"path"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/visible"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// ArgoCDPlugin is the name an Application gives the kudo-render plugin:
// <name>-<version> of examples/argocd/install/plugin.yaml.
const ArgoCDPlugin = "kudo-render-v1"

type application struct {
	header `yaml:",inline"`
	Spec   struct {
		Project     string `yaml:"project"`
		Destination struct {
			Server    string `yaml:"server"`
			Namespace string `yaml:"namespace"`
		} `yaml:"destination"`
		Source struct {
			RepoURL        string `yaml:"repoURL"`
			TargetRevision string `yaml:"targetRevision"`
			Path           string `yaml:"path"`
			Plugin         struct {
				Name string `yaml:"name"`
			} `yaml:"plugin"`
		} `yaml:"source"`
	} `yaml:"spec"`
}

type kustomization struct {
	header `yaml:",inline"`
	Spec   struct {
		Interval      string `yaml:"interval"`
		RetryInterval string `yaml:"retryInterval"`
		Timeout       string `yaml:"timeout"`
		Path          string `yaml:"path"`
		Prune         bool   `yaml:"prune"`
		// Wait makes it Ready only when every step's Kustomization is.
		Wait      bool `yaml:"wait"`
		SourceRef struct {
			Kind string `yaml:"kind"`
			Name string `yaml:"name"`
		} `yaml:"sourceRef"`
	} `yaml:"spec"`
}

// appName names the application of an instance: <namespace>-<name>, cut
// to a label with a hash when too long.
func appName(in *Instance) string {
	n := in.Namespace + "-" + in.Name
	if object.CheckLabel(n) == nil {
		return n
	}
	return fmt.Sprintf("%.54s-%08x", n, fnv32(n))
}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// application returns the Argo CD Application or the Flux Kustomization
// of an instance, and its file name. Neither syncs automatically nor
// prunes: the first sync of an adopted instance is a person's.
func (im *importer) application(in *Instance) ([]byte, string, error) {
	dir := path.Join(in.Namespace, in.Name)
	name := appName(in)
	if im.opts.Target == TargetFlux {
		name = in.Name // the OCIRepository and the render's Kustomizations are named after it
	}
	if other, ok := im.appNames[name]; ok {
		return nil, "", fmt.Errorf("%s: its %s would be named %s, as that of %s: import the namespaces apart (--namespace) into separate repositories", where(in), im.opts.Target, name, other)
	}
	im.appNames[name] = where(in)
	if im.opts.Target == TargetFlux {
		// As docs/flux.md: the render's flux/ folder, published as the
		// OCIRepository named after the instance that its Kustomizations read.
		var k kustomization
		k.APIVersion, k.Kind = "kustomize.toolkit.fluxcd.io/v1", "Kustomization"
		k.Metadata.Name, k.Metadata.Namespace = in.Name, "flux-system"
		k.Spec.Interval, k.Spec.Path = flux.DefaultInterval, "./flux"
		k.Spec.RetryInterval, k.Spec.Timeout, k.Spec.Wait = flux.DefaultRetryInterval, flux.ParentTimeout, true
		k.Spec.SourceRef.Kind, k.Spec.SourceRef.Name = "OCIRepository", in.Name
		data, err := marshal(k)
		head := fmt.Sprintf(`# Flux cannot run kudo-render: render in CI and push the result (docs/flux.md):
#   kudo-render render %[1]s/%[2]s --output-dir out/
#   flux push artifact oci://REGISTRY/%[3]s:$(git rev-parse --short HEAD) --path=out --source=REPO --revision=$(git rev-parse HEAD)
#   flux create source oci %[3]s --url=oci://REGISTRY/%[3]s --tag=latest
# prune stays off until the adopted objects are known to be the same.
`, visible.Escape(dir), ConfigFile, visible.Escape(in.Name))
		return append([]byte(head), data...), "flux-kustomization.yaml", err
	}
	var a application
	a.APIVersion, a.Kind = "argoproj.io/v1alpha1", "Application"
	a.Metadata.Name, a.Metadata.Namespace = appName(in), "argocd"
	a.Spec.Project = "default"
	a.Spec.Destination.Server, a.Spec.Destination.Namespace = "https://kubernetes.default.svc", in.Namespace
	a.Spec.Source.RepoURL, a.Spec.Source.TargetRevision, a.Spec.Source.Path = im.opts.RepoURL, im.opts.Revision, dir
	a.Spec.Source.Plugin.Name = ArgoCDPlugin
	data, err := marshal(a)
	return data, "application.yaml", err
}
