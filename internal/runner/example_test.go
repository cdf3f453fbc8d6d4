package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/runner"
)

func ExampleRun_Render() {
	dir, _ := os.MkdirTemp("", "run-example")
	defer os.RemoveAll(dir)
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	write("web/framework.yaml", "name: web\nversion: \"1.0\"\ntasks:\n  app: {resources: [cm.yaml]}\nplans:\n  deploy:\n    steps: [{name: app, tasks: [app]}]\n")
	write("web/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\n")
	write("render.yaml", `apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: shop, namespace: prod}
spec:
  framework: {path: web}
  target: argocd
`)
	cfg, err := config.LoadFile(filepath.Join(dir, "render.yaml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	items, err := runner.New(cfg, runner.Sources{}).Render(context.Background(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ann := items[0].Obj.MapAt("metadata", "annotations")
	fmt.Println(items[0].Obj.Kind(), items[0].Obj.Name(), ann["argocd.argoproj.io/sync-wave"], ann["argocd.argoproj.io/sync-options"])
	// Output: ConfigMap shop 0 ServerSideApply=true
}
