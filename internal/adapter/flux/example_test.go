package flux_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleLayout() {
	obj := func(kind, name string) *object.Object {
		return object.New(map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name}})
	}
	step := func(s string) engine.StepRef {
		return engine.StepRef{Namespace: "prod", Instance: "shop", Plan: "deploy", Phase: "main", Step: s}
	}
	items := []engine.Item{
		{Obj: obj("ConfigMap", "web"), Wave: 0, First: step("config")},
		{Obj: obj("Service", "web"), Wave: 1, First: step("app")},
	}
	files, err := flux.Layout(items, flux.Options{Name: "shop", InstanceNamespace: "prod"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		fmt.Println(f)
	}
	fmt.Print(string(files["common/namespace_prod.yaml"]))
	fmt.Print(string(files["flux/"+flux.KustomizationName(step("app"))+".yaml"]))
	// Output:
	// 00-deploy-main-config-33ac0eec9fcc8bfc/configmap_web.yaml
	// 00-deploy-main-config-33ac0eec9fcc8bfc/kustomization.yaml
	// 01-deploy-main-app-159727dba0f01a27/kustomization.yaml
	// 01-deploy-main-app-159727dba0f01a27/service_web.yaml
	// common/kustomization.yaml
	// common/namespace_prod.yaml
	// flux/kustomization.yaml
	// flux/shop-common-17b1ff221f00ef32.yaml
	// flux/shop-deploy-main-app-159727dba0f01a27.yaml
	// flux/shop-deploy-main-config-33ac0eec9fcc8bfc.yaml
	// apiVersion: v1
	// kind: Namespace
	// metadata:
	//   annotations:
	//     kustomize.toolkit.fluxcd.io/prune: disabled
	//     kustomize.toolkit.fluxcd.io/ssa: IfNotPresent
	//   name: prod
	// apiVersion: kustomize.toolkit.fluxcd.io/v1
	// kind: Kustomization
	// metadata:
	//   name: shop-deploy-main-app-159727dba0f01a27
	//   namespace: flux-system
	// spec:
	//   dependsOn:
	//   - name: shop-deploy-main-config-33ac0eec9fcc8bfc
	//   interval: 10m
	//   path: ./01-deploy-main-app-159727dba0f01a27
	//   prune: true
	//   retryInterval: 1m
	//   sourceRef:
	//     kind: OCIRepository
	//     name: shop
	//   timeout: 5m
	//   wait: true
}
