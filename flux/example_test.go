package flux_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kudo-render/kudo-render/engine"
	"github.com/kudo-render/kudo-render/enhance"
	"github.com/kudo-render/kudo-render/flux"
	"github.com/kudo-render/kudo-render/object"
)

func ExampleLayout() {
	obj := func(kind, name string) *object.Object {
		return object.New(map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name}})
	}
	step := func(s string) enhance.Meta { return enhance.Meta{Plan: "deploy", Phase: "main", Step: s} }
	items := []engine.Item{
		{Obj: obj("ConfigMap", "web"), Wave: 0, Meta: step("config")},
		{Obj: obj("Service", "web"), Wave: 1, Meta: step("app")},
	}
	files, err := flux.Layout(items, flux.Options{Name: "shop"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		fmt.Println(f)
	}
	fmt.Print(string(files["flux/shop-01-deploy-main-app.yaml"]))
	// Output:
	// 00-deploy-main-config/configmap_web.yaml
	// 00-deploy-main-config/kustomization.yaml
	// 01-deploy-main-app/kustomization.yaml
	// 01-deploy-main-app/service_web.yaml
	// flux/kustomization.yaml
	// flux/shop-00-deploy-main-config.yaml
	// flux/shop-01-deploy-main-app.yaml
	// apiVersion: kustomize.toolkit.fluxcd.io/v1
	// kind: Kustomization
	// metadata:
	//   name: shop-01-deploy-main-app
	//   namespace: flux-system
	// spec:
	//   dependsOn:
	//   - name: shop-00-deploy-main-config
	//   interval: 10m
	//   path: ./01-deploy-main-app
	//   prune: true
	//   sourceRef:
	//     kind: OCIRepository
	//     name: shop
	//   wait: true
}
