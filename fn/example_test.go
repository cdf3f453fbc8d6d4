package fn_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/kudo-render/kudo-render/fn"
)

func ExampleFunction_Run() {
	dir, _ := os.MkdirTemp("", "fn-example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "web", "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "web", "framework.yaml"), []byte("name: web\nversion: \"1.0\"\ntasks:\n  app: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "web", "templates", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n"), 0o644)
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: kudorender.dev/v1alpha1
  kind: FrameworkRender
  metadata: {name: shop, namespace: prod}
  spec:
    framework: {path: web}
    target: plain
`
	var out bytes.Buffer
	err := (&fn.Function{Dir: dir}).Run(strings.NewReader(in), &out)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "config.kubernetes.io/path") || strings.Contains(line, "kudorender.dev/owner") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println(err)
	// Output:
	// internal.config.kubernetes.io/path: rendered/shop/configmap_shop.yaml
	// kudorender.dev/owner: web/prod/shop
	// config.kubernetes.io/path: 'rendered/shop/configmap_shop.yaml'
	// <nil>
}

// A Go program built on kyaml's fn/framework runs the function in process:
// Function is a framework.ResourceListProcessor.
func ExampleFunction_Process() {
	dir, _ := os.MkdirTemp("", "fn-example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "web", "templates"), 0o755)
	os.WriteFile(filepath.Join(dir, "web", "framework.yaml"), []byte("name: web\nversion: \"1.0\"\ntasks:\n  app: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "web", "templates", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n"), 0o644)
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: kudorender.dev/v1alpha1
  kind: FrameworkRender
  metadata: {name: shop, namespace: prod}
  spec:
    framework: {path: web}
    target: plain
`
	var out bytes.Buffer
	err := framework.Execute(&fn.Function{Dir: dir}, &kio.ByteReadWriter{Reader: strings.NewReader(in), Writer: &out})
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "kind:") || strings.Contains(line, "kudorender.dev/owner") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println(err)
	// Output:
	// kind: ResourceList
	// kind: ConfigMap
	// kudorender.dev/owner: web/prod/shop
	// kind: FrameworkRender
	// <nil>
}
