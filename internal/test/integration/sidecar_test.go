package integration

import (
	"os"
	"path"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// TestSidecarCredentials reads examples/argocd/install/sidecar.yaml as the
// Deployment patch it is (strictly: a misspelt field fails) and checks
// where its credentials go: git credentials only with the hosts they are
// for, and registry credentials as a Docker config the sidecar's user
// reads from $HOME/.docker, from an optional Secret (the sidecar starts
// without it).
func TestSidecarCredentials(t *testing.T) {
	data, err := os.ReadFile("../../../examples/argocd/install/sidecar.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var d appsv1.Deployment
	if err := yaml.UnmarshalStrict(data, &d); err != nil {
		t.Fatalf("sidecar.yaml: %v", err)
	}
	spec := d.Spec.Template.Spec
	if len(spec.Containers) != 1 || spec.Containers[0].Name != "kudo-render" {
		t.Fatalf("containers: want the one kudo-render sidecar, got %d", len(spec.Containers))
	}
	c := spec.Containers[0]
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if env["KUDO_RENDER_GIT_HOSTS"].Value == "" {
		t.Error("KUDO_RENDER_GIT_HOSTS is not set: a git token would be refused (or, before, sent anywhere)")
	}
	if ref := env["KUDO_RENDER_GIT_TOKEN"].ValueFrom; ref == nil || ref.SecretKeyRef == nil || ref.SecretKeyRef.Optional == nil || !*ref.SecretKeyRef.Optional {
		t.Error("KUDO_RENDER_GIT_TOKEN must come from an optional Secret")
	}
	home := env["HOME"].Value
	if home == "" {
		t.Fatal("HOME is not set")
	}
	var mount *corev1.VolumeMount
	for i := range c.VolumeMounts {
		if path.Clean(c.VolumeMounts[i].MountPath) == path.Join(home, ".docker") {
			mount = &c.VolumeMounts[i]
		}
	}
	if mount == nil || !mount.ReadOnly {
		t.Fatalf("no read-only volume at %s/.docker (the Docker config the OCI source reads)", home)
	}
	for _, v := range spec.Volumes {
		if v.Name != mount.Name {
			continue
		}
		s := v.Secret
		if s == nil || s.Optional == nil || !*s.Optional {
			t.Fatalf("volume %s: want an optional Secret", v.Name)
		}
		if len(s.Items) != 1 || s.Items[0].Key != corev1.DockerConfigJsonKey || s.Items[0].Path != "config.json" {
			t.Errorf("volume %s: want its %s as config.json, got %+v", v.Name, corev1.DockerConfigJsonKey, s.Items)
		}
		return
	}
	t.Errorf("volume %s is mounted but not declared", mount.Name)
}
